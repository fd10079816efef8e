"""The planner's phase policies on small positions with an obvious answer: placement where the threat map
endangers a complex, a complex bought near the front, aircraft for far complexes, air cover of capitals, the
counter-attack's expected gain, falling back from a position that cannot be held, hopeless territories not
reinforced, and what the non-combat move keeps."""

from __future__ import annotations

from typing import Any

from aare.actions import EndPhase, Move, Place, Purchase
from aare.ai import PlannerBot
from aare.ai.bot import Bot
from aare.ai.greedy import front_distance
from aare.ai.planner import Budget
from aare.ai.planner.combat_plan import counter_loss, flies_back
from aare.ai.planner.noncombat import ABANDON, HOLD, reinforce
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.purchase import FRONT_REACH, complex_site, room_split
from aare.ai.planner.risk import expected_loss
from aare.ai.planner.threat import defenders_at, threat_map
from aare.board.notation import parse_units
from aare.economy.pool import PURCHASED, pool
from aare.economy.production import producers
from aare.engine import Game
from aare.movement.graph import graph_of
from aare.odds import odds
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from tests.ai.positions import EAST

WORK = 200
UK = "United Kingdom"


def play_phase(game: Game, bot: Bot) -> list[Any]:
    """The actions the bot plays in the current phase (each applied), up to its end."""
    played = []
    for _ in range(80):
        action = bot.choose(game)
        if isinstance(action, EndPhase):
            break
        game.apply(action)
        played.append(action)
    return played


def oracle(rules: str = "lhtr-1.3") -> Oracle:
    """The planner's exact odds with a fresh budget of WORK evaluations."""
    budget = Budget(work=WORK)
    budget.start_turn((1, "Germany", "Germany"))
    return Oracle(load_ruleset(rules), budget)


def count(game: Game, space: str, power: str, unit: str) -> int:
    return sum(s.count for s in game.state.units.get(space, ()) if s.owner == power and s.unit == unit)


# -- placement ------------------------------------------------------------------------------------------------


def russia_places(ukraine: str) -> Game:
    """Russia's mobilisation of 3 infantry: complexes at Moscow (the capital, 2 infantry) and the Caucasus (1
    infantry), both beside German land (an empty West Russia), so the capital would be the default; German
    infantry in the Ukraine threatens the Caucasus only (Moscow is two steps away)."""
    game = scenario("lhtr-1.3", nation="Russia", phase="mobilize", clear=True,
                    units={"Russia": "Russia: 2 infantry, 1 factory", "Caucasus": "Russia: 1 infantry, 1 factory",
                           "Ukraine S.S.R.": f"Germany: {ukraine}"},
                    owners={"West Russia": "Germany"}, extra={PURCHASED: {"Russia": {"infantry": 3}}})
    threat = threat_map(game.state, game.ruleset, "Allies")
    assert "Caucasus" in threat and "Russia" not in threat
    return game


def test_placement_goes_to_the_complex_the_threat_endangers() -> None:
    game = russia_places("3 infantry")
    placed = play_phase(game, PlannerBot(work=WORK))
    assert pool(game.state, "Russia") == {}
    spaces = [p.space for p in placed if isinstance(p, Place)]
    # the Caucasus gets infantry until an attack there would no longer pay the threat, the rest goes elsewhere
    held = count(game, "Caucasus", "Russia", "infantry")
    assert expected_loss(oracle(), game.ruleset, "Caucasus", {"infantry": 3}, {"infantry": held}) == 0
    assert expected_loss(oracle(), game.ruleset, "Caucasus", {"infantry": 3}, {"infantry": held - 1}) > 0
    assert spaces.count("Caucasus") == held - 1 >= 1


def test_placement_sees_that_several_units_together_hold_an_endangered_complex() -> None:
    game = russia_places("5 infantry")
    ruleset, ora = game.ruleset, oracle()
    threat = {"infantry": 5}
    assert (expected_loss(ora, ruleset, "Caucasus", threat, {"infantry": 4}) + 1
            < expected_loss(ora, ruleset, "Caucasus", threat, {"infantry": 1}))
    placed = play_phase(game, PlannerBot(work=WORK))
    assert [p.space for p in placed if isinstance(p, Place)] == ["Caucasus"] * 3


