"""AA50E national advantages (optional rules 2; module `aa50e_advantages`, on with the game option
`national_advantages`): every nation has all the advantages listed for it (AA50E-NA-selection), in force from
the start. Battle abilities go into the nation's techs as ``na:<id>`` (`battle_inputs`; the calculator's
``--attacker-advantage`` / ``--defender-advantage`` name them) and `TechBonus` records change the values:

- Germany: Wolf Packs (undetected submarines attack at 3 in the first cycle; each submarine takes 2 IPCs in a
  convoy raid), Atlantic Wall (infantry and artillery defend at 3 in the first cycle in Norway, Northwestern
  Europe and France).
- Japan: Yamato (battleships roll twice in the first cycle, attacking, defending and bombarding).
- United States: Marines (infantry landed from the sea attack at 2 in the first cycle, 3 with artillery), Tech
  Investment (4 rolls develop a tech).
- Italy: Africa Corps (an infantry, an artillery and an armour in Libya at the end of each turn while Italy holds
  it), +5 IPCs for an Axis Mediterranean.
- United Kingdom: Colonial Garrison (one free infantry a round in Australia, Egypt, India or Union of South
  Africa), Lend-Lease (`lend_lease`).
- China: its infantry count rounded up, no cap of three per territory.
- The Soviet Union's Railway and Mobile Industry and Japan's Tokyo Express: `advantages_moves`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.combat.battle_state import Side, UnitKey
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.setup import Battle
from aare.economy.turn import held_since_turn_start
from aare.errors import MalformedInput
from aare.events import UnitsAdded
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.bonuses import IncomeBonus
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aa50e import advantages_moves, lend_lease, tech_grants
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

OPTION = "national_advantages"
PREFIX = "na:"
GER, JPN, US, ITA, UK, CHN = "Germany", "Japan", "United States", "Italy", "United Kingdom", "China"
WOLF_PACKS, ATLANTIC_WALL, YAMATO, MARINES = "wolf_packs", "atlantic_wall", "yamato", "marines"
ABILITIES = {GER: (WOLF_PACKS,), JPN: (YAMATO,), US: (MARINES,)}  # always in the nation's battles
ATLANTIC = ("Norway", "Northwestern Europe", "France")
R_SELECTION = "AA50E-NA-selection"
R_WOLF, R_WOLF_CRD = "AA50E-NA-ger-wolf-packs-attack", "AA50E-NA-ger-wolf-packs-crd"
R_WALL_INF, R_WALL_ART = "AA50E-NA-ger-atlantic-wall-infantry", "AA50E-NA-ger-atlantic-wall-artillery"
R_YAMATO, R_MARINES = "AA50E-NA-jpn-yamato", "AA50E-NA-usa-marines"
R_TECH_INVESTMENT = "AA50E-NA-usa-tech-investment"
R_AFRICA, R_MED = "AA50E-NA-ita-africa-corps", "AA50E-NA-ita-mediterranean-bonus"
R_GARRISON = "AA50E-NA-uk-colonial-garrison"
R_CHN_ROUND, R_CHN_CAP = "AA50E-NA-chn-round-up", "AA50E-NA-chn-no-placement-cap"
DETECTED = "detected"  # the flag of a detected submarine (sub-detection rules)

AFRICA_CORPS = {"infantry": 1, "artillery": 1, "armour": 1}
LIBYA = "Libya"
MEDITERRANEAN = ("Egypt", "Trans-Jordan", "Libya", "Anglo-Egyptian Sudan", "Italian Africa", "Gibraltar", "Balkans",
                 "Morocco Algeria")
MED_ZONES = ("SZ 13", "SZ 14", "SZ 15", "SZ 16")
MED_BONUS = 5
GARRISON = ("Australia", "Egypt", "India", "Union of South Africa")


def ability(adv: str) -> str:
    return PREFIX + adv


# --- battles ----------------------------------------------------------------------------------------------------


def _undetected(battle: Battle, side: Side, key: UnitKey) -> bool:
    """A submarine not (yet) detected, under rules with sub detection (without them every sub is detected)."""
    return battle.setup.rules.sub_detection is not None and not key.has(DETECTED)


def _landed(battle: Battle, side: Side, key: UnitKey) -> bool:
    """A unit that came ashore from the sea in an amphibious assault."""
    return battle.state.kind == "amphibious" and key.has("amphibious")


BONUSES = (
    TechBonus(ability(WOLF_PACKS), "submarine", "attack", 1, R_WOLF, cycles=1, when=_undetected),
    TechBonus(ability(ATLANTIC_WALL), "infantry", "defense", 1, R_WALL_INF, cycles=1),
    TechBonus(ability(ATLANTIC_WALL), "artillery", "defense", 1, R_WALL_ART, cycles=1),
    TechBonus(ability(YAMATO), "battleship", "dice", 1, R_YAMATO, cycles=1),
    TechBonus(ability(MARINES), "infantry", "attack", 1, R_MARINES, cycles=1, when=_landed),
)
KNOWN = {WOLF_PACKS, ATLANTIC_WALL, YAMATO, MARINES}


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, *BONUSES))


def _tags(power: str, defending: bool, space: str) -> frozenset[str]:
    found = {ability(a) for a in ABILITIES.get(power, ())}
    if power == GER and defending and space in ATLANTIC:
        found.add(ability(ATLANTIC_WALL))
    return frozenset(found)


def _battle_inputs(inputs: dict[str, Any], site: Any, **_: Any) -> dict[str, Any]:
    """Each nation's battle abilities in its techs (the Atlantic Wall only defending its three territories)."""
    out = dict(inputs)
    attacker = site.attacker
    out["attacker_techs"] = frozenset(out.get("attacker_techs") or ()) | _tags(attacker, False, site.space)
    owners = dict(out.get("owner_techs") or {})
    for power in owners:
        owners[power] = frozenset(owners[power]) | _tags(power, power != attacker, site.space)
    if owners:
        out["owner_techs"] = owners
    return out


