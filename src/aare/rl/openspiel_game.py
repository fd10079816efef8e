"""The engine as an OpenSpiel game (`pyspiel`, in the `rl` extra) with explicit chance nodes: each roll of a
battle round (the dice one combat step rolls: both sides' fire in a round of simultaneous fire) is one chance
node whose outcomes are its exact hit totals (`aare.combat.chance`), each played as a canonical set of dice;
any other die (research, a raid's damage, a lowest-die detection roll) is a chance node of equal odds per face.
Expectimax and MCTS with chance nodes see the true distribution of every roll.

    import pyspiel
    from aare.rl import openspiel_game
    game = pyspiel.load_game("python_aare", {"rules": "lhtr-1.3", "max_turns": 10})

Players are the powers in turn order; the player to move is the power the engine waits for (a defender
choosing casualties included); an action is an index into the engine's legal actions, as in `aare.rl.env`.
Returns are +1 for each power of the winning side and -1 for the others, 0 for a game stopped after
`max_turns` power-turns.
"""

from __future__ import annotations

import json
from typing import Any

import pyspiel

from aare.combat.battle_state import RollRequest
from aare.combat.chance import Outcome, canonical_dice, outcomes
from aare.engine import Game
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.rl.env import MAX_ACTIONS
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState

SHORT_NAME = "python_aare"
DEFAULTS = {"rules": "lhtr-1.3", "max_turns": 20, "seed": 0}
FACES = 6
MAX_ROUND_OUTCOMES = 4096  # a roll with more outcomes than this is rolled die by die


class NeedDie(Exception):
    """The action needs one more die than those rolled so far (a die of `sides` faces)."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class NeedRoll(Exception):
    """The action needs the outcome of one more battle roll: `choices` are its outcomes with their odds."""

    def __init__(self, choices: list[tuple[float, Outcome]]) -> None:
        super().__init__(len(choices))
        self.choices = choices


def roll_choices(request: RollRequest) -> list[tuple[float, Outcome]] | None:
    """The outcomes of a battle roll as one chance node, or None where it is rolled die by die (outcomes not
    mapped back to dice, or too many of them)."""
    found = outcomes(request)
    if not found or len(found) > MAX_ROUND_OUTCOMES or canonical_dice(request, found[0][1]) is None:
        return None
    return found


class ScriptedDice:
    """The chance nodes' choices, in order: a face for a single die, an outcome's index for a battle roll
    (played as its canonical dice); one more than those raises NeedDie or NeedRoll."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.used = 0
        self.planned: list[int] = []

    def _next(self) -> int | None:
        if self.used >= len(self.faces):
            return None
        self.used += 1
        return self.faces[self.used - 1]

    def plan_roll(self, request: RollRequest) -> None:
        choices = roll_choices(request)
        if choices is None:
            return
        index = self._next()
        if index is None:
            raise NeedRoll(choices)
        dice = canonical_dice(request, choices[index][1])
        assert dice is not None
        self.planned = list(dice)

    def roll(self, n: int, sides: int = FACES) -> tuple[int, ...]:
        out = []
        for _ in range(n):
            if self.planned:
                out.append(self.planned.pop(0))
                continue
            face = self._next()
            if face is None:
                raise NeedDie(sides)
            out.append(face)
        return tuple(out)


def _players(rules: str) -> tuple[tuple[str, ...], dict[str, str]]:
    board = load_ruleset(rules, {}).board
    return tuple(p.name for p in board.powers), {p.name: p.side for p in board.powers}


GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="aare: Axis & Allies rules engine",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification=DEFAULTS,
)