# -- a complex near the front, aircraft for the far ones ------------------------------------------------------


def island_power(india: str, bank: int) -> Game:
    """The United Kingdom's purchase on a cleared board: its complex at home, far from enemy land by land,
    India (beside Japanese Indochina) with `india`."""
    return scenario("lhtr-1.3", nation=UK, phase="purchase", clear=True, banks={UK: bank},
                    units={UK: f"{UK}: 2 infantry, 1 factory", "India": f"{UK}: {india}"})


def test_a_power_with_no_complex_near_the_front_buys_one_and_places_it_where_complex_site_says() -> None:
    game = island_power("3 infantry", 40)
    site = complex_site(game.state, game.ruleset, UK, {}, oracle())
    assert site is not None and front_distance(game.state, game.ruleset, "Allies")[site] <= FRONT_REACH
    assert front_distance(game.state, game.ruleset, "Allies").get(UK, 99) > FRONT_REACH
    bot = PlannerBot(work=WORK)
    bought = play_phase(game, bot)
    assert any(isinstance(a, Purchase) and "factory" in parse_units(a.units, game.ruleset.units) for a in bought)
    assert pool(game.state, UK).get("factory") == 1
    while game.state.phase != "mobilize":
        game.apply(EndPhase())
    placed = play_phase(game, bot)
    assert Place(units="1 factory", space=site) in placed
    assert count(game, site, UK, "factory") == 1


def test_a_power_with_a_complex_near_the_front_buys_none() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="purchase", banks={"Germany": 60})
    assert complex_site(game.state, game.ruleset, "Germany", {}, oracle()) is None
    bought = play_phase(game, PlannerBot(work=WORK))
    assert bought and "factory" not in pool(game.state, "Germany")


def test_money_left_after_the_near_complexes_are_filled_buys_lifts_then_aircraft_for_the_far_ones() -> None:
    game = island_power("3 infantry, 1 factory", 60)
    near, far = room_split(game.state, game.ruleset, UK)
    rooms = producers(game.state, game.ruleset, UK)
    assert (near, far) == (rooms["India"], rooms[UK])
    assert threat_map(game.state, game.ruleset, "Allies").get(UK) is None  # the capital is not in danger
    play_phase(game, PlannerBot(work=WORK))
    bought = pool(game.state, UK)
    units = game.ruleset.units
    load = units["transport"].transport_capacity // units["infantry"].transport_size
    # the near complex is filled with land units; the far one gets transports, each with the infantry it
    # carries (nothing threatens the sea on a cleared board), then fighters with what is left
    boats = bought["transport"]
    assert boats >= 1 and bought["infantry"] == near + boats * load and "factory" not in bought
    left = 60 - sum(units[u].cost * n for u, n in bought.items() if u != "fighter")
    assert bought.get("fighter", 0) == min(far - boats * (1 + load), left // units["fighter"].cost) >= 1


def test_far_complexes_buy_land_units_for_the_transports_already_at_their_coast() -> None:
    game = scenario("lhtr-1.3", nation=UK, phase="purchase", clear=True, banks={UK: 60},
                    units={UK: f"{UK}: 2 infantry, 1 factory", "India": f"{UK}: 3 infantry, 1 factory",
                           "SZ 7": f"{UK}: 3 transports"})
    near, far = room_split(game.state, game.ruleset, UK)
    play_phase(game, PlannerBot(work=WORK))
    bought = pool(game.state, UK)
    units = game.ruleset.units
    load = units["transport"].transport_capacity // units["infantry"].transport_size
    # three transports wait beside the capital, where 2 infantry stand: no new transport, and infantry to fill
    # them before any aircraft (the room left after the aircraft takes infantry too)
    assert "transport" not in bought
    assert bought["infantry"] >= near + 3 * load - 2 and bought.get("fighter", 0) >= 1
    assert sum(bought.values()) <= near + far


# -- air cover ------------------------------------------------------------------------------------------------


def test_a_fighter_flies_to_its_threatened_capital() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="non-combat-move", clear=True,
                    units={"Germany": "Germany: 2 infantry", "Western Europe": "Germany: 1 fighter",
                           "Southern Europe": "Germany: 2 infantry", EAST: "Russia: 3 infantry, 1 armour"},
                    owners={EAST: "Russia"})
    assert threat_map(game.state, game.ruleset, "Axis").get("Germany")
    moves = [m for m in play_phase(game, PlannerBot(work=WORK)) if isinstance(m, Move)]
    assert [m.path[-1] for m in moves if m.units == "1 fighter"] == ["Germany"]
    assert count(game, "Germany", "Germany", "fighter") == 1


