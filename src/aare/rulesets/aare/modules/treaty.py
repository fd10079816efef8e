"""AARe 5.0 Russia-Japan non-aggression treaty (seed "BASE GAME" 4): the core's `aare.phases.non_aggression`
played with AARe's `Pact` (`aare.rulesets.aare.treaty.SPEC`)."""

from __future__ import annotations

from aare.phases.non_aggression import PactHooks
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aare.treaty import SPEC

AARE_TREATY = register_module(
    RuleModule(
        id="aare_treaty",
        title="AARe 5.0 Russia-Japan non-aggression treaty",
        rule_ids=(
            "AARE-NAT-initial-state",
            "AARE-NAT-break-russia-attacks-orange",
            "AARE-NAT-break-japan-attacks-red",
            "AARE-NAT-break-free-inf",
            "AARE-NAT-break-single-territory",
            "AARE-NAT-void-russia-attacks-japanese-nonorange",
            "AARE-NAT-void-japan-attacks-russian-nonred",
            "AARE-NAT-void-russia-enters-allied-orange",
            "AARE-NAT-void-japan-enters-german-red",
            "AARE-NAT-void-overflight",
            "AARE-NAT-void-naval-attack",
            "AARE-NAT-void-economic-attack",
            "AARE-NAT-void-free-inf",
            "AARE-NAT-void-capital-capture",
            "AARE-NAT-void-and-break-same-phase",
            "AARE-NAT-unlisted-actions-allowed",
            "AARE-NAT-ends-permanently",
        ),
        hooks=PactHooks(SPEC).hooks(),
        requires=("lhtr",),
        options=(
            OptionSpec(
                key="non_aggression_treaty",
                type=bool,
                default=True,
                help="Russia and Japan start the game with a non-aggression treaty",
                rule_id="AARE-NAT-initial-state",
            ),
        ),
    )
)
