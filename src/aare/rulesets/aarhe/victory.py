"""AARHE game modes and victory cities (module `aarhe_victory`): the players choose total, city or economic
victory at set-up (option `victory_mode`); the 35 victory cities carry victory city points (VCP).

Reading (docs/rulings.md): every mode is checked at the end of a round, as LHTR checks victory (the variant
does not say when); total victory needs every land territory but the neutrals still uncontrolled; economic
victory compares the printed value of the territories each side controls, an exact tie a draw."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aare.errors import IllegalAction
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.victory import victory_hooks
from aare.rulesets.aarhe.turn import ALLIES, AXIS

R_SELECT = "AARHE-MODE-select"
R_TOTAL = "AARHE-MODE-total"
R_CITY = "AARHE-MODE-city"
R_BID = "AARHE-MODE-economic-bid"
R_ECONOMIC = "AARHE-MODE-economic-end"
R_TABLE = "AARHE-VC-table"
R_MINOR = "AARHE-VC-minor-definition"

TOTAL, CITY, ECONOMIC = "total", "city", "economic"
DRAW = "draw"
# victory city points a side needs in city victory (AARHE-MODE-city)
CITY_POINTS = {AXIS: 45, ALLIES: 55}

# territory -> (city, victory city points), by the power that starts with them (AARHE-VC-table); Rome is in
# Southern Europe on the Revised board
CITIES: dict[str, tuple[str, int]] = {
    # Germany: 18
    "Germany": ("Berlin", 6),
    "Southern Europe": ("Rome", 5),
    "Western Europe": ("Paris", 2),
    "Eastern Europe": ("Warsaw", 2),
    "Balkans": ("Bucharest", 2),
    "Ukraine S.S.R.": ("Kiev", 1),
    # Japan: 15
    "Japan": ("Tokyo", 6),
    "Manchuria": ("Hsinking", 2),
    "French Indochina": ("Singapore", 2),
    "Borneo": ("Kuching", 2),
    "Kwangtung": ("Shanghai", 1),
    "East Indies": ("Batavia", 1),
    "Philippine Islands": ("Manila", 1),
    # Soviet Union: 18
    "Russia": ("Moscow", 6),
    "Caucasus": ("Stalingrad", 4),
    "Karelia S.S.R.": ("Leningrad", 3),
    "Novosibirsk": ("Novosibirsk", 2),
    "Archangel": ("Archangel", 1),
    "Kazakh S.S.R.": ("Almaty", 1),
    "Buryatia S.S.R.": ("Vladivostok", 1),
    # United Kingdom: 12
    "United Kingdom": ("London", 5),
    "Eastern Canada": ("Toronto", 2),
    "Anglo Egypt": ("Cairo", 1),
    "India": ("Calcutta", 1),
    "Australia": ("Sydney", 1),
    "Persia": ("Tehran", 1),
    "Union of South Africa": ("Cape Town", 1),
    # United States: 14
    "Eastern United States": ("Washington", 5),
    "Western United States": ("Los Angeles", 4),
    "Central United States": ("Chicago", 2),
    "China": ("Chungking", 1),
    "Sinkiang": ("Ürümqi", 1),
    "Brazil": ("Rio de Janeiro", 1),
    # neutrals: 4
    "Turkey": ("Ankara", 2),
    "Spain": ("Madrid", 2),
}


_ON_BOARD: dict[str, dict[str, tuple[str, int]]] = {}


def cities_on(board: Any | None) -> Mapping[str, tuple[str, int]]:
    """The victory cities by the territory that holds each on `board`: a city the board marks in another
    territory than on the Revised board (Rome in Italy on the Italy map) is counted there."""
    if board is None:
        return CITIES
    if board.id not in _ON_BOARD:
        marked = {s.victory_city: s.name for s in board.spaces.values() if s.victory_city}
        _ON_BOARD[board.id] = {marked.get(city, territory): (city, vcp) for territory, (city, vcp) in CITIES.items()}
    return _ON_BOARD[board.id]


def points(territory: str, board: Any | None = None) -> int:
    """The victory city points of the city in `territory` (0 without one), on `board` (default: the Revised)."""
    return cities_on(board).get(territory, ("", 0))[1]


def is_minor(territory: str, board: Any | None = None) -> bool:
    """A minor victory city is worth exactly 1 VCP (AARHE-VC-minor-definition)."""
    return points(territory, board) == 1


def city_points(ruleset: Any, state: Any) -> dict[str, int]:
    """The victory city points each side controls."""
    held = dict.fromkeys((AXIS, ALLIES), 0)
    for territory, (_, vcp) in cities_on(ruleset.board).items():
        owner = state.owners.get(territory)
        if owner is not None:
            side = ruleset.board.side_of(owner)
            held[side] = held.get(side, 0) + vcp
    return held


def territory_values(ruleset: Any, state: Any) -> dict[str, int]:
    """The printed value of the territories each side controls (AARHE-MODE-economic-end)."""
    held = dict.fromkeys((AXIS, ALLIES), 0)
    for territory, owner in state.owners.items():
        side = ruleset.board.side_of(owner)
        held[side] = held.get(side, 0) + ruleset.board.spaces[territory].ipc
    return held


def total_winner(ruleset: Any, state: Any) -> str | None:
    """The side controlling every land territory but the neutrals no one controls (AARHE-MODE-total)."""
    sides = {ruleset.board.side_of(owner) for owner in state.owners.values()}
    return sides.pop() if len(sides) == 1 else None


def victory_by(ruleset: Any, state: Any) -> tuple[str, str, str] | None:
    """The winner at the end of a round by the game mode chosen at set-up (AARHE-MODE-select), with the reason
    and rule."""
    mode = ruleset.options.get("victory_mode", CITY)
    if mode == TOTAL:
        winner = total_winner(ruleset, state)
        return None if winner is None else (winner, "total victory: every territory controlled", R_TOTAL)
    if mode == CITY:
        held = city_points(ruleset, state)
        for side in (AXIS, ALLIES):
            if held.get(side, 0) >= CITY_POINTS[side]:
                return side, f"city victory: {held[side]} victory city points", R_CITY
        return None
    if state.round < int(ruleset.options.get("economic_rounds", 10)):
        return None
    values = territory_values(ruleset, state)
    if values[AXIS] == values[ALLIES]:
        return DRAW, f"economic victory: a tie at {values[AXIS]} IPCs each", R_ECONOMIC
    side = max(values, key=lambda s: values[s])
    return side, f"economic victory: {values[AXIS]} IPCs (Axis) to {values[ALLIES]} (Allies)", R_ECONOMIC


def round_bid(bids: Mapping[str, int], rebids: Mapping[str, int] | None = None,
              roll: Callable[[], int] | None = None) -> tuple[str, int]:
    """Economic victory's bid (AARHE-MODE-economic-bid): each of two players bids the rounds the game should
    last if it plays the Axis; the higher bid takes the Axis and sets the length. A tie is bid again; a second
    tie is decided by a die for each player in turn, rolled again while equal (the higher roll takes the Axis at
    the bid). Returns (the Axis player, rounds)."""
    if len(bids) != 2 or any(n < 1 for n in bids.values()):
        raise IllegalAction("economic victory needs a bid of at least 1 round from each of two players", R_BID)
    (first, a), (second, b) = sorted(bids.items())
    if a != b:
        return (first, a) if a > b else (second, b)
    if rebids is not None:
        return round_bid(rebids, None, roll)
    if roll is None:
        raise IllegalAction(f"the bids tie at {a} rounds: bid again", R_BID)
    while True:
        x, y = roll(), roll()
        if x != y:
            return (first, a) if x > y else (second, a)


def _cities(cities: dict[str, str], ruleset: Any, **_: Any) -> dict[str, str]:
    """The 35 AARHE victory cities (AARHE-VC-table) in place of the Revised twelve."""
    return {territory: city for territory, (city, _) in cities_on(ruleset.board).items()}


def _thresholds(needed: dict[str, int], **_: Any) -> dict[str, int]:
    """No count of cities wins: the mode decides (`victory_by`)."""
    return {}


def _standing(records: list[dict[str, Any]], ruleset: Any, state: Any, **_: Any) -> list[dict[str, Any]]:
    """How the chosen mode stands."""
    mode = ruleset.options.get("victory_mode", CITY)
    if mode == CITY:
        held = city_points(ruleset, state)
        return [*records, *points_standing(held, CITY_POINTS, R_CITY)]
    if mode == ECONOMIC:
        values = territory_values(ruleset, state)
        rounds = int(ruleset.options.get("economic_rounds", 10))
        text = f"after round {rounds} the side with more territory IPCs wins: Axis {values[AXIS]}, Allies "
        text += str(values[ALLIES])
        return [*records, {"kind": "economic", "text": text, "rule_id": R_ECONOMIC}]
    return [*records, total_standing(R_TOTAL)]


def points_standing(held: Mapping[str, int], needed: Mapping[str, int], rule_id: str) -> list[dict[str, Any]]:
    """Each side's victory city points against the points it needs."""
    return [{"kind": "city points", "text": f"{side}: {held.get(side, 0)} of {needed[side]} victory city points",
             "rule_id": rule_id, "side": side, "level": held.get(side, 0), "needed": needed[side],
             "met": held.get(side, 0) >= needed[side]} for side in (AXIS, ALLIES)]


