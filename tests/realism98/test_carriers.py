"""Enhanced Realism '98 carriers: own-nation fighters only; a carrier moves 1 or 2 sea zones and launches its
fighters, which fly at most 1; a carrier that launched stays; its fighters come back to it if at all possible;
fighters join or leave carriers only in non-combat move and only if they did not fight."""

from __future__ import annotations

from typing import Any

import pytest

from aare.actions import Place
from aare.board.notation import parse_units
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.rulesets.classic.realism.carrier_placement import CLASSIC_BAN, phase_actions
from aare.state.unit_stacks import Stack
from tests.movement.helpers import end, move, mv, rejected, stacks_of, units_in
from tests.realism98.air_common import after_combat, at

SFE = {"Soviet Far East": "Russia: 1 infantry"}


@pytest.mark.rule("REAL98-CARRIER-own-nation")
def test_a_fighter_lands_only_on_its_own_nations_carrier() -> None:
    game = at("United Kingdom", "non-combat-move", {"East Canada": "United Kingdom: 1 fighter",
                                                    "East Canada Sea Zone": "United States: 1 carrier"})
    rejected(game, mv("1 fighter", "East Canada", "East Canada Sea Zone"), "REAL98-CARRIER-own-nation",
             "own nation")
    own = at("United Kingdom", "non-combat-move", {"East Canada": "United Kingdom: 1 fighter",
                                                   "East Canada Sea Zone": "United Kingdom: 1 carrier"})
    move(own, "1 fighter", "East Canada", "East Canada Sea Zone")
    end(own)
    assert units_in(own, "East Canada Sea Zone") == {"carrier": 1, "fighter": 1}


@pytest.mark.rule("REAL98-CARRIER-move-then-launch", "REAL98-AIR-carrier-fighter-range")
def test_carrier_moves_two_zones_then_launches_its_fighters_one_space() -> None:
    game = at("Japan", "combat-move", {"Okinawa Sea Zone": "Japan: 1 carrier, 2 fighters", **SFE})
    carrier_moves = [a.path for a in game.legal_actions() if a.type == "move" and a.units == "1 carrier"]
    assert ["Okinawa Sea Zone", "Japan Sea Zone", "Soviet Far East Sea Zone"] in carrier_moves  # bots see it
    move(game, "1 carrier", "Okinawa Sea Zone", "Japan Sea Zone", "Soviet Far East Sea Zone")
    assert units_in(game, "Soviet Far East Sea Zone") == {"carrier": 1, "fighter": 2}
    launches = [a.path for a in game.legal_actions() if a.type == "move" and a.units == "1 fighter"]
    assert launches == [["Soviet Far East Sea Zone", "Soviet Far East"]]
    [riding] = stacks_of(game, "Soviet Far East Sea Zone", "fighter")
    assert riding.moved == 0 and not flags.has(riding, flags.COMBAT)
    move(game, "2 fighters", "Soviet Far East Sea Zone", "Soviet Far East")
    assert units_in(game, "Soviet Far East", "Japan") == {"fighter": 2}
    rejected(game, mv("1 carrier", "Soviet Far East Sea Zone", "Alaska Sea Zone"), "REAL98-CARRIER-stop-after-launch")
    end(game)  # the carrier's move had a purpose: it launched the attack
    assert game.state.phase == "conduct-combat"


@pytest.mark.rule("REAL98-CARRIER-move-then-launch")
def test_a_carrier_moves_in_combat_move_only_to_launch_an_attack() -> None:
    empty = at("Japan", "combat-move", {"Okinawa Sea Zone": "Japan: 1 carrier", **SFE})
    rejected(empty, mv("1 carrier", "Okinawa Sea Zone", "Japan Sea Zone", "Soviet Far East Sea Zone"),
             "CL-TURN-combat-move-purpose")
    nothing_near = at("Japan", "combat-move", {"Okinawa Sea Zone": "Japan: 1 carrier, 1 fighter"})
    rejected(nothing_near, mv("1 carrier", "Okinawa Sea Zone", "Japan Sea Zone"), "CL-TURN-combat-move-purpose")
    idle = at("Japan", "combat-move", {"Okinawa Sea Zone": "Japan: 1 carrier, 1 fighter", **SFE})
    move(idle, "1 carrier", "Okinawa Sea Zone", "Japan Sea Zone", "Soviet Far East Sea Zone")
    with pytest.raises(Exception, match="nothing to attack"):
        end(idle)  # the fighters must launch, or the carrier had no business moving