def test_a_fighter_flies_to_a_threatened_allied_capital() -> None:
    game = scenario("lhtr-1.3", nation=UK, phase="non-combat-move", clear=True,
                    units={"Russia": "Russia: 2 infantry", "Archangel": f"{UK}: 1 fighter",
                           "West Russia": "Germany: 3 infantry, 1 armour", UK: f"{UK}: 2 infantry"},
                    owners={"West Russia": "Germany", "Archangel": "Russia"})
    assert threat_map(game.state, game.ruleset, "Allies").get("Russia")
    moves = [m for m in play_phase(game, PlannerBot(work=WORK)) if isinstance(m, Move)]
    assert [m.path[-1] for m in moves if m.units == "1 fighter"] == ["Russia"]
    assert count(game, "Russia", UK, "fighter") == 1


def test_the_non_combat_move_keeps_complexes_and_allied_capitals() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="non-combat-move")
    bot = PlannerBot(work=WORK)
    kept = bot._kept(game.state, game.ruleset, "Germany")
    assert kept[0] == "Germany" and set(producers(game.state, game.ruleset, "Germany")) <= set(kept)
    guarded = bot._guarded(game.state, game.ruleset, "Germany")
    assert guarded[:2] == ["Germany", "Japan"] and set(kept) <= set(guarded)


# -- the counter-attack ---------------------------------------------------------------------------------------


def test_counter_loss_is_zero_without_a_threat() -> None:
    ruleset = load_ruleset("lhtr-1.3")
    assert counter_loss(oracle(), {"infantry": 1}, {}, 20.0, ruleset) == 0.0


def test_counter_loss_is_zero_when_the_counter_attack_would_not_pay() -> None:
    ruleset = load_ruleset("lhtr-1.3")
    found = oracle().battle({"infantry": 1}, {"infantry": 3})
    assert found is not None and found.defender_ipc_lost + found.capture * 2 - found.attacker_ipc_lost < 0
    assert counter_loss(oracle(), {"infantry": 3}, {"infantry": 1}, 2.0, ruleset) == 0.0


def test_counter_loss_is_positive_when_a_strong_threat_faces_a_lone_infantry() -> None:
    ruleset = load_ruleset("lhtr-1.3")
    loss = counter_loss(oracle(), {"infantry": 1}, {"armour": 4}, 6.0, ruleset)
    found = oracle().battle({"armour": 4}, {"infantry": 1})
    assert found is not None and loss > 3.0
    assert abs(loss - (found.defender_ipc_lost + found.capture * 6.0 - found.attacker_ipc_lost)) < 1e-9


# -- falling back, abandoning ---------------------------------------------------------------------------------


def test_land_units_fall_back_from_a_position_the_threat_would_surely_take() -> None:
    # two infantry in Eastern Europe (no capital, city or complex) against six Russian armour next door; Germany,
    # strongly held, is in reach
    game = scenario("lhtr-1.3", nation="Germany", phase="non-combat-move", clear=True,
                    units={"Germany": "Germany: 10 infantry", EAST: "Germany: 2 infantry",
                           "Belorussia": "Russia: 6 armour"},
                    owners={"Belorussia": "Russia"})
    ora = oracle()
    threat = threat_map(game.state, game.ruleset, "Axis")
    assert ora.capture(threat[EAST], {"infantry": 2}) > 0.9
    assert ora.capture(threat["Germany"], {"infantry": 10}) <= HOLD  # the capital needs no reinforcement
    play_phase(game, PlannerBot(work=WORK))
    assert count(game, EAST, "Germany", "infantry") == 0
    assert count(game, "Germany", "Germany", "infantry") == 12


