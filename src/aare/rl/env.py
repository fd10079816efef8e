"""A PettingZoo AEC environment over `aare.engine.Game`: agents are the powers, the agent to act is the power
the engine waits for (a defender choosing casualties included), an action is an index into the engine's
legal actions. See docs/rl.md."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, overload

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from aare.engine import Game
from aare.game_setup import new_game
from aare.gc_tuning import tune_collector
from aare.rl.features import RECORD_BUCKETS, CandidateEncoder, Encoder
from aare.rl.text_view import text_view
from aare.rules.ruleset import load_ruleset

MAX_ACTIONS = 1024  # K: the largest number of legal actions a position may offer (tests/rl check it holds)
MAX_CYCLES = 60  # power-turns before every agent is truncated


class Candidates(Sequence[dict[str, Any]]):
    """The JSON of the legal actions, in index order, each written when it is asked for (an agent reads one or
    none of them at most steps)."""

    def __init__(self, actions: Sequence[Any] = ()) -> None:
        self.actions = actions

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> Candidates: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | Candidates:
        if isinstance(index, slice):
            return Candidates(self.actions[index])
        found: dict[str, Any] = self.actions[index].to_json()
        return found

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (a.to_json() for a in self.actions)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class AareEnv(AECEnv):  # type: ignore[misc]
    """One game of `rules` as a turn-based multi-agent environment.

    Observation (`Dict`): `spaces`, `globals`, `records` (`aare.rl.features`) as the agent sees them, and
    `action_mask` (int8, shape (K,)): 1 at the index of each legal action of the agent to act, 0 for everyone
    else. `info["candidates"]` of the agent to act lists the JSON of those actions in index order.
    Reward: +1 to each power of the winning side and -1 to the others when the game ends, 0 otherwise; with
    `shaping` > 0 also `shaping` times the change, by the action, of the number of victory cities its side holds.
    Every agent is truncated after `max_cycles` power-turns (a team turn counts once).
    With `tune_gc` (the default) the process's garbage collector runs less often (`aare.gc_tuning`)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "aare", "is_parallelizable": False}

    def __init__(self, rules: str, name: str, options: Mapping[str, Any] | None = None,
                 max_cycles: int = MAX_CYCLES, max_actions: int = MAX_ACTIONS,
                 render_mode: str | None = None, shaping: float = 0.0, candidate_features: bool = False,
                 tune_gc: bool = True) -> None:
        super().__init__()
        if tune_gc:
            tune_collector()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.metadata = {**AareEnv.metadata, "name": name}  # type: ignore[misc]
        self.rules = rules
        self.options = dict(options or {})
        self.max_cycles = max_cycles
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.shaping = shaping
        ruleset = load_ruleset(rules, self.options)
        self.cities = tuple(ruleset.board.victory_cities())
        self.encoder = Encoder(ruleset)
        self.sides = {p.name: p.side for p in ruleset.board.powers}
        self.possible_agents = list(self.encoder.powers)
        enc = self.encoder
        parts: dict[str, spaces.Space[Any]] = {
            "spaces": spaces.Box(0.0, np.inf, (len(enc.spaces), enc.space_width), np.float32),
            "globals": spaces.Box(-np.inf, np.inf, (enc.global_width,), np.float32),
            "records": spaces.Box(-np.inf, np.inf, (RECORD_BUCKETS,), np.float32),
            "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
        }
        self.candidate_encoder = CandidateEncoder(enc, max_actions) if candidate_features else None
        if self.candidate_encoder is not None:
            parts["candidates"] = spaces.Box(-np.inf, np.inf, (max_actions, self.candidate_encoder.width), np.float32)
        space = spaces.Dict(parts)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self.game: Game | None = None
        self.candidates = Candidates()
        self.turns = 0
        self._cursor: tuple[Any, ...] = ()
        self._seen: dict[str, tuple[int, dict[str, Any]]] = {}
        # K ones then K zeros: the mask of n legal actions is a copy of the K entries from K - n on
        self._ramp = np.repeat(np.array([1, 0], dtype=np.int8), max_actions)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game --------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` seeds its dice (None: a seed drawn at random)."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**31))
        self.game = Game(new_game(self.rules, self.options, seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.turns = 0
        self._cursor = self._turn()
        self._seen = {}
        self._select()

    def _live(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def player(self, power: str) -> Game:
        """The game as `power` acts in it (focused on its play in a team turn)."""
        game = self._live()
        return game.acting_as(power) if game.state.members else game

    def _turn(self) -> tuple[Any, ...]:
        state = self._live().state
        return (state.round, tuple(sorted(state.members)) if state.members else state.nation)

    def _select(self) -> None:
        """Make the power the engine waits for the agent to act, with its legal actions as candidates."""
        game = self._live()
        for power in game.to_act():
            legal = self.player(power).legal_actions()
            if legal:
                self.agent_selection = power
                self.candidates = Candidates(legal)
                infos = self.infos
                for agent in self.agents:
                    if infos[agent]:  # an empty one stays as it is
                        infos[agent] = {}
                shown = self.candidates if len(legal) <= self.max_actions else self.candidates[: self.max_actions]
                infos[power] = {"candidates": shown, "legal_count": len(legal)}
                return
        # no power can act: a dead end of the rules engine, reported and ended as a truncation
        self.candidates = Candidates()
        for agent in self.agents:
            self.truncations[agent] = True
            self.infos[agent] = {"dead_end": True}
        if not getattr(self, "agent_selection", None) or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        """Play candidate number `action` for the agent to act (None for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = int(action)
        if not 0 <= index < min(len(self.candidates), self.max_actions):
            raise ValueError(f"action {index} is not legal now: {len(self.candidates)} candidates")
        self.play(self.candidates.actions[index])

    def play(self, action: Any) -> None:
        """Play an action given as its JSON (an object or its text) or as an action value (any action the engine
        accepts, a candidate or not) for the agent to act; an illegal one raises the engine's error and changes
        nothing."""
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        held = self.cities_held() if self.shaping else {}
        self.player(agent).apply(dict(action) if isinstance(action, Mapping) else action, agent)
        if any(self.rewards.values()):
            self._clear_rewards()
        state = self._live().state
        if self.shaping:
            now = self.cities_held()
            for power in self.agents:
                side = self.sides[power]
                self.rewards[power] = self.shaping * (now.get(side, 0) - held.get(side, 0))
        turn = self._turn()
        if turn != self._cursor:
            self.turns += 1
            self._cursor = turn
        if state.winner is not None:
            for power in self.agents:
                self.rewards[power] += 1.0 if self.sides[power] == state.winner else -1.0
                self.terminations[power] = True
                self.infos[power] = {"winner": state.winner}
        elif self.turns >= self.max_cycles:
            for power in self.agents:
                self.truncations[power] = True
                self.infos[power] = {}
        else:
            self._select()
        if self.shaping or state.winner is not None:  # else every reward is 0
            self._accumulate_rewards()

    def cities_held(self) -> dict[str, int]:
        """Side -> the number of victory cities its powers control."""
        owners, held = self._live().state.owners, dict.fromkeys(self.sides.values(), 0)
        for city in self.cities:
            owner = owners.get(city)
            if owner in self.sides:
                held[self.sides[owner]] += 1
        return held

    # -- what agents see ---------------------------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, Any]:
        """`agent`'s observation: features of its own view and its action mask."""
        state = self._live().state
        cached = self._seen.get(agent)
        if cached is None or cached[0] != state.version:
            features: dict[str, Any] = self.encoder.encode(state, agent)  # a fresh dict of fresh arrays
            cached = (state.version, features)
            self._seen[agent] = cached
        live = not (self.terminations.get(agent) or self.truncations.get(agent))
        acting = live and agent == self.agent_selection
        legal = min(len(self.candidates), self.max_actions) if acting else 0
        mask = self._ramp[self.max_actions - legal : 2 * self.max_actions - legal].copy()
        out = {**cached[1], "action_mask": mask}
        if self.candidate_encoder is not None:
            out["candidates"] = self.candidate_encoder.encode(self.candidates if acting else [])
        return out

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return text_view(self._live().state, self.encoder.ruleset)

    def close(self) -> None:
        self.game = None


def factory(rules: str, name: str) -> tuple[Callable[..., Any], Callable[..., AareEnv]]:
    """`env` and `raw_env` constructors for one ruleset, as PettingZoo's own environments offer them:
    `raw_env` is the bare environment, `env` wraps it in PettingZoo's order and bounds checks."""

    def raw_env(**kwargs: Any) -> AareEnv:
        return AareEnv(rules, name, **kwargs)

    def env(**kwargs: Any) -> Any:
        return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))

    return env, raw_env