@pytest.mark.rule("REAL98-CARRIER-stop-after-launch")
def test_a_carrier_that_launched_moves_no_more_this_turn() -> None:
    launched = at("Japan", "combat-move", {"Japan Sea Zone": "Japan: 1 carrier, 1 fighter",
                                            "Manchuria": "Russia: 1 infantry"}, owners={"Manchuria": "Russia"})
    move(launched, "1 fighter", "Japan Sea Zone", "Manchuria")
    rejected(launched, mv("1 carrier", "Japan Sea Zone", "Okinawa Sea Zone"), "REAL98-CARRIER-stop-after-launch")
    back = after_combat(launched, ("Manchuria", "Russia"))
    rejected(back, mv("1 carrier", "Japan Sea Zone", "Okinawa Sea Zone"), "REAL98-CARRIER-stop-after-launch")


@pytest.mark.rule("REAL98-CARRIER-stop-after-launch")
def test_a_second_carrier_may_leave_when_the_first_keeps_room_for_the_launched_fighters() -> None:
    game = at("Japan", "combat-move", {"Japan Sea Zone": "Japan: 2 carriers, 1 fighter",
                                       "Manchuria": "Russia: 1 infantry"}, owners={"Manchuria": "Russia"})
    move(game, "1 fighter", "Japan Sea Zone", "Manchuria")
    back = after_combat(game, ("Manchuria", "Russia"))
    move(back, "1 carrier", "Japan Sea Zone", "Okinawa Sea Zone")
    rejected(back, mv("1 carrier", "Japan Sea Zone", "Philippines Sea Zone"), "REAL98-CARRIER-stop-after-launch")
    move(back, "1 fighter", "Manchuria", "Japan Sea Zone")
    end(back)
    assert units_in(back, "Japan Sea Zone") == {"carrier": 1, "fighter": 1}


def _sub_hunt(units: dict[str, str]) -> Game:
    game = at("Japan", "combat-move", {"Japan Sea Zone": "Japan: 1 carrier, 1 fighter",
                                       "Soviet Far East Sea Zone": "Russia: 1 submarine", **units},
              owners={"Soviet Far East": "Japan"})
    move(game, "1 fighter", "Japan Sea Zone", "Soviet Far East Sea Zone")
    return after_combat(game, ("Soviet Far East Sea Zone", "Russia"))


@pytest.mark.rule("REAL98-CARRIER-return-to-origin", "REAL98-CARRIER-assign-noncombat-only")
def test_carrier_fighter_returns_to_the_carrier_it_launched_from() -> None:
    back = _sub_hunt({"North Pacific Sea Zone": "Japan: 1 carrier"})
    rejected(back, mv("1 fighter", "Soviet Far East Sea Zone", "North Pacific Sea Zone"),
             "REAL98-CARRIER-return-to-origin", "Japan Sea Zone")
    move(back, "1 fighter", "Soviet Far East Sea Zone", "Japan Sea Zone")
    assert units_in(back, "Japan Sea Zone") == {"carrier": 1, "fighter": 1}
    ashore = _sub_hunt({"Soviet Far East": "Japan: 1 infantry"})
    rejected(ashore, mv("1 fighter", "Soviet Far East Sea Zone", "Soviet Far East"),
             "REAL98-CARRIER-return-to-origin")