def total_standing(rule_id: str) -> dict[str, Any]:
    """Total victory's standing: no count, the first side to hold every territory."""
    return {"kind": "total", "text": "the first side to control every territory wins", "rule_id": rule_id}


AARHE_VICTORY = register_module(
    RuleModule(
        id="aarhe_victory",
        title="AARHE game modes: total, city and economic victory",
        rule_ids=(R_SELECT, R_TOTAL, R_CITY, R_BID, R_ECONOMIC, R_TABLE, R_MINOR),
        hooks={**victory_hooks(victory_by), "victory_cities": _cities, "victory_thresholds": _thresholds,
               "victory_standing": _standing},
        requires=("lhtr",),
        replaces_options=("victory_cities",),
        options=(
            OptionSpec(
                key="victory_mode",
                type=str,
                default=CITY,
                choices=(CITY, TOTAL, ECONOMIC),
                help="the game mode chosen at set-up: city (Axis 45, Allies 55 victory city points), total (every "
                "territory) or economic (territory IPCs after the rounds bid)",
                rule_id=R_SELECT,
            ),
            OptionSpec(
                key="economic_rounds",
                type=int,
                default=10,
                minimum=1,
                help="economic victory: the rounds the game lasts (the winning bid, see `round_bid`)",
                rule_id=R_BID,
            ),
        ),
    )
)
