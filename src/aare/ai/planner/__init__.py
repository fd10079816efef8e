"""The planner: a bot that plans each phase with a threat map, a value of the position and exact battle odds.

Per phase, once when it starts (the plan's actions are then played while they stay legal, as `GreedyBot` does):

- **threat** (`threat.py`): what the enemy can bring to each territory on its next turn;
- **value** (`value.py`): a position's and a territory's worth (unit value, income with the ruleset's bonuses,
  victory cities, capitals, the `victory_standing` objectives);
- **purchase** (`purchase.py`), **combat move** (`combat_plan.py`), **non-combat move** (`noncombat.py`),
  **placement** (`placement.py`) and **battle decisions** (`battle.py`).

Garrisons: land units leave the capital and the victory cities the power holds only as long as those that stay
would hold against the threat map (its chance to take the territory at most `noncombat.HOLD`; one stays).

Its effort per power-turn is bounded by a `Budget`: `work` exact-odds evaluations (reproducible: the same seed
and work give the same game) and/or `budget` seconds. It names no ruleset, power, territory or unit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from aare.actions import Move, Place, Purchase
from aare.ai.bot import legal_or_stuck
from aare.ai.greedy import GreedyBot, own_units
from aare.ai.planner import battle
from aare.ai.planner.budget import Budget
from aare.ai.planner.combat_plan import plan_attacks
from aare.ai.planner.noncombat import ABANDON, HOLD, plan_noncombat
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.placement import plan_placement
from aare.ai.planner.purchase import plan_purchase
from aare.ai.planner.sealift import plan_assaults, plan_ferries
from aare.ai.planner.threat import defenders_at, threat_map
from aare.economy.production import producers
from aare.engine import Acting, Game
from aare.phases.base import phase_handler
from aare.phases.combat_move import CombatMove
from aare.phases.noncombat_move import NonCombatMove
from aare.player_view import visible_state
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

__all__ = ["Budget", "PlannerBot"]

Units = dict[str, int]


class PlannerBot(GreedyBot):
    """Plays every power by the plans of the modules named in the package docstring."""

    name = "planner"

    def __init__(self, seed: int = 0, budget: float | None = None, work: int | None = None) -> None:
        super().__init__(seed)
        self.budget = Budget(budget, work)
        self._oracle: Oracle | None = None
        self._threat: dict[str, Units] = {}

    def oracle(self, ruleset: Ruleset) -> Oracle:
        if self._oracle is None or self._oracle.ruleset is not ruleset:
            self._oracle = Oracle(ruleset, self.budget)
        return self._oracle

    def choose(self, game: Game) -> Any:
        me = game.power if isinstance(game, Acting) else next(iter(game.to_act()), game.state.nation)
        state = game.state
        self.budget.start_turn((state.round, state.nation, me))
        if state.pending is not None:
            view = visible_state(state, me)
            return battle.decide(legal_or_stuck(game), view.pending or {}, game.ruleset, self.oracle(game.ruleset))
        return super().choose(game)

    def _make_plan(self, game: Game, state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        oracle = self.oracle(ruleset)
        oracle.clear()
        self._threat = threat_map(state, ruleset, ruleset.board.side_of(me))
        handler = phase_handler(state.phase)
        legal = game.legal_actions()
        if any(isinstance(a, Purchase) for a in legal):
            return plan_purchase(legal, state, ruleset, me, self._threat, oracle)
        if any(isinstance(a, Place) for a in legal):
            return plan_placement(legal, state, ruleset, me, self._front_distance(state, ruleset, me),
                                  self._threat, oracle)
        moves = [a for a in legal if isinstance(a, Move) and not a.raid]
        if not isinstance(handler, CombatMove | NonCombatMove):
            return []
        reach = self._reach(moves, ruleset)
        spare = {start: self._movable(state, ruleset, me, start) for _, start in reach}
        if isinstance(handler, NonCombatMove):  # a kind of CombatMove: asked first
            guarded = self._guarded(state, ruleset, me)

            def ferries(here: Callable[[str], Units]) -> list[Any]:
                return plan_ferries(game, spare, guarded, state, ruleset, me, self._threat, oracle, here, reach)

            return plan_noncombat(reach, spare, guarded, self._front_distance(state, ruleset, me), state, ruleset,
                                  me, self._threat, oracle, ferries)
        plan = self._attack_with_garrisons(moves, reach, spare, state, ruleset, me)
        attacked = {step.path[-1] for step in plan if isinstance(step, Move)}
        return plan + plan_assaults(game, reach, spare, attacked, state, ruleset, me, self._threat, oracle)

    def _attack_with_garrisons(self, moves: list[Move], reach: Any, spare: dict[str, Units], state: GameState,
                               ruleset: Ruleset, me: str) -> list[Any]:
        """The attacks planned first as if no garrison had to stay; kept when every kept territory they draw
        units from would still hold against what the threat map foresees once the attacked territories' enemy
        units are gone (the threat's chance no higher than `HOLD`, or than against all the units there now):
        the units that would stand guard against the very stacks they can destroy go and destroy them.
        Otherwise the attacks are planned with the garrisons of `_movable`. `spare` is left as the plan leaves
        it."""
        oracle = self.oracle(ruleset)
        free = {start: own_units(state, me, start) for start in spare}
        trial = {start: dict(units) for start, units in free.items()}
        plan = plan_attacks(moves, reach, trial, state, ruleset, me, self._threat, oracle, self.budget)
        if self._holds_after(plan, free, trial, state, ruleset, me):
            spare.clear()
            spare.update(trial)
            return plan
        return plan_attacks(moves, reach, spare, state, ruleset, me, self._threat, oracle, self.budget)

    def _holds_after(self, plan: list[Any], free: dict[str, Units], left: dict[str, Units], state: GameState,
                     ruleset: Ruleset, me: str) -> bool:
        """Whether each kept territory that `plan` draws units from holds (see `_attack_with_garrisons`)."""
        board = ruleset.board
        side = board.side_of(me)
        targets = {step.path[-1] for step in plan if isinstance(step, Move) and board.spaces[step.path[-1]].is_land}
        drawn = {start for start, units in free.items() if any(left[start].get(u, 0) < n for u, n in units.items())}
        kept = [k for k in self._kept(state, ruleset, me) if k in drawn]
        if not kept:
            return True
        units: dict[str, tuple[Stack, ...]] = {}
        for space, stacks in state.units.items():
            if space in targets:
                stacks = tuple(s for s in stacks if board.side_of(s.owner) == side)
            elif space in drawn:
                gone = {u: n - left[space].get(u, 0) for u, n in free[space].items()}
                stacks = tuple(s.with_count(s.count - min(s.count, gone.pop(s.unit, 0))) if s.owner == me else s
                               for s in stacks)
                stacks = tuple(s for s in stacks if s.count > 0)
            if stacks:
                units[space] = stacks
        after = replace(state, units=units)
        residual = threat_map(after, ruleset, side)
        oracle = self.oracle(ruleset)
        for keep in kept:
            if not self.budget.left():
                return False
            danger = residual.get(keep)
            if not danger:
                continue
            now = oracle.capture(self._threat.get(keep, {}), defenders_at(state, ruleset, side, keep)) \
                if self._threat.get(keep) else 0.0
            if oracle.capture(danger, defenders_at(after, ruleset, side, keep)) > max(HOLD, now):
                return False
        return True

    def _kept(self, state: GameState, ruleset: Ruleset, me: str) -> list[str]:
        """The capital, the victory cities held, then the power's other complexes."""
        kept = super()._kept(state, ruleset, me)
        return kept + sorted(s for s in producers(state, ruleset, me) if s not in kept)

    def _guarded(self, state: GameState, ruleset: Ruleset, me: str) -> list[str]:
        """What the non-combat move holds: the capital, the allies' capitals their side holds, then the rest
        of `_kept`."""
        board = ruleset.board
        kept = self._kept(state, ruleset, me)
        side = board.side_of(me)
        allied = sorted(c for c in board.capitals() if c not in kept and state.owners.get(c) is not None
                        and board.side_of(state.owners[c]) == side)
        return kept[:1] + allied + kept[1:]

    def _movable(self, state: GameState, ruleset: Ruleset, me: str, space: str) -> Units:
        """`me`'s units at `space` that may leave it: at a kept territory, all but a garrison of land units (best
        defenders first) that holds against the threat map (at most HOLD to lose it), at least one; only one
        where even all of them would not hold (above ABANDON; the capital and victory cities excepted)."""
        units = own_units(state, me, space)
        if space not in self._kept(state, ruleset, me):
            return units
        land = sorted((u for u in units if ruleset.units[u].domain == "land"),
                      key=lambda u: (-ruleset.units[u].defense / max(1, ruleset.units[u].cost), u))
        garrison: Units = {}
        danger = self._threat.get(space, {})
        oracle = self.oracle(ruleset)
        if (danger and space != ruleset.board.capital_of(me) and space not in ruleset.victory_cities()
                and self.budget.left()
                and oracle.capture(danger, {u: units[u] for u in land}) > ABANDON):
            danger = {}  # not to be held by all there: one stays, the others may go
        for unit in land:
            while units[unit] > 0:
                if garrison and (not danger or not self.budget.left() or oracle.capture(danger, garrison) <= HOLD):
                    break
                units[unit] -= 1
                garrison[unit] = garrison.get(unit, 0) + 1
        return {u: n for u, n in units.items() if n > 0}
