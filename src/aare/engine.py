"""Game: the one door through which play happens. `apply` validates and logs; `legal_actions` lists
exactly what `apply` accepts; `undo` steps back within a phase, never past a die roll.

A turn belongs to one power or to a team (`Ruleset.turn_order`). In a team turn several powers act at once,
each at its own pace: every action names the power acting (`power=`, or the action's `power` field), the
engine focuses the state on the member whose play it belongs to (`MemberFocused`), judges it there, and stores
the member's place again (`MemberReleased`). A joint phase starts when every member has reached it.
"""

from __future__ import annotations

import os
from typing import Any

from aare.actions import Concede, EndPhase, parse_action
from aare.dice import DiceSource
from aare.errors import AareError, IllegalAction
from aare.events import (
    Event,
    GameEnded,
    MemberFocused,
    MemberReleased,
    PhaseEntered,
    TeamTurnEnded,
    TeamTurnStarted,
)
from aare.game_log import GameLog
from aare.phases.base import TurnContext, phase_candidates, phase_extensions, phase_handler
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.rules.turns import MEMBER_RECORDS, Turn
from aare.rules.victory import game_won
from aare.state.game_state import GameState

DECISION_ACTIONS = frozenset({"choose_casualties", "retreat", "press", "submerge", "declare_targets", "choose"})
R_TEAM = "AARHE-ORDER-team-concurrency"
R_ORDER = "LHTR-TURN-power-order"
# every candidate is judged again by `is_legal`, trusted kinds included (tests and debugging: AARE_VERIFY_CANDIDATES=1)
VERIFY_CANDIDATES = os.environ.get("AARE_VERIFY_CANDIDATES", "") not in ("", "0")
END_PHASE = EndPhase()  # the one candidate every listing without a pending decision starts with (actions are frozen)


class _DryDice:
    """Dice for legality checks: they roll nothing anyone sees, so checking never consumes real dice."""

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        return (1,) * n


def decider(pending: Any, member: str) -> str:
    """The power that acts next in `member`'s play: the one a pending decision names, else the member."""
    if pending is not None and isinstance(pending.get("power"), str):
        return str(pending["power"])
    return member


def _claims(extension: Any, kind: str, pending: Any) -> bool:
    """Whether `extension` judges an action of type `kind`: one of its own, but a battle's answer (a decision
    action) only while no decision is pending or one of a kind it answers."""
    if kind not in extension.action_types:
        return False
    return kind not in DECISION_ACTIONS or pending is None or pending.get("kind") in extension.answers


def _may_end(ctx: TurnContext) -> bool:
    """A trusted `end_phase`: the phase handler's end conditions alone decide it (leaving the phase and entering
    the next refuse nothing in a ruleset that trusts it)."""
    try:
        phase_handler(ctx.state.phase).can_end(ctx)
    except AareError:
        return False
    return True


