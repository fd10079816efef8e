"""AA50E Russia-Japan non-aggression treaty (module `aa50e_treaty`, seed 3): the core's
`aare.phases.non_aggression` played by the Soviet Union and Japan, always in force at the start (no option).

The variant's readings: the colour of a territory is its printed owner on the board (Manchuria and Kiangsu are
Chinese, Kwangtung British: attacking them while Japan holds them voids, never breaks); the Soviet Union may not
enter original Japanese land held by the United Kingdom, the United States or China, Japan not original Soviet
land held by Germany or Italy; Soviet submarines taking IPCs from Japan's convoys void it at Japan's collect income
(the Soviet Union is never raided). The module follows `aa50e_convoy` so that the raids are known when it looks.
"""

from __future__ import annotations

from aare.phases.non_aggression import Pact, PactHooks, PactRules
from aare.rules.rule_module import RuleModule, register_module

SOVIET, JAPAN = "Soviet Union", "Japan"
R = "AA50E-NAP-"

SPEC = Pact(
    parties=(SOVIET, JAPAN),
    forbidden_holders={SOVIET: ("United Kingdom", "United States", "China"), JAPAN: ("Germany", "Italy")},
    rules=PactRules(
        initial=R + "starts-in-force",
        break_free=R + "break-free-infantry",
        break_one=R + "break-multiple-targets",
        void_free=R + "void-free-infantry",
        capital=R + "void-capital-captured",
        both=R + "void-and-broken-same-phase",
        ends=R + "one-time",
        break_attack={SOVIET: R + "break-russia-attacks-orange", JAPAN: R + "break-japan-attacks-red"},
        void_attack={SOVIET: R + "void-russia-attacks-japanese-nonorange",
                     JAPAN: R + "void-japan-attacks-russian-nonred"},
        void_enter={SOVIET: R + "void-russia-enters-allied-orange", JAPAN: R + "void-japan-enters-axis-red"},
        overflight=R + "void-overflight",
        naval=R + "void-naval-attack",
        economic=R + "void-economic-attack",
    ),
    convoy_victims=(JAPAN,),
)

MODULE = register_module(
    RuleModule(
        id="aa50e_treaty",
        title="Anniversary Edition - Enhanced: the Russia-Japan non-aggression treaty",
        rule_ids=tuple(R + slug for slug in (
            "starts-in-force", "break-russia-attacks-orange", "break-japan-attacks-red", "break-free-infantry",
            "break-multiple-targets", "void-russia-attacks-japanese-nonorange", "void-japan-attacks-russian-nonred",
            "void-russia-enters-allied-orange", "void-japan-enters-axis-red", "void-overflight", "void-naval-attack",
            "void-economic-attack", "void-free-infantry", "void-capital-captured", "void-and-broken-same-phase",
            "unlisted-actions", "one-time",
        )),
        hooks=PactHooks(SPEC).hooks(),
        requires=("aa50e_convoy",),
    )
)