@pytest.mark.rule("REAL98-CARRIER-return-to-origin")
def test_when_its_carrier_is_gone_the_fighter_lands_where_it_can() -> None:
    back = _sub_hunt({"North Pacific Sea Zone": "Japan: 1 carrier"})
    game = Game(GameLog(back.state.with_stacks("Japan Sea Zone", ())))  # the carrier was sunk
    move(game, "1 fighter", "Soviet Far East Sea Zone", "North Pacific Sea Zone")
    end(game)
    assert units_in(game, "North Pacific Sea Zone") == {"carrier": 1, "fighter": 1}


@pytest.mark.rule("REAL98-CARRIER-no-landing-after-land-combat", "REAL98-CARRIER-assign-noncombat-only")
def test_a_land_based_fighter_that_fought_does_not_land_on_a_carrier() -> None:
    units = {"Kwangtung": "Japan: 2 fighters", "China": "United States: 1 infantry",
             "Kwangtung Sea Zone": "Japan: 1 carrier"}
    game = at("Japan", "combat-move", units)
    move(game, "1 fighter", "Kwangtung", "China")
    back = after_combat(game, ("China", "United States"))
    rejected(back, mv("1 fighter", "China", "Kwangtung", "Kwangtung Sea Zone"),
             "REAL98-CARRIER-no-landing-after-land-combat", "land base")
    move(back, "1 fighter", "Kwangtung", "Kwangtung Sea Zone")  # the idle one is assigned to the carrier
    move(back, "1 fighter", "China", "Kwangtung")
    end(back)
    assert units_in(back, "Kwangtung Sea Zone") == {"carrier": 1, "fighter": 1}
    assert units_in(back, "Kwangtung") == {"fighter": 1}


@pytest.mark.rule("REAL98-CARRIER-assign-noncombat-only")
def test_an_idle_carrier_fighter_may_leave_its_carrier_in_non_combat_move() -> None:
    game = at("Japan", "non-combat-move", {"Japan Sea Zone": "Japan: 1 carrier, 1 fighter"})
    move(game, "1 fighter", "Japan Sea Zone", "Japan")
    assert units_in(game, "Japan") == {"fighter": 1}


# --- placement ----------------------------------------------------------------------------------------------


def _mobilize(nation: str, units: dict[str, str], bought: dict[str, int]) -> Game:
    return at(nation, "mobilize", units, extra={"purchased": {nation: bought}})


def place(game: Game, units: str, space: str) -> None:
    game.apply({"type": "place", "units": units, "space": space})


@pytest.mark.rule("REAL98-CARRIER-place-new-on-new")
def test_new_fighters_go_aboard_new_carriers_built_at_the_same_complex() -> None:
    game = _mobilize("United States", {"West US": "United States: 1 factory"}, {"carrier": 1, "fighter": 2})
    place(game, "1 carrier, 2 fighters", "West US Sea Zone")
    assert units_in(game, "West US Sea Zone") == {"carrier": 1, "fighter": 2}
    apart = _mobilize("United States", {"West US": "United States: 1 factory"}, {"carrier": 1, "fighter": 2})
    place(apart, "1 carrier", "West US Sea Zone")
    place(apart, "2 fighters", "West US Sea Zone")
    end(apart)
    assert units_in(apart, "West US Sea Zone") == {"carrier": 1, "fighter": 2}


@pytest.mark.rule("REAL98-CARRIER-place-new-on-existing", "REAL98-CARRIER-own-nation")
def test_new_fighters_go_onto_own_carriers_next_to_the_complex_only() -> None:
    units = {"United Kingdom": "United Kingdom: 1 factory", "North Sea Zone": "United Kingdom: 1 carrier",
             "East Canada Sea Zone": "United Kingdom: 1 carrier", "West Spain Sea Zone": "United States: 1 carrier"}
    game = _mobilize("United Kingdom", units, {"fighter": 2})
    rejected(game, {"type": "place", "units": "1 fighter", "space": "East Canada Sea Zone"},
             "REAL98-CARRIER-place-new-on-existing", "next to none")
    place(game, "1 fighter", "North Sea Zone")
    assert units_in(game, "North Sea Zone") == {"carrier": 1, "fighter": 1}
    allied = _mobilize("United States", {"East US": "United States: 1 factory",
                                         "East US Sea Zone": "United Kingdom: 1 carrier"}, {"fighter": 1})
    rejected(allied, {"type": "place", "units": "1 fighter", "space": "East US Sea Zone"},
             "REAL98-CARRIER-own-nation", "own nation")