def _battle_abilities(tags: frozenset[str], names: Iterable[str] = (), **_: Any) -> frozenset[str]:
    """Advantages named for a calculated battle: their abilities, as if their conditions held (the Atlantic Wall
    as in one of its territories)."""
    wanted = {"_".join(n.lower().replace("-", " ").split()) for n in names}
    unknown = sorted(wanted - KNOWN)
    if unknown:
        raise MalformedInput(f"unknown national advantage {', '.join(unknown)} (battle abilities: "
                             f"{', '.join(sorted(KNOWN))})")
    return tags | {ability(n) for n in wanted}


# --- income and free units --------------------------------------------------------------------------------------


def axis_mediterranean(state: GameState, ruleset: Any, power: str) -> bool:
    """The Axis hold the eight territories and no enemy surface ship is in sea zones 13-16."""
    board = ruleset.board
    side = board.side_of(power)
    if any(state.owners.get(t) is None or board.side_of(state.owners[t]) != side for t in MEDITERRANEAN):
        return False
    return not any(board.side_of(s.owner) != side and ruleset.units[s.unit].domain == "sea"
                   and not ruleset.units[s.unit].has("submarine") for z in MED_ZONES for s in state.stacks(z))


def _income_bonuses(found: list[IncomeBonus], ruleset: Any, power: str, state: GameState,
                    **_: Any) -> list[IncomeBonus]:
    if power == ITA and axis_mediterranean(state, ruleset, power):
        return [*found, IncomeBonus(MED_BONUS, "national advantage: an Axis Mediterranean", R_MED)]
    return found


class AfricaCorps(PhaseExtension):
    """At the end of Italy's turn an infantry, an artillery and an armour appear in Libya, while Italy holds it."""

    name = "africa-corps"

    def on_enter(self, ctx: TurnContext) -> None:
        if ctx.power == ITA and ctx.state.owners.get(LIBYA) == ITA:
            ctx.emit(*(UnitsAdded(LIBYA, Stack(ITA, u, n), R_AFRICA) for u, n in AFRICA_CORPS.items()))


class ColonialGarrison(PhaseExtension):
    """The United Kingdom's mobilize: one free infantry is due, placed (`free colonial_garrison: 1 infantry in
    India`) in one of the four territories it has held since its turn began."""

    name = "colonial-garrison"

    def on_enter(self, ctx: TurnContext) -> None:
        if ctx.power != UK or not any(held_since_turn_start(ctx.state, UK, t) for t in GARRISON):
            return
        grant = {"tech": "colonial_garrison", "units": {"infantry": 1}, "where": "listed", "phase": "mobilize",
                 "rule": R_GARRISON, "spaces": list(GARRISON)}
        ctx.emit(tech_grants.owed_event(ctx.state, UK, [*tech_grants.owed(ctx.state, UK), grant], R_GARRISON))


AFRICA, COLONIAL = AfricaCorps(), ColonialGarrison()


def _phase_actions(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
    found = lend_lease.phase_actions(found, phase, state)
    if phase == "collect-income":
        return [*found, AFRICA]
    if phase == "mobilize":
        at = next((i for i, x in enumerate(found) if isinstance(x, tech_grants.DueGrants)), len(found))
        return [*found[:at], COLONIAL, *found[at:]]  # the garrison is owed before the grants are offered
    return found


def _reinforcement_rules(rules: Any, power: str = "", **_: Any) -> Any:
    """China rounds its count up and places with no cap of three (AA50E-NA-chn-round-up, -no-placement-cap)."""
    return replace(rules, round_up=True, cap=None) if power == CHN else rules


EFFECTS = (
    Effect("convoy_damage", GER, "set", 2, R_WOLF_CRD, "Wolf Packs"),
    Effect("research_auto_dice", US, "set", 4, R_TECH_INVESTMENT, "Tech Investment"),
)

MODULE = register_module(
    RuleModule(
        id="aa50e_advantages",
        title="Anniversary Edition - Enhanced: national advantages",
        rule_ids=(
            R_SELECTION, R_WOLF, R_WOLF_CRD, R_WALL_INF, R_WALL_ART, R_YAMATO, R_MARINES, R_TECH_INVESTMENT,
            R_AFRICA, R_MED, R_GARRISON, R_CHN_ROUND, R_CHN_CAP, lend_lease.RULE,
            *advantages_moves.RULE_IDS,
        ),
        hooks={
            "combat_rules": _combat_rules,
            "battle_inputs": _battle_inputs,
            "battle_abilities": _battle_abilities,
            "income_bonuses": _income_bonuses,
            "phase_actions": _phase_actions,
            "reinforcement_rules": _reinforcement_rules,
            **advantages_moves.HOOKS,
        },
        effects=EFFECTS,
        option=OPTION,
        options=(OptionSpec(OPTION, bool, False, "every nation has the national advantages listed for it",
                            R_SELECTION),),
        requires=("aa50e", "aa50e_research"),
    )
)
