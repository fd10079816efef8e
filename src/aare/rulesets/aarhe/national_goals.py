"""The national goals of AARHE's national victory (AARHE-NATVICTORY-*): each power's list, and whether a goal is met.

A goal is judged on a state and the public record of what happened in the game (`Facts`): "end the game" goals on
the board as it stands (at the game's end they are final), event goals ("capture") by the captures seen, "always"
and "never" goals by whether they were ever broken, income goals by the collections seen. The readings of what the
seed leaves open are in docs/rulings.md (AARHE national victory).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from aare.rulesets.aarhe import diplomacy

GERMANY, ITALY, JAPAN, USSR, UK, US = "Germany", "Italy", "Japan", "Russia", "United Kingdom", "United States"
AXIS = "Axis"

# state.extra key of the public record of what happened (captures of the watched territories, collections, ...)
FACTS = "national_goal_facts"
WATCHED = ("Germany", "United Kingdom")  # territories whose captures goals name

AFRICA = frozenset({
    "Algeria", "Anglo Egypt", "Angola", "Belgian Congo", "French Equatorial Africa", "French Madagascar",
    "French West Africa", "Italian East Africa", "Kenya", "Libya", "Mozambique", "Rio De Oro", "Sahara",
    "Union of South Africa",
})
CONTINENTAL_EUROPE = frozenset({
    "Western Europe", "Germany", "Southern Europe", "Italy", "Eastern Europe", "Balkans", "Norway", "Sweden",
    "Switzerland", "Spain", "Gibraltar", "Karelia S.S.R.", "Archangel", "West Russia", "Belorussia", "Ukraine S.S.R.",
    "Russia", "Caucasus",
})
MAINLAND_ASIA = frozenset({
    "Afghanistan", "Buryatia S.S.R.", "China", "Evenki National Okrug", "French Indochina", "Himalaya", "India",
    "Kazakh S.S.R.", "Kwangtung", "Manchuria", "Mongolia", "Novosibirsk", "Persia", "Saudi Arabia", "Sinkiang",
    "Soviet Far East", "Trans-Jordan", "Yakut S.S.R.",
})
JAPANESE_ISLANDS = ("Japan", "Okinawa", "Philippine Islands", "Borneo", "East Indies", "New Guinea", "Solomon Islands",
                    "Caroline Islands", "Wake Island")
WESTERN_HEMISPHERE = frozenset({
    "Alaska", "Western Canada", "Eastern Canada", "Greenland", "Western United States", "Central United States",
    "Eastern United States", "Mexico", "Panama", "West Indies", "Venezuela", "Brazil", "Peru", "Argentina",
})
BUFFER = ("West Russia", "Belorussia", "Ukraine S.S.R.", "Eastern Europe")
CHINA_AND_NEIGHBOURS = ("Sinkiang", "China", "Manchuria", "Kwangtung", "French Indochina")


@dataclass(frozen=True)
class Facts:
    """What happened in a game that goals look back on: `captures` (watched territory -> the powers that took it,
    in order), `collected` (power -> its last collection), `peak` (power -> its highest collection), `low` (power ->
    its lowest collection), `ics_lost` (whether the Soviet Union lost control of a territory with its complex)."""

    captures: Mapping[str, tuple[str, ...]]
    collected: Mapping[str, int]
    peak: Mapping[str, int]
    low: Mapping[str, int]
    ics_lost: bool

    @staticmethod
    def of(state: Any) -> Facts:
        raw = state.extra.get(FACTS)
        raw = raw if isinstance(raw, Mapping) else {}
        return Facts(
            captures={t: tuple(p) for t, p in (raw.get("captures") or {}).items()},
            collected=dict(raw.get("collected") or {}),
            peak=dict(raw.get("peak") or {}),
            low=dict(raw.get("low") or {}),
            ics_lost=bool(raw.get("ics_lost", False)),
        )

    def first_capturer(self, territory: str) -> str | None:
        taken = self.captures.get(territory, ())
        return taken[0] if taken else None


Check = Callable[[Any, Any, Facts], bool]


@dataclass(frozen=True)
class Goal:
    """A power's national goal: its id (as chosen: ``sea-lion``), title and rule, and its check."""

    id: str
    power: str
    title: str
    rule: str
    check: Check