@pytest.mark.rule("REAL98-CARRIER-place-existing-on-new")
def test_idle_fighters_at_the_complex_board_its_new_carrier() -> None:
    game = _mobilize("Japan", {"Japan": "Japan: 1 factory, 2 fighters"}, {"carrier": 1})
    rejected(game, mv("1 fighter", "Japan", "Japan Sea Zone"), "REAL98-CARRIER-place-existing-on-new", "room for 0")
    place(game, "1 carrier", "Japan Sea Zone")
    assert [a.path for a in game.legal_actions() if a.type == "move"] == [["Japan", "Japan Sea Zone"]]
    move(game, "2 fighters", "Japan", "Japan Sea Zone")
    end(game)
    assert units_in(game, "Japan Sea Zone") == {"carrier": 1, "fighter": 2}
    assert "fighter" not in units_in(game, "Japan")


@pytest.mark.rule("REAL98-CARRIER-place-existing-on-new")
def test_a_fighter_that_fought_or_is_elsewhere_does_not_board() -> None:
    game = _mobilize("Japan", {"Japan": "Japan: 1 factory", "Manchuria": "Japan: 1 fighter"}, {"carrier": 1})
    state = game.state
    fought = Stack("Japan", "fighter", 1, flags=(flags.COMBAT,))
    game = Game(GameLog(state.with_stacks("Japan", (*state.stacks("Japan"), fought))))
    place(game, "1 carrier", "Japan Sea Zone")
    rejected(game, mv("1 fighter", "Japan", "Japan Sea Zone"), "REAL98-CARRIER-place-existing-on-new", "did not fight")
    rejected(game, mv("1 fighter", "Manchuria", "Japan Sea Zone"), "REAL98-CARRIER-place-existing-on-new",
             "has no complex")


@pytest.mark.rule("REAL98-CARRIER-place-existing-on-new")
def test_fighters_do_not_hover_at_sea_for_a_new_carrier() -> None:
    game = at("Japan", "non-combat-move", {"Japan": "Japan: 1 factory, 1 fighter"},
              extra={"purchased": {"Japan": {"carrier": 1}}})
    rejected(game, mv("1 fighter", "Japan", "Japan Sea Zone"), "REAL98-CARRIER-place-existing-on-new",
             "board it when it is placed")


class _Ban(PhaseExtension):
    """Stands for the Classic base rules' mobilize check: no new aircraft at sea, no ships beside enemy ships."""

    def before(self, ctx: TurnContext, action: Any) -> None:
        units = parse_units(action.units, ctx.ruleset.units)
        if "fighter" in units:
            raise IllegalAction("new aircraft are placed on land", CLASSIC_BAN)
        if "battleship" in units:
            raise IllegalAction("enemy ships there", "CL-MOBILIZE-naval-adjacent")


@pytest.mark.rule("REAL98-CARRIER-place-new-on-new", "REAL98-CARRIER-place-new-on-existing")
def test_the_classic_ban_on_new_fighters_at_sea_is_lifted_and_nothing_else() -> None:
    game = _mobilize("United States", {"West US": "United States: 1 factory"}, {})
    [lifted] = phase_actions([_Ban()], phase="mobilize")[:1]
    ctx = TurnContext(game.state, game.ruleset)
    lifted.before(ctx, Place(units="1 carrier, 2 fighters", space="West US Sea Zone"))
    with pytest.raises(IllegalAction, match="enemy ships"):
        lifted.before(ctx, Place(units="1 battleship, 1 fighter", space="West US Sea Zone"))
    assert phase_actions([_Ban()], phase="purchase")[0].__class__ is _Ban