def test_land_units_stay_where_the_threat_would_not_take_them() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="non-combat-move", clear=True,
                    units={"Germany": "Germany: 10 infantry", EAST: "Germany: 2 infantry",
                           "Belorussia": "Russia: 1 infantry"},
                    owners={"Belorussia": "Russia"})
    threat = threat_map(game.state, game.ruleset, "Axis")
    assert oracle().capture(threat[EAST], {"infantry": 2}) < 0.1
    moves = [m for m in play_phase(game, PlannerBot(work=WORK)) if isinstance(m, Move)]
    assert moves and not [m for m in moves if m.path[0] == EAST]  # Germany's infantry come forward to them


def test_a_kept_territory_that_all_could_not_hold_is_not_reinforced() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="non-combat-move", clear=True,
                    units={"Germany": "Germany: 3 infantry", "Southern Europe": "Germany: 1 infantry"})
    state, ruleset = game.state, game.ruleset
    reach = {("infantry", "Germany"): {"Southern Europe": ["Germany", "Southern Europe"]},
             ("infantry", "Southern Europe"): {"Germany": ["Southern Europe", "Germany"]}}
    hopeless, weak = {"armour": 10}, {"infantry": 2}
    assert oracle().capture(hopeless, {"infantry": 4}) > ABANDON
    assert reinforce("Southern Europe", reach, {"Germany": {"infantry": 3}}, state, ruleset, "Germany",
                     hopeless, oracle()) == []
    helped = reinforce("Southern Europe", reach, {"Germany": {"infantry": 3}}, state, ruleset, "Germany",
                       weak, oracle())
    assert helped and all(m.path == ["Germany", "Southern Europe"] for m in helped)
    held = defenders_at(state, ruleset, "Axis", "Southern Europe")["infantry"] + len(helped)
    assert oracle().capture(weak, {"infantry": held}) <= HOLD
    # the capital is reinforced however hopeless
    assert reinforce("Germany", reach, {"Southern Europe": {"infantry": 1}}, state, ruleset, "Germany",
                     hopeless, oracle())


# -- aircraft far from any need, ships at sea -----------------------------------------------------------------


def test_aircraft_that_can_help_nowhere_fly_nearer_the_capital_in_most_need() -> None:
    game = scenario("lhtr-1.3", nation="United States", phase="non-combat-move", clear=True,
                    units={"Eastern United States": "United States: 2 infantry, 1 fighter",
                           "Russia": "Russia: 2 infantry", "West Russia": "Germany: 4 infantry, 2 armour",
                           UK: f"{UK}: 2 infantry"},
                    owners={"West Russia": "Germany"})
    assert threat_map(game.state, game.ruleset, "Allies").get("Russia")
    graph = graph_of(game.ruleset.board)
    towards = graph.distances_from(["Russia"])
    moves = [m for m in play_phase(game, PlannerBot(work=WORK)) if isinstance(m, Move) and m.units == "1 fighter"]
    assert len(moves) == 1 and moves[0].path[0] == "Eastern United States"
    assert towards[moves[0].path[-1]] < towards["Eastern United States"]
    assert count(game, moves[0].path[-1], "United States", "fighter") == 1


def test_the_planner_sinks_an_unescorted_transport_it_can_reach_and_fly_back_from() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True,
                    units={"Germany": "Germany: 2 infantry", "Western Europe": "Germany: 2 fighters",
                           "SZ 7": f"{UK}: 1 transport"})
    moves = [m for m in play_phase(game, PlannerBot(work=WORK)) if isinstance(m, Move)]
    sent = [m.path[-1] for m in moves if "fighter" in m.units]
    assert sent and set(sent) == {"SZ 7"}
    assert odds(f"{len(sent)} fighter", "1 transport", "lhtr-1.3", battle="sea").attacker_win >= 0.55


