"""Observation features of a game as one power sees it: fixed-shape numeric arrays, computed only from the
state `aare.player_view.visible_state` gives that power (hidden fields read as the HIDDEN marker).

- `spaces` (S, F): per space, in board order: owner one-hot (powers, then "nobody"), units per power and type,
  IPC value, industrial-complex damage, victory city, capital, land.
- `globals` (G,): round, phase one-hot (the ruleset's phases, then "other"), power to move one-hot, power that
  decides now one-hot, banks, technologies per power, a decision pending, the game over.
- `records` (R,): the ruleset's own records (`extra`) and the pending decision, feature-hashed: each number
  is added into the bucket its path hashes to, each text counts 1 in the bucket of path and text.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from aare.actions import ACTION_TYPES
from aare.board.notation import parse_units
from aare.economy.tech import technologies
from aare.engine import decider
from aare.errors import AareError
from aare.player_view import Viewer, visible_state
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

RECORD_BUCKETS = 64
Array = npt.NDArray[np.float32]


class Encoder:
    """The feature layout of one ruleset (with its options): indexes of powers, spaces, units, phases, techs."""

    def __init__(self, ruleset: Ruleset) -> None:
        board = ruleset.board
        self.ruleset = ruleset
        self.powers = tuple(p.name for p in board.powers)
        self.spaces = tuple(board.spaces)
        self.units = ruleset.units.ids
        self.phases = tuple(p.name for p in ruleset.phase_table())
        self.techs = technologies(ruleset)
        self._power = {p: i for i, p in enumerate(self.powers)}
        self._space = {s: i for i, s in enumerate(self.spaces)}
        self._unit = {u: i for i, u in enumerate(self.units)}
        self._tech = {t: i for i, t in enumerate(self.techs)}
        self._factory = frozenset(u.id for u in ruleset.units if u.has("factory"))
        p, u = len(self.powers), len(self.units)
        self.units_at = p + 1
        self.space_width = p + 1 + p * u + 5
        self.static = np.zeros((len(self.spaces), self.space_width), dtype=np.float32)
        capitals = set(board.capitals())
        for name, i in self._space.items():
            space = board.spaces[name]
            row = self.static[i]
            row[-5] = space.ipc
            row[-3] = 1.0 if space.victory_city else 0.0
            row[-2] = 1.0 if name in capitals else 0.0
            row[-1] = 1.0 if space.is_land else 0.0
        self.phase_at = 1
        self.mover_at = self.phase_at + len(self.phases) + 1
        self.decider_at = self.mover_at + p
        self.banks_at = self.decider_at + p
        self.techs_at = self.banks_at + p
        self.flags_at = self.techs_at + p * len(self.techs)
        self.global_width = self.flags_at + 2
        self._records: tuple[Any, Any, Array] | None = None  # the last state's records, their features
        self._parts: dict[str, tuple[Any, Array]] = {}  # each record of the last state's, its features
        self._spaces: tuple[Any, Any, Array] | None = None  # the last state's owners and units, their features

    def encode(self, state: GameState, viewer: Viewer) -> dict[str, Array]:
        """The features of `state` as `viewer` sees it."""
        seen = visible_state(state, viewer)
        records = self._records
        if records is None or records[0] is not seen.extra or records[1] is not seen.pending:
            records = self._records = (seen.extra, seen.pending, self.record_features(seen))  # most actions keep them
        return {"spaces": self.space_features(seen), "globals": self.global_features(seen),
                "records": records[2].copy()}

    def record_features(self, state: GameState) -> Array:
        """`record_features(state)`, each of the ruleset's records hashed again only when it changed (an action
        changes one record at most, usually none)."""
        out = np.zeros(RECORD_BUCKETS, dtype=np.float32)
        kept, parts = self._parts, {}
        for key, value in state.extra.items():
            found = kept.get(key)
            if found is None or found[0] is not value:
                found = (value, np.zeros(RECORD_BUCKETS, dtype=np.float32))
                _hash_into(found[1], f"extra/{key}", value)
            parts[key] = found
            out += found[1]
        self._parts = parts
        _hash_into(out, "pending", state.pending)
        return out

    def space_features(self, state: GameState) -> Array:
        """Per space: owner, units per power and type, IPC value, complex damage, victory city, capital, land.
        Worked out again only for the spaces whose units changed since the last state encoded (most actions
        change a few), and the owners only when they changed."""
        last = self._spaces
        if last is None:
            out = self.static.copy()
            self._owner_features(out, state.owners)
            changed: Iterable[str] = state.units
        else:
            owners, units, before = last
            out = before.copy()
            if state.owners is not owners and state.owners != owners:
                self._owner_features(out, state.owners)
            now = state.units
            changed = () if now is units else [s for s in units.keys() | now.keys() if units.get(s) is not now.get(s)]
        for space in changed:
            row = self._space.get(space)
            if row is not None:
                self._unit_features(out[row], state.units.get(space, ()))
        self._spaces = (state.owners, state.units, out)
        return out.copy()

    def _owner_features(self, out: Array, owners: Mapping[str, str]) -> None:
        nobody = len(self.powers)
        out[:, : nobody + 1] = 0.0
        out[:, nobody] = 1.0
        for space, owner in owners.items():
            row, who = self._space.get(space), self._power.get(owner)
            if row is not None and who is not None:
                out[row, nobody] = 0.0
                out[row, who] = 1.0

    def _unit_features(self, row: Array, stacks: Iterable[Stack]) -> None:
        n_units = len(self.units)
        row[self.units_at : self.units_at + len(self.powers) * n_units] = 0.0
        damage = 0
        for stack in stacks:
            who, unit = self._power.get(stack.owner), self._unit.get(stack.unit)
            if who is not None and unit is not None:
                row[self.units_at + who * n_units + unit] += stack.count
            if stack.unit in self._factory:
                damage += stack.damage * stack.count
        row[-4] = damage

    def global_features(self, state: GameState) -> Array:
        out = np.zeros(self.global_width, dtype=np.float32)
        out[0] = state.round
        phase = self.phases.index(state.phase) if state.phase in self.phases else len(self.phases)
        out[self.phase_at + phase] = 1.0
        self._one_hot(out, self.mover_at, state.nation)
        self._one_hot(out, self.decider_at, decider(state.pending, state.nation))
        for power, bank in state.banks.items():
            self._one_hot(out, self.banks_at, power, float(bank))
        for power, techs in state.techs.items():
            who = self._power.get(power)
            for tech in techs:
                index = self._tech.get(tech)
                if who is not None and index is not None:
                    out[self.techs_at + who * len(self.techs) + index] = 1.0
        out[self.flags_at] = 1.0 if state.pending is not None else 0.0
        out[self.flags_at + 1] = 1.0 if state.winner is not None else 0.0
        return out

    def _one_hot(self, out: Array, at: int, power: str, value: float = 1.0) -> None:
        who = self._power.get(power)
        if who is not None:
            out[at + who] = value


def record_features(state: GameState, buckets: int = RECORD_BUCKETS) -> Array:
    """The ruleset's records and the pending decision, feature-hashed into `buckets` numbers."""
    out = np.zeros(buckets, dtype=np.float32)
    _hash_into(out, "extra", state.extra)
    _hash_into(out, "pending", state.pending)
    return out