# -- what the checks ask of a state ---------------------------------------------------------------------------


def owner(state: Any, territory: str) -> str | None:
    found = state.owners.get(territory)
    return None if found is None else str(found)


def held(state: Any, territories: Iterable[str], powers: Iterable[str]) -> bool:
    """Whether every one of `territories` is controlled by one of `powers`."""
    allowed = set(powers)
    return all(owner(state, t) in allowed for t in territories)


def count_held(state: Any, territories: Iterable[str], powers: Iterable[str]) -> int:
    allowed = set(powers)
    return sum(owner(state, t) in allowed for t in territories)


def unless_neutral(state: Any, territories: Iterable[str]) -> list[str]:
    """Those of `territories` no one controls yet (neutrals still neutral) left out."""
    return [t for t in territories if owner(state, t) is not None]


def side_powers(ruleset: Any, side: str) -> frozenset[str]:
    return frozenset(p.name for p in ruleset.board.powers if p.side == side)


def axis_holds(ruleset: Any, state: Any, territories: Iterable[str]) -> bool:
    return held(state, territories, side_powers(ruleset, AXIS))


def on_board(ruleset: Any, territories: Iterable[str]) -> list[str]:
    return [t for t in territories if t in ruleset.board.spaces]


def originals(ruleset: Any, power: str) -> list[str]:
    """The land territories `power` starts with (the board's owner)."""
    return sorted(s.name for s in ruleset.board.spaces.values() if s.is_land and s.owner == power)


def southern_europe(ruleset: Any) -> list[str]:
    """What the goals call Southern Europe: on the Italy map (Italy split from it) both Italy and Southern Europe."""
    return on_board(ruleset, ["Southern Europe", "Italy"])


def collected(facts: Facts, power: str) -> int:
    return int(facts.collected.get(power, 0))


# -- the checks -----------------------------------------------------------------------------------------------


def _grossdeutschland(ruleset: Any, state: Any, facts: Facts) -> bool:
    lands = unless_neutral(state, on_board(ruleset, AFRICA | CONTINENTAL_EUROPE))
    return axis_holds(ruleset, state, [*lands, "Russia"])


def _lebensraum(ruleset: Any, state: Any, facts: Facts) -> bool:
    core = ["Western Europe", "Germany", *southern_europe(ruleset), "Norway", "Eastern Europe", "Balkans"]
    return held(state, [*core, *unless_neutral(state, ["Switzerland", "Spain"])], (GERMANY, ITALY))


def _mideast_oil(ruleset: Any, state: Any, facts: Facts) -> bool:
    british_africa = [t for t in originals(ruleset, UK) if t in AFRICA]
    return held(state, [*british_africa, *on_board(ruleset, ["Gibraltar", "Malta", "Persia"])], (GERMANY, ITALY))


def _barbarossa(ruleset: Any, state: Any, facts: Facts) -> bool:
    return owner(state, "Russia") == GERMANY


def _sea_lion(ruleset: Any, state: Any, facts: Facts) -> bool:
    return GERMANY in facts.captures.get("United Kingdom", ())


def _fatherland(ruleset: Any, state: Any, facts: Facts) -> bool:
    return not facts.captures.get("Germany") and owner(state, "Germany") == GERMANY


def _reich(ruleset: Any, state: Any, facts: Facts) -> bool:
    return int(facts.peak.get(GERMANY, 0)) >= 50


def _novum_imperium(ruleset: Any, state: Any, facts: Facts) -> bool:
    lands = [*southern_europe(ruleset), "Balkans", "Trans-Jordan", "Anglo Egypt", "Libya", "Algeria"]
    return held(state, [*lands, *unless_neutral(state, ["Spain"])], (ITALY,))


def _tripartite(ruleset: Any, state: Any, facts: Facts) -> bool:
    return ITALY in facts.collected and collected(facts, ITALY) >= 25


def _mare_nostrum(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, ["Gibraltar", "Algeria", "Trans-Jordan", "Anglo Egypt"], (ITALY,))