class Game:
    """A game being played: its log, its ruleset and (optionally) an explicit dice source."""

    def __init__(self, log: GameLog, dice: DiceSource | None = None) -> None:
        self.log = log
        self.dice = dice
        self._rules: tuple[Any, str, Ruleset] | None = None  # the state's options and ruleset id, their ruleset

    @property
    def state(self) -> GameState:
        return self.log.state

    @property
    def ruleset(self) -> Ruleset:
        return load_ruleset(self.state.ruleset, self.state.options)

    # -- who acts ----------------------------------------------------------------------------------------

    def actors(self) -> dict[str, str]:
        """Each power that may act now -> the power whose turn its action belongs to: itself, or the power
        whose battle it answers a decision of. In a team turn, every acting member (and every power a member's
        pending decision waits for); a member waiting for a joint phase or done with its turn acts no more."""
        state = self.log.state
        if state.winner is not None:
            return {}
        if not state.members:
            return {decider(state.pending, state.nation): state.nation}
        found: dict[str, str] = {}
        for member, place in state.members.items():
            if place.get("status") == "acting":
                found.setdefault(decider(place.get("pending"), member), member)
        return found

    def to_act(self) -> list[str]:
        """The powers that may act now, in turn order."""
        return list(self.actors())

    # -- the door ----------------------------------------------------------------------------------------

    def apply(self, action: Any, power: str | None = None) -> tuple[Event, ...]:
        """Apply one action (an action value or its JSON) for `power` (default: the action's `power`, else the
        power to act). Illegal or malformed: raises, nothing changes."""
        action = parse_action(action)
        if isinstance(action, Concede):
            ctx = self._concede(action, power)
            self.log.append(action.model_copy(update={"power": ctx.acting}).to_json(), ctx.events)
            return tuple(ctx.events)
        ctx = self._context(action, power, self.dice)
        # the action names its power as the board does, not by the alias it was sent with, before the rules see
        # it: what they record of it (a battle's answers) must be what a replay of the log records
        if ctx.acting is not None:
            named = ctx.acting
        else:
            named = ctx.ruleset.board.resolve_power(action.power) if action.power else ""
        if action.power != named:  # a frozen action naming its power as the board does already is kept
            action = action.model_copy(update={"power": named})
        self._run(ctx, action)
        if ctx.acting is not None and ctx.focus is not None:
            self._release(ctx, "acting")
        # ctx.state: every event applied; the action is frozen: the entry writes its JSON when it is read
        self.log.append(action, ctx.events, after=ctx.state)
        return self.log.entries[-1].events

    def is_legal(self, action: Any, power: str | None = None) -> bool:
        """Whether `apply` would accept `action` (a malformed one or one naming unknown things is not legal)."""
        try:
            parsed = parse_action(action)
            if isinstance(parsed, Concede):
                self._concede(parsed, power)
                return True
            self._run(self._context(parsed, power, _DryDice()), parsed)
        except AareError:
            return False
        return True

    def legal_actions(self, space: str | None = None, power: str | None = None,
                      verify: bool | None = None) -> list[Any]:
        """Every action `apply` accepts now for `power` (default: the first power to act), moves and
        placements touching `space` only, when given. In a team turn each action names its power.

        Candidates of the kinds the ruleset trusts (the `trusted_candidates` hook: its phase handler makes
        them legal by construction, or asks what the listing leaves open more cheaply: `PhaseHandler.admits`) are
        not judged again by a dry run when the phase has no extensions, unless `verify`
        (default: `VERIFY_CANDIDATES`); the list is the same either way."""
        if not self.actors():
            return []
        acting = power if power is not None else self.to_act()[0]
        ctx = self._context(END_PHASE, acting, _DryDice())
        candidates = phase_candidates(ctx, space)
        if ctx.state.pending is None:
            candidates.insert(0, END_PHASE)
        if self.log.state.members:
            candidates = [a.model_copy(update={"power": ctx.acting}) for a in candidates]
        trusted = frozenset() if (VERIFY_CANDIDATES if verify is None else verify) else self._trusted(ctx)
        handler = phase_handler(ctx.state.phase)

        def kept(action: Any) -> bool:
            if action.type not in trusted:
                return self.is_legal(action, acting)
            return _may_end(ctx) if isinstance(action, EndPhase) else handler.admits(ctx, action)

        return [a for a in candidates if kept(a)]

    @staticmethod
    def _trusted(ctx: TurnContext) -> frozenset[str]:
        """The action types of the current phase whose candidates need no second judgement: those the
        ruleset trusts (while a decision is pending, those it trusts as answers to that kind of decision),
        while no rule module extends the phase."""
        state = ctx.state
        if state.winner is not None or phase_extensions(ctx):
            return frozenset()
        pending = None if state.pending is None else str(state.pending.get("kind"))
        kinds: frozenset[str] = ctx.ruleset.modify("trusted_candidates", frozenset(), phase=state.phase,
                                                   pending=pending)
        return kinds

    def undo(self, power: str | None = None) -> None:
        """Take back the last action of the current phase (in a team turn: `power`'s last action), unless dice
        were rolled for it or since."""
        if not self.log.entries:
            raise IllegalAction("there is nothing to undo", "LHTR-TURN-all-dice-in-conduct-combat")
        index = self._undo_index(power)
        last = self.log.entries[index]
        if any(e.type == "dice_rolled" for entry in self.log.entries[index:] for e in entry.events):
            raise IllegalAction(
                "dice were rolled: play cannot be taken back past a roll", "LHTR-TURN-all-dice-in-conduct-combat"
            )
        if last.action is not None and last.action.get("type") == "end_phase":
            raise IllegalAction("a finished phase cannot be revisited", "LHTR-TURN-phase-sequence")
        later = self.log.entries[index + 1 :]
        kept = GameLog(self.log.initial, self.log.entries[:index])
        for entry in later:  # the other members' later actions stand: each is played again without it
            if entry.action is None:
                kept.append(None, entry.events)
                continue
            try:
                Game(kept).apply(entry.action)
            except AareError:
                who = (entry.action or {}).get("power", "another power")
                raise IllegalAction(f"{who}'s later action depends on it", R_TEAM) from None
        self.log.entries[:] = kept.entries
        self.log.state = kept.state

    def _undo_index(self, power: str | None) -> int:
        """The entry `undo` takes back: the last one; in a team turn the last one of `power` this turn."""
        entries = self.log.entries
        last = len(entries) - 1
        if not self.log.state.members:
            return last
        power = power if power is not None else (entries[last].action or {}).get("power")
        for index in range(last, -1, -1):
            entry = entries[index]
            if any(e.type == "team_turn_started" for e in entry.events):
                break
            if (entry.action or {}).get("power") == power:
                return index
        raise IllegalAction(f"{power} has nothing to undo this turn", "LHTR-TURN-phase-sequence")

    def acting_as(self, power: str) -> Acting:
        """The game as `power` acts in it now: its state focused on the play `power` acts in, and legality
        for `power` (what a bot or a seat of a team turn works with)."""
        return Acting(self.log, self.dice, power)

    # -- judging an action -------------------------------------------------------------------------------

    def _concede(self, action: Concede, power: str | None) -> TurnContext:
        """The named power's side concedes: the other side wins, whoever is to act (the `concession` hook names
        the rule; without it the game ends only by its victory conditions)."""
        state, ruleset = self.log.state, self.ruleset
        if state.winner is not None:
            raise IllegalAction(f"the game is over: {state.winner} won", "LHTR-VICTORY-check-end-of-round")
        rule = ruleset.modify("concession", None)
        if rule is None:
            raise IllegalAction(f"{ruleset.title} has no concession: the game ends by victory cities",
                                "LHTR-VICTORY-check-end-of-round")
        named = power or action.power or next(iter(self.to_act()), None)
        if named is None:
            raise IllegalAction("name the power whose side concedes", str(rule))
        board = ruleset.board
        named = board.resolve_power(named)
        side = board.side_of(named)
        others = sorted({p.side for p in board.powers} - {side})
        if len(others) != 1:
            raise IllegalAction(f"a concession needs exactly one other side, not {len(others)}", str(rule))
        ctx = TurnContext(state, ruleset, None)
        ctx.acting = named
        ctx.emit(GameEnded(others[0], f"the {side} conceded ({named})", str(rule)))
        return ctx

    def _context(self, action: Any, power: str | None, dice: Any) -> TurnContext:
        """The context `action` is judged in: for a team turn, focused on the member whose play it is."""
        state = self.log.state
        known = self._rules
        if known is None or known[0] is not state.options or known[1] != state.ruleset:
            known = self._rules = (state.options, state.ruleset, load_ruleset(state.ruleset, state.options))
        ruleset = known[2]
        ctx = TurnContext(state, ruleset, dice)
        named = power or action.power or None
        actors = self.actors()
        if named is not None and named not in actors:  # a power to act is named as the board names it
            named = ruleset.board.resolve_power(named)
        if not state.members:
            if named is not None and named not in actors and state.winner is None:
                raise IllegalAction(f"{named} is not to act now: {', '.join(actors)} is", R_ORDER)
            return ctx
        if named is None:
            raise IllegalAction(f"in a team turn the acting power must be named ({', '.join(actors)})", R_TEAM)
        member = actors.get(named)
        if member is None:
            place = state.members.get(named, {})
            why = {"waiting": "waits for its team to reach the next phase", "done": "has ended its turn"}
            raise IllegalAction(f"{named} {why.get(place.get('status', ''), 'is not to act now')}", R_TEAM)
        ctx.acting = named
        ctx.focus = member
        ctx.emit(MemberFocused(member))
        return ctx

    def _run(self, ctx: TurnContext, action: Any) -> None:
        """Judge and play `action`; an illegal one names the ruleset's own id of the rule it breaks."""
        try:
            self._play(ctx, action)
        except IllegalAction as err:
            own = ctx.ruleset.rule_id(err.rule_id)
            if own == err.rule_id:
                raise
            raise IllegalAction(err.reason, own) from err

    def _play(self, ctx: TurnContext, action: Any) -> None:
        state = ctx.state
        if state.winner is not None:
            raise IllegalAction(f"the game is over: {state.winner} won", "LHTR-VICTORY-check-end-of-round")
        handler = phase_handler(state.phase)
        extensions = phase_extensions(ctx)
        if state.pending is not None and action.type not in DECISION_ACTIONS and not any(
            action.type in e.action_types and state.pending.get("kind") in e.answers for e in extensions
        ):
            raise IllegalAction(  # a decision may name the rule under which play waits for it (`refusal_rule`)
                f"{state.pending.get('power', 'a player')} must first answer: {state.pending.get('kind')}",
                str(state.pending.get("refusal_rule", "LHTR-COMBAT-owner-chooses-casualties")),
            )
        if isinstance(action, EndPhase):
            handler.can_end(ctx)
            for extension in extensions:
                extension.can_end(ctx)
            self._advance(ctx)
            return
        claimed = next((e for e in extensions if _claims(e, action.type, state.pending)), None)
        for extension in extensions:
            if extension is not claimed:
                extension.before(ctx, action)  # an action another extension handles is "another action" too
        if claimed is not None:
            claimed.events_for(ctx, action)
        else:
            handler.events_for(ctx, action)
        for extension in extensions:
            extension.after(ctx, action)

    # -- moving on ---------------------------------------------------------------------------------------

    @staticmethod
    def _enter(ctx: TurnContext) -> None:
        phase_handler(ctx.state.phase).on_enter(ctx)
        for extension in phase_extensions(ctx):
            extension.on_enter(ctx)

    def _advance(self, ctx: TurnContext) -> None:
        """Leave the phase; enter the next phase, the next turn, or the next round. A phase whose exit already
        moved play elsewhere (a pre-game phase handing over to the next power) is followed."""
        ruleset = ctx.ruleset
        cursor = (ctx.state.round, ctx.state.nation, ctx.state.phase)
        for extension in phase_extensions(ctx):
            extension.on_exit(ctx)
        phase_handler(ctx.state.phase).on_exit(ctx)
        state = ctx.state
        if (state.round, state.nation, state.phase) != cursor:
            turn = self._turn_of(ruleset, state.round, state.nation)
            first = ruleset.phase_table()[0].name
            if turn.is_team and not state.members and state.phase == first:
                self._start_turn(ctx, state.round, turn)
            else:
                self._enter(ctx)
            return
        phases = [p.name for p in ruleset.phase_table()]
        index = phases.index(state.phase) if state.phase in phases else len(phases) - 1
        if ctx.focus is not None:
            self._advance_member(ctx, phases, index)
        elif index + 1 < len(phases):
            ctx.emit(PhaseEntered(state.round, state.nation, phases[index + 1]))
            self._enter(ctx)
        else:
            self._next_turn(ctx)

    def _advance_member(self, ctx: TurnContext, phases: list[str], index: int) -> None:
        """A member of a team turn ends its phase: on to its next phase (a joint one waits for the team), or
        done with its turn; then the team moves on if it can."""
        if index + 1 < len(phases):
            spec = ctx.ruleset.phase_spec(phases[index + 1])
            ctx.emit(PhaseEntered(ctx.state.round, ctx.state.nation, phases[index + 1]))
            if spec is not None and spec.joint:
                self._release(ctx, "waiting")
            else:
                self._enter(ctx)
                self._release(ctx, "acting")
        else:
            self._release(ctx, "done")
        self._settle_team(ctx)

    def _settle_team(self, ctx: TurnContext) -> None:
        """Start a joint phase every member has reached; end the team turn when every member is done."""
        members = ctx.state.members
        open_ = {p: m for p, m in members.items() if m.get("status") != "done"}
        if not open_:
            ctx.emit(TeamTurnEnded())
            self._next_turn(ctx)
            return
        if all(m.get("status") == "waiting" for m in open_.values()) and len({m["phase"] for m in open_.values()}) == 1:
            for member in open_:
                ctx.emit(MemberFocused(member))
                ctx.focus = member
                self._enter(ctx)
                self._release(ctx, "acting")

    def _release(self, ctx: TurnContext, status: str) -> None:
        """Store the focused member's place with `status`; the state shows the team's earliest phase."""
        member = ctx.focus
        assert member is not None
        phases = [p.name for p in ctx.ruleset.phase_table()]
        places = {**ctx.state.members, member: {"phase": ctx.state.phase, "status": status}}
        open_ = [m["phase"] for m in places.values() if m.get("status") != "done"] or [ctx.state.phase]
        earliest = min(open_, key=lambda p: phases.index(p) if p in phases else len(phases))
        private = tuple(sorted(ctx.ruleset.modify("member_records", set(MEMBER_RECORDS))))
        ctx.emit(MemberReleased(member, status, earliest, private))
        ctx.focus = None

    @staticmethod
    def _turn_of(ruleset: Ruleset, round_: int, power: str) -> Turn:
        order = ruleset.turn_order(round_)
        try:
            return order.turns[order.index_of(power)]
        except KeyError:
            return Turn((power,))

    def _next_turn(self, ctx: TurnContext) -> None:
        """The turn after the current one; after the round's last turn the victory check, then a new round. A
        power's own turn that the ruleset skips (the `turn_skip` hook) is passed over, at most one round of them."""
        ruleset, state = ctx.ruleset, ctx.state
        order = ruleset.turn_order(state.round)
        index = order.index_of(state.nation) + 1
        round_ = state.round
        for _ in range(len(order.turns) + 1):
            if index == len(order.turns):
                winner = ruleset.modify("victory", None, state=ctx.state)
                if winner is not None:
                    ctx.emit(game_won(ruleset, ctx.state, winner))
                    return
                round_, index = round_ + 1, 0
                order = ruleset.turn_order(round_)
            turn = order.turns[index]
            skip = None if turn.is_team else ruleset.modify("turn_skip", None, state=ctx.state, power=turn.powers[0])
            if skip is None:
                break
            ctx.emit(*skip)
            index += 1
        else:
            index %= len(order.turns)
        self._start_turn(ctx, round_, order.turns[index])

    def _start_turn(self, ctx: TurnContext, round_: int, turn: Turn) -> None:
        first = ctx.ruleset.phase_table()[0].name
        if not turn.is_team:
            ctx.emit(PhaseEntered(round_, turn.powers[0], first))
            self._enter(ctx)
            return
        ctx.emit(TeamTurnStarted(round_, turn.powers, first))
        for member in turn.powers:
            ctx.emit(MemberFocused(member))
            ctx.focus = member
            self._enter(ctx)
            self._release(ctx, "acting")


class Acting(Game):
    """A game seen by one acting power: `state` is focused on the play it acts in (in a team turn, its own
    member's phase and decision); `apply`, `is_legal`, `legal_actions` and `undo` act for it."""

    def __init__(self, log: GameLog, dice: DiceSource | None, power: str) -> None:
        super().__init__(log, dice)
        self.power = power

    @property
    def state(self) -> GameState:
        """Focused on the member `power` acts for, or on `power`'s own place while it waits for its team."""
        state = self.log.state
        member = Game(self.log).actors().get(self.power)
        if member is None and self.power in state.members:
            member = self.power
        return MemberFocused(member).apply(state) if state.members and member is not None else state

    def apply(self, action: Any, power: str | None = None) -> tuple[Event, ...]:
        return super().apply(action, power or self.power)

    def is_legal(self, action: Any, power: str | None = None) -> bool:
        return super().is_legal(action, power or self.power)

    def legal_actions(self, space: str | None = None, power: str | None = None,
                      verify: bool | None = None) -> list[Any]:
        return super().legal_actions(space, power or self.power, verify)

    def undo(self, power: str | None = None) -> None:
        super().undo(power or self.power)