@lru_cache(maxsize=65536)
def _bucket(text: str, size: int) -> int:
    return zlib.crc32(text.encode()) % size


def _hash_into(out: Array, path: str, value: Any) -> None:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            _hash_into(out, f"{path}/{key}", inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            _hash_into(out, path, inner)
    elif isinstance(value, bool | int | float):
        out[_bucket(path, len(out))] += float(value)
    elif isinstance(value, str):
        out[_bucket(f"{path}={value}", len(out))] += 1.0


ACTION_KINDS = tuple(str(t.model_fields["type"].default) for t in ACTION_TYPES)


class CandidateEncoder:
    """Per-candidate features (K, C): action type one-hot, the space it starts from and the space it ends at
    (board index + 1, 0 for none), units per type, and an amount (a bid, a research die count, ...)."""

    def __init__(self, encoder: Encoder, rows: int) -> None:
        self.encoder, self.rows = encoder, rows
        self._kind = {k: i for i, k in enumerate(ACTION_KINDS)}
        self.units_at = len(ACTION_KINDS) + 2
        self.width = self.units_at + len(encoder.units) + 1

    def encode(self, candidates: Sequence[dict[str, Any]]) -> Array:
        out = np.zeros((self.rows, self.width), dtype=np.float32)
        spaces, units = self.encoder._space, self.encoder._unit
        for row, action in zip(out, candidates, strict=False):
            kind = self._kind.get(str(action.get("type")))
            if kind is not None:
                row[kind] = 1.0
            path = action.get("path") or [action.get(k) for k in ("launcher", "space", "at", "target", "territory")
                                          if action.get(k)]
            if path:
                row[len(ACTION_KINDS)] = spaces.get(str(path[0]), -1) + 1
                row[len(ACTION_KINDS) + 1] = spaces.get(str(path[-1]), -1) + 1
            text = action.get("units")
            if isinstance(text, str) and text:
                try:
                    counted = parse_units(text, self.encoder.ruleset.units)
                except AareError:
                    counted = {}
                for unit, count in counted.items():
                    if unit in units:
                        row[self.units_at + units[unit]] = count
            amount = action.get("amount")
            if isinstance(amount, int | float):
                row[-1] = float(amount)
        return out