def _minor_axis(ruleset: Any, state: Any, facts: Facts) -> bool:
    """Spain and Turkey in the Axis camp (held by the Axis, or at diplomatic position -3 or lower) and all of
    Africa held by the Axis."""
    camp = all(axis_holds(ruleset, state, [c]) or (state.owners.get(c) is None and diplomacy.position(state, c) <= -3)
               for c in ("Spain", "Turkey"))
    return camp and axis_holds(ruleset, state, on_board(ruleset, AFRICA))


def _conquer_china(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, ["Sinkiang", "China", "Manchuria", "Kwangtung"], (JAPAN,))


def _co_prosperity(ruleset: Any, state: Any, facts: Facts) -> bool:
    islands = [t for t in JAPANESE_ISLANDS if ruleset.board.spaces.get(t) and ruleset.board.spaces[t].owner == JAPAN]
    return held(state, [*islands, "Midway", "Hawaiian Islands", "Australia", "New Zealand"], (JAPAN,))


def _superpower(ruleset: Any, state: Any, facts: Facts) -> bool:
    return collected(facts, JAPAN) > collected(facts, GERMANY)


def _secure_oil(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, ["Anglo Egypt", "Trans-Jordan", "Saudi Arabia", "Persia", "Borneo", "East Indies"], (JAPAN,))


def _north_wind(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, ["Buryatia S.S.R.", "Soviet Far East", "Mongolia", "Alaska", "Midway"], (JAPAN,))


def _buffer(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, BUFFER, (USSR,))


def race_to_berlin(power: str) -> Check:
    """`power` is the first to capture Germany."""

    def check(ruleset: Any, state: Any, facts: Facts) -> bool:
        return facts.first_capturer("Germany") == power

    return check


def _heavy_industry(ruleset: Any, state: Any, facts: Facts) -> bool:
    return not facts.ics_lost and (USSR not in facts.low or int(facts.low[USSR]) >= 15)


def _east_asia(ruleset: Any, state: Any, facts: Facts) -> bool:
    if held(state, ["Manchuria", *unless_neutral(state, ["Mongolia"])], (USSR,)):
        return True
    return not any(owner(state, t) == JAPAN for t in MAINLAND_ASIA)


def _expand_communism(ruleset: Any, state: Any, facts: Facts) -> bool:
    if held(state, [*BUFFER, "Norway", "Balkans", "Turkey"], (USSR,)):
        return True
    return count_held(state, ["Mongolia", *CHINA_AND_NEIGHBOURS], (USSR,)) >= 4


def _colonial_empire(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, [*originals(ruleset, UK), "Solomon Islands", "Borneo"], (UK,))


def contained(ruleset: Any) -> list[str]:
    return ["Western Europe", *southern_europe(ruleset), "Norway"]


def _contain_communism(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, contained(ruleset), (UK, US))


def _battle_for_britain(ruleset: Any, state: Any, facts: Facts) -> bool:
    return not facts.captures.get("United Kingdom")


def _military_might(ruleset: Any, state: Any, facts: Facts) -> bool:
    return collected(facts, UK) > 35


def _contain_europe(ruleset: Any, state: Any, facts: Facts) -> bool:
    return held(state, contained(ruleset), (UK, US)) and count_held(state, CHINA_AND_NEIGHBOURS, (UK, US)) >= 3


def _protect_americas(ruleset: Any, state: Any, facts: Facts) -> bool:
    axis = side_powers(ruleset, AXIS)
    hemisphere = on_board(ruleset, WESTERN_HEMISPHERE)
    if any(owner(state, t) in axis for t in hemisphere):
        return False
    near = {n for t in hemisphere for n in ruleset.board.spaces[t].neighbors} | set(hemisphere)
    return not any(stack.owner in axis for space in near for stack in state.stacks(space))


def _public_support(ruleset: Any, state: Any, facts: Facts) -> bool:
    return collected(facts, US) > 45


def _olympic(ruleset: Any, state: Any, facts: Facts) -> bool:
    return owner(state, "Japan") == US


def _goal(power: str, id_: str, title: str, rule: str, check: Check) -> Goal:
    return Goal(id_, power, title, f"AARHE-NATVICTORY-{rule}", check)


