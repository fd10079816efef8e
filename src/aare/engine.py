"""Game: the one door through which play happens. `apply` validates and logs; `legal_actions` lists
exactly what `apply` accepts; `undo` steps back within a phase, never past a die roll."""

from __future__ import annotations

from typing import Any

from aare.actions import EndPhase, parse_action
from aare.dice import DiceSource
from aare.errors import AareError, IllegalAction
from aare.events import Event, GameEnded, PhaseEntered
from aare.game_log import GameLog
from aare.phases.base import TurnContext, phase_candidates, phase_extensions, phase_handler
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.state.game_state import GameState

DECISION_ACTIONS = frozenset({"choose_casualties", "retreat", "press", "submerge", "declare_targets"})


class _DryDice:
    """Dice for legality checks: they roll nothing anyone sees, so checking never consumes real dice."""

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        return (1,) * n


class Game:
    """A game being played: its log, its ruleset and (optionally) an explicit dice source."""

    def __init__(self, log: GameLog, dice: DiceSource | None = None) -> None:
        self.log = log
        self.dice = dice

    @property
    def state(self) -> GameState:
        return self.log.state

    @property
    def ruleset(self) -> Ruleset:
        return load_ruleset(self.state.ruleset, self.state.options)

    def apply(self, action: Any) -> tuple[Event, ...]:
        """Apply one action (an action value or its JSON). Illegal or malformed: raises, nothing changes."""
        action = parse_action(action)
        ctx = TurnContext(self.state, self.ruleset, self.dice)
        self._run(ctx, action)
        self.log.append(action.to_json(), ctx.events)
        return tuple(ctx.events)

    def is_legal(self, action: Any) -> bool:
        """Whether `apply` would accept `action` (a malformed one or one naming unknown things is not legal)."""
        try:
            self._run(TurnContext(self.state, self.ruleset, _DryDice()), parse_action(action))
        except AareError:
            return False
        return True

    def legal_actions(self, space: str | None = None) -> list[Any]:
        """Every action `apply` accepts now (moves and placements touching `space` only, when given)."""
        ctx = TurnContext(self.state, self.ruleset, _DryDice())
        candidates = phase_candidates(ctx, space)
        if self.state.pending is None:
            candidates.insert(0, EndPhase())
        return [a for a in candidates if self.is_legal(a)]

    def undo(self) -> None:
        """Take back the last action of the current phase, unless dice were rolled for it or since."""
        if not self.log.entries:
            raise IllegalAction("there is nothing to undo", "LHTR-TURN-all-dice-in-conduct-combat")
        last = self.log.entries[-1]
        if any(e.type == "dice_rolled" for e in last.events):
            raise IllegalAction(
                "dice were rolled: play cannot be taken back past a roll", "LHTR-TURN-all-dice-in-conduct-combat"
            )
        if last.action is not None and last.action.get("type") == "end_phase":
            raise IllegalAction("a finished phase cannot be revisited", "LHTR-TURN-phase-sequence")
        self.log.entries.pop()
        self.log.state = self.log.replay()

    def _run(self, ctx: TurnContext, action: Any) -> None:
        state = ctx.state
        if state.winner is not None:
            raise IllegalAction(f"the game is over: {state.winner} won", "LHTR-VICTORY-check-end-of-round")
        handler = phase_handler(state.phase)
        extensions = phase_extensions(ctx)
        if state.pending is not None and action.type not in DECISION_ACTIONS and not any(
            action.type in e.action_types and state.pending.get("kind") in e.answers for e in extensions
        ):
            raise IllegalAction(
                f"{state.pending.get('power', 'a player')} must first answer: {state.pending.get('kind')}",
                "LHTR-COMBAT-owner-chooses-casualties",
            )
        if isinstance(action, EndPhase):
            handler.can_end(ctx)
            for extension in extensions:
                extension.can_end(ctx)
            self._advance(ctx)
            return
        claimed = next((e for e in extensions if action.type in e.action_types), None)
        for extension in extensions:
            if extension is not claimed:
                extension.before(ctx, action)  # an action another extension handles is "another action" too
        if claimed is not None:
            claimed.events_for(ctx, action)
        else:
            handler.events_for(ctx, action)
        for extension in extensions:
            extension.after(ctx, action)

    @staticmethod
    def _enter(ctx: TurnContext) -> None:
        phase_handler(ctx.state.phase).on_enter(ctx)
        for extension in phase_extensions(ctx):
            extension.on_enter(ctx)

    def _advance(self, ctx: TurnContext) -> None:
        """Leave the phase; enter the next phase, the next power's turn, or the next round. A phase whose
        exit already moved play elsewhere (a pre-game phase handing over to the next power) is followed."""
        ruleset = ctx.ruleset
        cursor = (ctx.state.round, ctx.state.nation, ctx.state.phase)
        for extension in phase_extensions(ctx):
            extension.on_exit(ctx)
        phase_handler(ctx.state.phase).on_exit(ctx)
        if (ctx.state.round, ctx.state.nation, ctx.state.phase) != cursor:
            self._enter(ctx)
            return
        phases = [p.name for p in ruleset.phase_table()]
        powers = [p.name for p in ruleset.board.powers]
        state = ctx.state
        index = phases.index(state.phase) if state.phase in phases else len(phases) - 1
        round_, nation = state.round, state.nation
        if index + 1 < len(phases):
            phase = phases[index + 1]
        else:
            phase = phases[0]
            turn = powers.index(nation) + 1
            if turn == len(powers):
                winner = ruleset.modify("victory", None, state=state)
                if winner is not None:
                    ctx.emit(GameEnded(winner, "victory cities", "LHTR-VICTORY-check-end-of-round"))
                    return
                round_, turn = round_ + 1, 0
            nation = powers[turn]
        ctx.emit(PhaseEntered(round_, nation, phase))
        self._enter(ctx)