class AareGame(pyspiel.Game):  # type: ignore[misc]
    """One ruleset (`rules`), stopped after `max_turns` power-turns; `seed` seeds nothing the chance nodes
    roll (they roll every die) but is kept in the game's record."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        powers, sides = _players(str(params["rules"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS,
            max_chance_outcomes=MAX_ROUND_OUTCOMES,
            num_players=len(powers),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=100_000,
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules = str(params["rules"])
        self.max_turns = int(params["max_turns"])
        self.seed = int(params["seed"])
        self.powers, self.sides = powers, sides

    def new_initial_state(self) -> AareState:
        return AareState(self, new_game(self.rules, {}, self.seed).state)


class AareState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's state, and while dice are being rolled the action rolling them and the faces
    rolled so far."""

    def __init__(self, game: AareGame, state: GameState) -> None:
        super().__init__(game)
        self.powers, self.sides, self.max_turns = game.powers, game.sides, game.max_turns
        self.state = state
        self.rolling: dict[str, Any] | None = None  # the action whose dice are being rolled
        self.power = ""
        self.faces: list[int] = []  # the chance nodes' choices so far: faces of dice, indices of roll outcomes
        self.die_sides = FACES
        self.roll_odds: list[float] = []  # at a battle roll's chance node: the odds of each of its outcomes
        self.turns = 0
        self._acting: tuple[str, list[dict[str, Any]]] | None = None

    # -- who moves ---------------------------------------------------------------------------------------------

    def _game(self, dice: Any = None) -> Game:
        return Game(GameLog(self.state), dice)

    def _actor(self) -> tuple[str, list[dict[str, Any]]]:
        """The power to act and its legal actions (the first power to act that has any)."""
        if self._acting is None:
            self._acting = self._find_actor()
        return self._acting

    def _find_actor(self) -> tuple[str, list[dict[str, Any]]]:
        game = self._game()
        for power in game.to_act():
            player = game.acting_as(power) if self.state.members else game
            legal = player.legal_actions()
            if legal:
                return power, [a.to_json() for a in legal[:MAX_ACTIONS]]
        return "", []

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.rolling is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.powers.index(self._actor()[0])

    def is_terminal(self) -> bool:
        if self.rolling is not None:
            return False
        return self.state.winner is not None or self.turns >= self.max_turns or not self._actor()[0]

    def candidates(self) -> list[dict[str, Any]]:
        return self._actor()[1]

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.candidates())))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.roll_odds:
            return list(enumerate(self.roll_odds))
        return [(face, 1.0 / self.die_sides) for face in range(self.die_sides)]

    # -- playing ----------------------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.rolling is not None:
            self.faces.append(int(action) if self.roll_odds else int(action) + 1)
        else:
            self.power = self._actor()[0]
            self.rolling = self.candidates()[int(action)]
            self.faces = []
        self._resolve()

    def _resolve(self) -> None:
        """Play the action being rolled for with the faces rolled so far, or ask for one more die."""
        assert self.rolling is not None
        game = self._game(ScriptedDice(self.faces))
        player = game.acting_as(self.power) if self.state.members else game
        try:
            player.apply(self.rolling, self.power)
        except NeedDie as need:
            self.die_sides, self.roll_odds = need.sides, []
            return
        except NeedRoll as need:
            total = sum(p for p, _ in need.choices)
            self.roll_odds = [p / total for p, _ in need.choices]
            return
        before = self.state
        self.state = game.state
        self.rolling, self.faces, self.roll_odds, self._acting = None, [], [], None
        if _turn(before) != _turn(self.state):
            self.turns += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"roll outcome {action}" if self.roll_odds else f"die {action + 1}"
        return json.dumps(self.candidates()[action], sort_keys=True)

    def returns(self) -> list[float]:
        winner = self.state.winner
        if winner is None:
            return [0.0] * len(self.powers)
        return [1.0 if self.sides[p] == winner else -1.0 for p in self.powers]

    def __str__(self) -> str:
        state = self.state
        rolling = f"; rolling for {json.dumps(self.rolling)}: {self.faces}" if self.rolling else ""
        return f"round {state.round}, {state.nation}, {state.phase}{rolling}"


def _turn(state: GameState) -> tuple[Any, ...]:
    return (state.round, tuple(sorted(state.members)) if state.members else state.nation)


pyspiel.register_game(GAME_TYPE, AareGame)