GOALS: tuple[Goal, ...] = (
    _goal(GERMANY, "grossdeutschland", "Grossdeutschland", "ger-grossdeutschland", _grossdeutschland),
    _goal(GERMANY, "lebensraum", "Establish Lebensraum", "ger-lebensraum", _lebensraum),
    _goal(GERMANY, "mideast-oil", "Seize Mideast Oil", "ger-mideast-oil", _mideast_oil),
    _goal(GERMANY, "barbarossa", "Operation Barbarossa", "ger-barbarossa", _barbarossa),
    _goal(GERMANY, "sea-lion", "Operation Sea Lion", "ger-sea-lion", _sea_lion),
    _goal(GERMANY, "defend-fatherland", "Defend the Fatherland", "ger-defend-fatherland", _fatherland),
    _goal(GERMANY, "thousand-year-reich", "1000 Year Reich", "ger-thousand-year-reich", _reich),
    _goal(ITALY, "novum-imperium", "Novum Imperium Romanum", "ita-novum-imperium", _novum_imperium),
    _goal(ITALY, "tripartite", "Remain an important part of the Tripartite Pact", "ita-tripartite", _tripartite),
    _goal(ITALY, "mare-nostrum", "Mare Nostrum", "ita-mare-nostrum", _mare_nostrum),
    _goal(ITALY, "minor-axis-allies", "Minor Axis Allies", "ita-minor-axis-allies", _minor_axis),
    _goal(JAPAN, "conquer-china", "Conquer China", "jpn-conquer-china", _conquer_china),
    _goal(JAPAN, "co-prosperity", "Greater East Asia Co-Prosperity Sphere", "jpn-co-prosperity", _co_prosperity),
    _goal(JAPAN, "post-war-superpower", "Post War Superpower", "jpn-post-war-superpower", _superpower),
    _goal(JAPAN, "secure-oil", "Secure Oil Resources", "jpn-secure-oil", _secure_oil),
    _goal(JAPAN, "north-wind-rain", "North Wind Rain", "jpn-north-wind-rain", _north_wind),
    _goal(USSR, "eastern-europe-buffer", "Eastern Europe Buffer", "ussr-eastern-europe-buffer", _buffer),
    _goal(USSR, "race-to-berlin", "Race to Berlin", "ussr-race-to-berlin", race_to_berlin(USSR)),
    _goal(USSR, "heavy-industry", "Protect Heavy Industry", "ussr-heavy-industry", _heavy_industry),
    _goal(USSR, "east-asia", "East Asia Influence", "ussr-east-asia", _east_asia),
    _goal(USSR, "expand-communism", "Expand Communism", "ussr-expand-communism", _expand_communism),
    _goal(UK, "colonial-empire", "Preserve Colonial Empire", "uk-colonial-empire", _colonial_empire),
    _goal(UK, "race-to-berlin", "Race to Berlin", "uk-race-to-berlin", race_to_berlin(UK)),
    _goal(UK, "contain-communism", "Contain Communism", "uk-contain-communism", _contain_communism),
    _goal(UK, "battle-for-britain", "Battle for Britain", "uk-battle-for-britain", _battle_for_britain),
    _goal(UK, "military-might", "Preserve Military Might", "uk-military-might", _military_might),
    _goal(US, "contain-communism", "Contain Communism in Europe", "us-contain-communism-europe", _contain_europe),
    _goal(US, "protect-americas", "Protect the Americas", "us-protect-americas", _protect_americas),
    _goal(US, "public-support", "Maintain Public Support", "us-public-support", _public_support),
    _goal(US, "race-to-berlin", "Race to Berlin", "us-race-to-berlin", race_to_berlin(US)),
    _goal(US, "operation-olympic", "Operation Olympic", "us-operation-olympic", _olympic),
)


def goals_of(power: str) -> dict[str, Goal]:
    """`power`'s goals by id, in the seed's order."""
    return {g.id: g for g in GOALS if g.power == power}


def goal_met(ruleset: Any, state: Any, power: str, goal: str, facts: Facts | None = None) -> bool:
    """Whether `power`'s goal `goal` is met on `state` (as things stand; at the game's end, for good)."""
    return goals_of(power)[goal].check(ruleset, state, Facts.of(state) if facts is None else facts)
