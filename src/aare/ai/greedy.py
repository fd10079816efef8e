"""The greedy bot: a baseline that plays by a few fixed rules, reading units, costs and values from the ruleset.

It reads the game only through its seat's view (`aare.player_view.visible_state`) and acts only through
`legal_actions` / `apply`. Each phase is planned once, when it starts; the plan's actions are played while they
stay legal, then the phase ends. Its rules:

1. **Purchase**: spend on land units only, up to what the power's complexes can place: one in four bought is
   the land unit with the best attack per cost, the rest the cheapest land unit ("infantry-heavy"); repairs
   of damaged complexes first when offered.
2. **Combat move**: an enemy land territory without defenders is taken with the cheapest land unit that can
   reach it ("take what can be taken cheaply"). A defended one is attacked only with a clear edge: land units
   (strongest attack per cost first), then aircraft, are added until the exact odds (`aare.odds`) give the
   attack a chance of at least `attack_threshold` (0.8) to win with a land unit left to take it, and the
   defenders' expected loss plus that chance times the territory's worth (its income, doubled for a victory
   city or capital) is at least the attackers' expected loss; if all that can reach it does not, it is not
   attacked. Victory cities are taken first, then by income.
3. **Capitals stay garrisoned**: land units leave the power's capital and the victory cities it holds only
   down to `garrison_share` of their land units (half, at least one); in the non-combat move, land units that
   can reach such a territory move into it until the enemy land units within two steps of it would take it with
   at most `hold_threshold` (0.3, exact odds).
4. **Non-combat move**: every other land unit moves as far as it can towards the nearest enemy land, staying
   on friendly land; aircraft that the rules would lose where they are (`aare.ai.landing`: over enemy land,
   in a territory taken this turn) land on the legal landing spot nearest the capital.
5. **Mobilize**: new units go to the capital first, then to the complexes nearest the enemy.
6. **Battles**: casualties are the cheapest choice offered; an attacker presses on while the exact odds of
   the battle as it stands give it at least an even chance, else retreats; submarines submerge when they
   may; other decisions take the first option. Any other phase is ended at once (first legal action if it
   cannot end).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from aare.actions import EndPhase, Move, Place, Purchase, Repair
from aare.ai.bot import legal_or_stuck
from aare.ai.landing import landing_moves
from aare.board.notation import format_units, parse_units
from aare.economy.pool import pool
from aare.economy.production import producers
from aare.engine import Acting, Game
from aare.errors import AareError
from aare.movement.graph import graph_of
from aare.odds import odds
from aare.odds.report import BattleOdds
from aare.phases.base import phase_handler
from aare.phases.combat_move import CombatMove
from aare.phases.noncombat_move import NonCombatMove
from aare.player_view import visible_state
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]


@dataclass(frozen=True)
class Bulk:
    """A planned step of `count` units: `whole` at once if legal, else `one` at a time, as long as legal."""

    whole: Any
    one: Any
    count: int


class GreedyBot:
    """Plays every power by the rules in the module docstring."""

    name = "greedy"

    def __init__(self, seed: int = 0, attack_threshold: float = 0.8, garrison_share: float = 0.5,
                 cheap_share: float = 0.75, hold_threshold: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.attack_threshold = attack_threshold
        self.garrison_share = garrison_share
        self.cheap_share = cheap_share
        self.hold_threshold = hold_threshold
        self._plan: list[Any] = []
        self._cursor: tuple[int, str, str, str] | None = None

    # -- the protocol ----------------------------------------------------------------------------------------

    def choose(self, game: Game) -> Any:
        me = game.power if isinstance(game, Acting) else next(iter(game.to_act()), game.state.nation)
        state = visible_state(game.state, me)
        ruleset = game.ruleset
        if state.pending is not None:
            return self._decide(game, state, ruleset)
        cursor = (state.round, state.nation, state.phase, me)
        if cursor != self._cursor:
            self._cursor = cursor
            self._plan = self._make_plan(game, state, ruleset, me)
        while self._plan:
            step = self._plan.pop(0)
            if isinstance(step, Bulk):
                if step.whole != step.one and game.is_legal(step.whole):
                    return step.whole
                if step.count > 1:
                    self._plan.insert(0, Bulk(step.one, step.one, step.count - 1))
                step = step.one
            if game.is_legal(step):
                return step
        return self._finish(game, state)

    def _finish(self, game: Game, state: GameState) -> Any:
        """End the phase; if it may not end yet, a legal action (first a fight, else a random one)."""
        end = EndPhase()
        if game.is_legal(end):
            return end
        legal = [a for a in legal_or_stuck(game) if a.type != "end_phase"]
        fights = [a for a in legal if a.type == "fight"]
        if fights:
            return fights[0]
        places = [a for a in legal if isinstance(a, Place)]
        return places[0] if places else self.rng.choice(legal)

    def _make_plan(self, game: Game, state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        handler = phase_handler(state.phase)
        legal = game.legal_actions()
        if any(isinstance(a, Purchase) for a in legal):
            return self._purchase_plan(legal, state, ruleset, me)
        if any(isinstance(a, Place) for a in legal):
            return self._place_plan(legal, state, ruleset, me)
        moves = [a for a in legal if isinstance(a, Move) and not a.raid]
        if isinstance(handler, NonCombatMove):  # a kind of CombatMove: asked first
            return self._advance_plan(moves, state, ruleset, me)
        if isinstance(handler, CombatMove):
            return self._attack_plan(moves, state, ruleset, me)
        return []

    # -- purchase and placement ------------------------------------------------------------------------------

    def _purchase_plan(self, legal: list[Any], state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        plan: list[Any] = sorted((a for a in legal if isinstance(a, Repair)), key=lambda a: -a.points)[:1]
        offered = {u for a in legal if isinstance(a, Purchase) for u in parse_units(a.units, ruleset.units)}
        land = [ruleset.units[u] for u in offered if ruleset.units[u].domain == "land"
                and ruleset.units[u].cost > 0 and ruleset.units[u].defense > 0]
        if not land:
            return plan
        cheap = min(land, key=lambda u: (u.cost, -u.defense, u.id))
        strike = max(land, key=lambda u: (u.attack / u.cost, u.attack, u.id))
        room = sum(producers(state, ruleset, me).values()) - sum(pool(state, me).values())
        bank = state.banks.get(me, 0)
        counts: Units = {}
        while room > 0 and bank >= cheap.cost:
            bought = sum(counts.values())
            unit = strike if (bought + 1) * (1 - self.cheap_share) >= counts.get(strike.id, 0) + 1 else cheap
            if unit.cost > bank:
                unit = cheap
            counts[unit.id] = counts.get(unit.id, 0) + 1
            bank -= unit.cost
            room -= 1
        for unit_id, count in counts.items():
            plan.append(Bulk(Purchase(units=format_units({unit_id: count}, ruleset.units)),
                             Purchase(units=format_units({unit_id: 1}, ruleset.units)), count))
        return plan

    def _place_plan(self, legal: list[Any], state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        places = [a for a in legal if isinstance(a, Place)]
        capital = ruleset.board.capital_of(me)
        front = self._front_distance(state, ruleset, me)
        spaces = sorted({a.space for a in places}, key=lambda s: (s != capital, front.get(s, 99), s))
        waiting = pool(state, me)
        plan: list[Any] = []
        for space in spaces:
            for unit_id, count in waiting.items():
                plan.append(Bulk(Place(units=format_units({unit_id: count}, ruleset.units), space=space),
                                 Place(units=format_units({unit_id: 1}, ruleset.units), space=space), count))
        return plan

    # -- moves -----------------------------------------------------------------------------------------------

    def _reach(self, moves: Iterable[Move], ruleset: Ruleset) -> dict[tuple[str, str], dict[str, list[str]]]:
        """(unit, from) -> destination -> the path of a legal one-unit move there."""
        found: dict[tuple[str, str], dict[str, list[str]]] = {}
        for move in moves:
            units = parse_units(move.units, ruleset.units)
            if len(units) != 1 or sum(units.values()) != 1:
                continue
            unit = next(iter(units))
            found.setdefault((unit, move.path[0]), {}).setdefault(move.path[-1], list(move.path))
        return found

    def _movable(self, state: GameState, ruleset: Ruleset, me: str, space: str) -> Units:
        """`me`'s units at `space` that may leave it: at the capital, all but the garrison's land units."""
        units: Units = {}
        for stack in state.units.get(space, ()):
            if stack.owner == me:
                units[stack.unit] = units.get(stack.unit, 0) + stack.count
        if space in self._kept(state, ruleset, me):
            land = sorted((u for u in units if ruleset.units[u].domain == "land"),
                          key=lambda u: (ruleset.units[u].defense, u), reverse=True)
            keep = max(1, -(-sum(units[u] for u in land) * self.garrison_share // 1))
            for unit in land:
                kept = min(units[unit], int(keep))
                units[unit] -= kept
                keep -= kept
        return {u: n for u, n in units.items() if n > 0}

    def _attack_plan(self, moves: list[Move], state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        board = ruleset.board
        side = board.side_of(me)
        reach = self._reach(moves, ruleset)
        cities = ruleset.victory_cities()
        capitals = board.capitals()
        spare: dict[str, Units] = {}
        for _, start in reach:
            spare.setdefault(start, self._movable(state, ruleset, me, start))
        targets = sorted(
            {dest for dests in reach.values() for dest in dests
             if board.spaces[dest].is_land and state.owners.get(dest) is not None
             and board.side_of(state.owners[dest]) != side},
            key=lambda t: (t not in cities, -board.spaces[t].ipc, t),
        )
        plan: list[Any] = []
        for target in targets:
            defenders = enemy_units(state, board, side, target, ruleset)
            options = [(unit, start, dests[target]) for (unit, start), dests in sorted(reach.items())
                       if target in dests and spare.get(start, {}).get(unit, 0) > 0]
            land = [o for o in options if ruleset.units[o[0]].domain == "land"]
            if not land:
                continue
            if not defenders:
                unit, start, path = min(land, key=lambda o: (ruleset.units[o[0]].cost, o[1]))
                spare[start][unit] -= 1
                plan.append(Move(units=format_units({unit: 1}, ruleset.units), path=path))
                continue
            worth = board.spaces[target].ipc * (2 if target in cities or target in capitals else 1)
            chosen = self._attackers(options, spare, defenders, ruleset, worth)
            for unit, start, path in chosen:
                spare[start][unit] -= 1
                plan.append(Move(units=format_units({unit: 1}, ruleset.units), path=path))
        return plan

    def _attackers(self, options: list[tuple[str, str, list[str]]], spare: Mapping[str, Units], defenders: Units,
                   ruleset: Ruleset, worth: float) -> list[tuple[str, str, list[str]]]:
        """The smallest force from `options` (land first, strongest per cost, then aircraft) with a clear edge
        against `defenders` (`clear_edge`); none if even all of it has none."""
        units = ruleset.units
        pool_: list[tuple[str, str, list[str]]] = []
        for unit, start, path in options:
            pool_ += [(unit, start, path)] * spare[start][unit]
        pool_.sort(key=lambda o: (units[o[0]].domain != "land", -units[o[0]].attack / max(1, units[o[0]].cost),
                                  o[1], o[0]))
        if sum(1 for o in pool_ if units[o[0]].domain == "land") == 0:
            return []
        chosen: list[tuple[str, str, list[str]]] = []
        for option in pool_:
            chosen.append(option)
            force: Units = {}
            for unit, _, _ in chosen:
                force[unit] = force.get(unit, 0) + 1
            if self.clear_edge(force, defenders, ruleset, worth):
                return chosen
        return []

    def clear_edge(self, attackers: Units, defenders: Units, ruleset: Ruleset, worth: float) -> bool:
        """Whether the exact odds give `attackers` at least `attack_threshold` to take the territory, and what
        they may expect to destroy and gain (`worth` times the chance to take it) is no less than what they may
        expect to lose."""
        found = self.battle_odds(attackers, defenders, ruleset)
        if found is None or found.capture < self.attack_threshold:
            return False
        return found.defender_ipc_lost + worth * found.capture >= found.attacker_ipc_lost

    def battle_odds(self, attackers: Units, defenders: Units, ruleset: Ruleset,
                    battle: str = "land") -> BattleOdds | None:
        """The exact odds of a battle (None if it cannot be judged)."""
        try:
            return odds(format_units(attackers, ruleset.units), format_units(defenders, ruleset.units), ruleset,
                        battle=battle, estimate=True)
        except (AareError, ValueError, KeyError):
            return None

    def win_chance(self, attackers: Units, defenders: Units, ruleset: Ruleset, battle: str = "land") -> float:
        """The exact chance that `attackers` win against `defenders`, in a land battle with a land unit left to
        take the territory (0 if it cannot be judged)."""
        if not attackers:
            return 0.0
        if not defenders:
            return 1.0
        found = self.battle_odds(attackers, defenders, ruleset, battle)
        if found is None:
            return 0.0
        return float(found.capture if battle == "land" else found.attacker_win)

    def _advance_plan(self, moves: list[Move], state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        board = ruleset.board
        reach = self._reach(moves, ruleset)
        front = self._front_distance(state, ruleset, me)
        capital = board.capital_of(me)
        plan: list[Any] = []
        spare = {start: self._movable(state, ruleset, me, start) for _, start in reach}
        for keep in self._kept(state, ruleset, me):
            plan += self._reinforce(keep, reach, spare, state, ruleset, me)
        home = graph_of(board).distances_from([capital]) if capital is not None else {}
        for (unit, start), dests in sorted(reach.items()):
            count = spare[start].get(unit, 0)
            if count <= 0:
                continue
            domain = ruleset.units[unit].domain
            if domain == "land":
                here = front.get(start, 99)
                best = min(dests, key=lambda d: (front.get(d, 99), d))
                if front.get(best, 99) < here and self._friendly(state, board, me, best):
                    plan += [Move(units=format_units({unit: 1}, ruleset.units), path=dests[best])] * count
        return plan + landing_moves(reach, state, ruleset, me, lambda d: home.get(d, 99))

    def _kept(self, state: GameState, ruleset: Ruleset, me: str) -> list[str]:
        """The territories `me` keeps garrisoned: its capital, then the victory cities it holds."""
        capital = ruleset.board.capital_of(me)
        cities = sorted(t for t in ruleset.victory_cities() if state.owners.get(t) == me and t != capital)
        return ([capital] if capital is not None and state.owners.get(capital) == me else []) + cities

    def _reinforce(self, keep: str, reach: Mapping[tuple[str, str], Mapping[str, list[str]]],
                   spare: dict[str, Units], state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        """Moves of land units into `keep` until the enemy land units within two steps of it would take it
        with at most `hold_threshold` chance (exact odds), as far as units can reach it."""
        board, units = ruleset.board, ruleset.units
        side = board.side_of(me)
        graph = graph_of(board)
        threat: Units = {}
        for space in graph.ball(keep, 2, lambda s: graph.land_nbrs[s]):
            if space != keep:
                for unit, n in enemy_units(state, board, side, space).items():
                    if units[unit].domain == "land" and units[unit].attack > 0:
                        threat[unit] = threat.get(unit, 0) + n
        if not threat:
            return []
        defenders: Units = {}
        for stack in state.units.get(keep, ()):
            if board.side_of(stack.owner) == side:
                defenders[stack.unit] = defenders.get(stack.unit, 0) + stack.count
        helpers = sorted(((unit, start, dests[keep]) for (unit, start), dests in reach.items()
                          if keep in dests and start != keep and units[unit].domain == "land"),
                         key=lambda o: (len(o[2]), -units[o[0]].defense / max(1, units[o[0]].cost), o[1], o[0]))
        plan: list[Any] = []
        for unit, start, path in helpers:
            while spare[start].get(unit, 0) > 0 and self.win_chance(threat, defenders, ruleset) > self.hold_threshold:
                spare[start][unit] -= 1
                defenders[unit] = defenders.get(unit, 0) + 1
                plan.append(Move(units=format_units({unit: 1}, units), path=path))
        return plan

    # -- reading the board -----------------------------------------------------------------------------------

    @staticmethod
    def _friendly(state: GameState, board: Any, me: str, space: str) -> bool:
        owner = state.owners.get(space)
        return owner is not None and board.side_of(owner) == board.side_of(me)

    def _front_distance(self, state: GameState, ruleset: Ruleset, me: str) -> dict[str, int]:
        """Land steps from each land territory to the nearest enemy-held land territory."""
        return front_distance(state, ruleset, ruleset.board.side_of(me))

    # -- battle decisions ------------------------------------------------------------------------------------

    def _decide(self, game: Game, state: GameState, ruleset: Ruleset) -> Any:
        pending = state.pending or {}
        legal = legal_or_stuck(game)
        kind = pending.get("kind")
        if kind == "choose_casualties":
            return min(legal, key=lambda a: self._cost(getattr(a, "units", ""), ruleset))
        if kind == "press_or_retreat":
            press = [a for a in legal if a.type == "press"]
            retreat = [a for a in legal if a.type == "retreat"]
            if press and retreat:
                chance = self._standing_chance(pending, ruleset)
                return press[0] if chance >= 0.5 else retreat[0]
            return (press or legal)[0]
        if kind == "submerge":
            submerge = [a for a in legal if a.type == "submerge" and getattr(a, "units", "")]
            return (submerge or legal)[0]
        return legal[0]

    def _standing_chance(self, pending: Mapping[str, Any], ruleset: Ruleset) -> float:
        """The attacker's exact win chance in the battle as the decision shows it."""
        battle = "land" if pending.get("battle") == "land" else "sea"
        try:
            attackers = side_units(pending.get("attacker"), ruleset)
            defenders = side_units(pending.get("defender"), ruleset)
        except AareError:
            return 1.0
        return self.win_chance(attackers, defenders, ruleset, battle) if defenders else 1.0

    @staticmethod
    def _cost(text: str, ruleset: Ruleset) -> tuple[int, str]:
        try:
            units = parse_units(text, ruleset.units)
        except AareError:
            return (1 << 30, text)
        return (sum(ruleset.units[u].cost * n for u, n in units.items()), text)