def test_an_aircraft_is_sent_only_where_it_can_fly_back_to_land() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True,
                    units={"Germany": "Germany: 2 infantry, 1 fighter"})
    back = flies_back(game.state, game.ruleset, "Axis")
    fighter = game.ruleset.units["fighter"]
    assert fighter.move == 4
    assert back("fighter", ["Germany", EAST])  # one step out, Germany one step back
    graph = graph_of(game.ruleset.board)
    held = {t for t, o in game.state.owners.items() if o in ("Germany", "Japan") and t in graph.land}
    far = graph.distances_from(sorted(held))
    deep = next(t for t, d in sorted(far.items()) if d == 4 and t in graph.land)
    path = ["Germany", *["x"] * 3, deep]  # four moves used: none left to land anywhere but where it attacks
    assert not back("fighter", path)
    assert back("infantry", path)  # land units need no landing


def test_the_units_guarding_a_complex_destroy_the_only_stack_that_threatens_it() -> None:
    game = scenario("lhtr-1.3", nation="Japan", phase="combat-move", clear=True,
                    units={"Kwangtung": "Japan: 4 infantry, 3 armour, 1 factory", "China": "United States: 3 armour"})
    bot = PlannerBot(work=WORK)
    bot.budget.start_turn((1, "Japan", "Japan"))
    bot._threat = threat_map(game.state, game.ruleset, "Axis")
    assert bot._threat["Kwangtung"] == {"armour": 3}
    assert bot._movable(game.state, game.ruleset, "Japan", "Kwangtung").get("infantry", 0) == 0  # all on guard
    played = play_phase(game, PlannerBot(work=WORK))
    into_china = [a for a in played if isinstance(a, Move) and a.path[-1] == "China"]
    assert sum(sum(parse_units(a.units, game.ruleset.units).values()) for a in into_china) >= 4
    assert any("infantry" in parse_units(a.units, game.ruleset.units) for a in into_china)


# -- transports and their cargo ---------------------------------------------------------------------------------

US = "United States"
EAST_US, WEST_US = "Eastern United States", "Western United States"


def test_empty_transports_that_carried_nothing_sail_back_towards_cargo() -> None:
    game = scenario("lhtr-1.3", nation=US, phase="non-combat-move", clear=True,
                    units={EAST_US: f"{US}: 6 infantry, 1 factory", "SZ 12": f"{US}: 2 transports"})
    played = play_phase(game, PlannerBot(work=WORK))
    # the infantry wait beside SZ 10, two zones away: both transports sail there to take them on next turn
    assert [a.path[-1] for a in played if isinstance(a, Move) and a.units == "1 transport"] == ["SZ 10"] * 2
    assert count(game, "SZ 10", US, "transport") == 2


def test_an_empty_transport_already_beside_cargo_stays() -> None:
    game = scenario("lhtr-1.3", nation=US, phase="non-combat-move", clear=True,
                    units={WEST_US: f"{US}: 1 infantry", EAST_US: f"{US}: 1 factory", "SZ 10": f"{US}: 1 transport"})
    played = play_phase(game, PlannerBot(work=WORK))
    assert not [a for a in played if isinstance(a, Move) and "transport" in a.units]


def test_a_transport_is_placed_beside_the_land_units_waiting_for_it() -> None:
    game = scenario("lhtr-1.3", nation=US, phase="mobilize", clear=True,
                    units={EAST_US: f"{US}: 1 factory", WEST_US: f"{US}: 4 infantry, 1 factory"},
                    extra={PURCHASED: {US: {"transport": 1}}})
    placed = play_phase(game, PlannerBot(work=WORK))
    # no threat anywhere: without cargo to wait for, the zone's name would decide (SZ 10 before SZ 54)
    assert [p.space for p in placed if isinstance(p, Place)] in (["SZ 54"], ["SZ 55"])


def test_land_units_are_placed_where_transports_wait_for_them() -> None:
    game = scenario("lhtr-1.3", nation=US, phase="mobilize", clear=True,
                    units={EAST_US: f"{US}: 1 factory", WEST_US: f"{US}: 1 factory", "SZ 54": f"{US}: 2 transports"},
                    extra={PURCHASED: {US: {"infantry": 3}}})
    placed = play_phase(game, PlannerBot(work=WORK))
    # far from the front both, the capital would be the default; the transports beside the other take them
    assert [p.space for p in placed if isinstance(p, Place)] == [WEST_US] * 3