@pytest.mark.rule("REAL98-CARRIER-return-to-origin", "REAL98-AIR-return-range")
def test_fighters_riding_their_carrier_into_a_sea_battle_fought_from_its_deck() -> None:
    game = at("Japan", "combat-move", {"Okinawa Sea Zone": "Japan: 1 carrier, 1 fighter",
                                       "Japan Sea Zone": "Russia: 1 submarine"})
    move(game, "1 carrier", "Okinawa Sea Zone", "Japan Sea Zone")
    [fighter] = stacks_of(game, "Japan Sea Zone", "fighter")
    assert flags.has(fighter, flags.COMBAT) and fighter.moved == 0
    rejected(game, mv("1 fighter", "Japan Sea Zone", "Japan"), "CL-COMBATMOVE-ending-in-enemy-space")
    back = after_combat(game, ("Japan Sea Zone", "Russia"))
    rejected(back, mv("1 fighter", "Japan Sea Zone", "Japan"), "REAL98-CARRIER-return-to-origin")
    sunk = Game(GameLog(back.state.with_stacks("Japan Sea Zone", (fighter,))))  # its carrier went down
    rejected(sunk, mv("1 fighter", "Japan Sea Zone", "Okinawa Sea Zone", "Okinawa"), "REAL98-AIR-return-range")
    move(sunk, "1 fighter", "Japan Sea Zone", "Japan")


@pytest.mark.rule("REAL98-CARRIER-own-nation")
def test_a_fighter_may_land_where_its_own_carrier_can_still_come() -> None:
    game = at("United Kingdom", "non-combat-move", {"United Kingdom": "United Kingdom: 1 fighter",
                                                    "West Canada": "United Kingdom: 1 fighter",
                                                    "North Sea Zone": "United Kingdom: 1 carrier",
                                                    "West Canada Sea Zone": "United States: 1 carrier"})
    rejected(game, mv("1 fighter", "West Canada", "West Canada Sea Zone"), "REAL98-CARRIER-own-nation")
    move(game, "1 fighter", "United Kingdom", "North Sea Zone", "Karelia Sea Zone")
    move(game, "1 carrier", "North Sea Zone", "Karelia Sea Zone")
    end(game)
    assert units_in(game, "Karelia Sea Zone") == {"carrier": 1, "fighter": 1}


class _SeaOrder:
    """A movement graph whose sea zones are listed in a given order (the rest as the graph has it)."""

    def __init__(self, graph: Any, first: list[str]) -> None:
        self._graph, self.sea = graph, [*first, *sorted(set(graph.sea) - set(first))]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)


@pytest.mark.rule("REAL98-CARRIER-own-nation")
@pytest.mark.parametrize("first", ["North Atlantic Sea Zone", "North Sea Zone"])
def test_carrier_room_coming_does_not_depend_on_the_order_the_zones_are_asked(first: str) -> None:
    """A carrier with more fighters aboard than it holds brings no room, and takes none from another carrier that
    can come with room to spare, whichever zone is asked first."""
    from aare.movement.situation import situation
    from aare.rulesets.classic.realism.carriers import own_carriers_can_reach

    game = at("United Kingdom", "non-combat-move", {"East Canada": "United Kingdom: 1 fighter",
                                                    "North Atlantic Sea Zone": "United Kingdom: 1 carrier, 3 fighters",
                                                    "North Sea Zone": "United Kingdom: 1 carrier, 1 fighter"})
    view = situation(game.state, game.ruleset)
    view.graph = _SeaOrder(view.graph, [first])  # type: ignore[assignment]
    assert own_carriers_can_reach(view, "East Canada Sea Zone", 1)