def front_distance(state: GameState, ruleset: Ruleset, side: str) -> dict[str, int]:
    """Land steps from each land territory to the nearest land the enemies of `side` hold."""
    board = ruleset.board
    graph = graph_of(board)
    enemy = [t for t, o in state.owners.items() if t in graph.land and board.side_of(o) != side]
    return graph.distances_from(enemy, lambda s: graph.land_nbrs[s])


def own_units(state: GameState, me: str, space: str) -> Units:
    """`me`'s units at `space`, by type."""
    found: Units = {}
    for stack in state.units.get(space, ()):
        if stack.owner == me:
            found[stack.unit] = found.get(stack.unit, 0) + stack.count
    return found


def enemy_units(state: GameState, board: Any, side: str, space: str, ruleset: Ruleset | None = None) -> Units:
    """The units at `space` of powers not on `side` (buildings left out when `ruleset` is given)."""
    found: Units = {}
    for stack in state.units.get(space, ()):
        building = ruleset is not None and ruleset.units[stack.unit].domain == "building"
        if board.side_of(stack.owner) != side and not building:
            found[stack.unit] = found.get(stack.unit, 0) + stack.count
    return found


def side_units(shown: Any, ruleset: Ruleset) -> Units:
    """The units of one side of a battle as a decision shows them (a unit list, or one per owner), merged."""
    texts = shown.values() if isinstance(shown, Mapping) else [shown or ""]
    found: Units = {}
    for text in texts:
        for unit, n in parse_units(str(text), ruleset.units).items():
            found[unit] = found.get(unit, 0) + n
    return found
