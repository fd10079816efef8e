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
from typing import Any

import numpy as np
import numpy.typing as npt

from aare.actions import ACTION_TYPES
from aare.board.notation import parse_units
from aare.economy.tech import technologies
from aare.engine import decider
from aare.errors import AareError
from aare.player_view import Viewer, visible_state
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

RECORD_BUCKETS = 64
HIDES = "hidden_fields"  # the hook naming the fields some powers may not see (`aare.player_view`)
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
        # the last state's parts and their features (private arrays, updated in place; callers get copies)
        self._spaces: tuple[Mapping[str, str], Mapping[str, tuple[Stack, ...]], Array] | None = None
        self._globals: tuple[tuple[Any, ...], Array] | None = None
        self._records: tuple[Any, Any, Array] | None = None
        self._parts: dict[str, _Part] = {}  # each record of the last state's (and its pending decision), hashed
        self._hiding: tuple[Mapping[str, Any], str, bool] | None = None  # options, ruleset id: does a module hide?

    def encode(self, state: GameState, viewer: Viewer) -> dict[str, Array]:
        """The features of `state` as `viewer` sees it, each a fresh array. Only what changed since the last
        state encoded is worked out again: states share every part an action leaves alone (identity says so)."""
        known = self._hiding
        if known is None or known[0] is not state.options or known[1] != state.ruleset:
            modules = load_ruleset(state.ruleset, state.options).modules
            known = self._hiding = (state.options, state.ruleset, any(HIDES in m.hooks for m in modules))
        seen = visible_state(state, viewer) if known[2] else state  # no module hides anything: all is seen
        return {"spaces": self.space_features(seen), "globals": self.global_features(seen),
                "records": self.record_features(seen)}

    def record_features(self, state: GameState) -> Array:
        """`record_features(state)`, each of the ruleset's records (and each of a record's entries) hashed again
        only when it changed (an action changes one record at most, usually none)."""
        last = self._records
        if last is not None and last[0] is state.extra and last[1] is state.pending:
            return last[2].copy()
        kept, parts = self._parts, {}
        sums = [0.0] * RECORD_BUCKETS
        for key, value in state.extra.items():
            path = f"extra/{key}"
            part = parts[path] = _part(path, value, kept.get(path))
            for bucket, amount in part[1].items():
                sums[bucket] += amount
        part = parts["pending"] = _part("pending", state.pending, kept.get("pending"))
        for bucket, amount in part[1].items():
            sums[bucket] += amount
        self._parts = parts
        out = np.array(sums, dtype=np.float32)
        self._records = (state.extra, state.pending, out)
        return out.copy()

    def space_features(self, state: GameState) -> Array:
        """Per space: owner, units per power and type, IPC value, complex damage, victory city, capital, land.
        Worked out again only for the spaces whose units changed since the last state encoded (most actions
        change a few), and the owners only when they changed."""
        last = self._spaces
        units = state.units
        if last is None:
            out = self.static.copy()
            self._owner_features(out, state.owners)
            changed: Iterable[str] = units
        else:
            owners, before, out = last
            if state.owners is not owners and state.owners != owners:
                self._owner_features(out, state.owners)
            changed = () if units is before else _changed(before, units)
        self._unit_features(out, changed, units)
        self._spaces = (state.owners, units, out)
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

    def _unit_features(self, out: Array, spaces: Iterable[str], units: Mapping[str, tuple[Stack, ...]]) -> None:
        """Write the units and the complex damage of `spaces` into their rows of `out` (row by row: a call of numpy
        with fancy indexes costs more than a few plain ones)."""
        n_units, at = len(self.units), self.units_at
        end = at + len(self.powers) * n_units
        index, powers, unit_ids, factory = self._space, self._power, self._unit, self._factory
        for space in spaces:
            found = index.get(space)
            if found is None:
                continue
            row = out[found]
            row[at:end] = 0.0
            damage = 0
            for stack in units.get(space, ()):
                who, unit = powers.get(stack.owner), unit_ids.get(stack.unit)
                if who is not None and unit is not None:
                    row[at + who * n_units + unit] += stack.count
                if stack.unit in factory:
                    damage += stack.damage * stack.count
            row[-4] = damage

    def global_features(self, state: GameState) -> Array:
        """Round, phase, power to move, power deciding, banks, technologies, the two flags; worked out again only
        when one of them changed since the last state encoded."""
        # what they are read from (a tuple compares each part by identity first: states share the parts kept)
        key = (state.round, state.phase, state.nation, state.pending, state.winner, state.banks, state.techs)
        last = self._globals
        if last is not None and last[0] == key:
            return last[1].copy()
        out = [0.0] * self.global_width
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
        features = np.array(out, dtype=np.float32)
        self._globals = (key, features)
        return features.copy()

    def _one_hot(self, out: list[float], at: int, power: str, value: float = 1.0) -> None:
        who = self._power.get(power)
        if who is not None:
            out[at + who] = value


def _changed(before: Mapping[str, tuple[Stack, ...]], now: Mapping[str, tuple[Stack, ...]]) -> list[str]:
    """The spaces whose stacks differ between two states' `units` (an untouched space keeps its very tuple)."""
    get = before.get
    changed = [space for space, stacks in now.items() if get(space) is not stacks]
    kept = len(now) - sum(1 for space in changed if space not in before)  # spaces of `now` that `before` has
    if kept != len(before):  # a space emptied
        changed.extend(before.keys() - now.keys())
    return changed


Hashed = dict[int, float]
"""Feature-hashed numbers: bucket -> the sum added into it."""
_Part = tuple[Any, Hashed, dict[Any, tuple[Any, Hashed]]]
"""A record (or the pending decision) as last hashed: its value, its sums, and each of its entries with theirs."""


def _part(path: str, value: Any, last: _Part | None) -> _Part:
    """`value` (at `path`) hashed, from `last` when it is the same value, else from those of its entries that
    are (a record changed by an action keeps the entries the action left alone)."""
    if last is not None and last[0] is value:
        return last
    if not isinstance(value, Mapping):
        sums: Hashed = {}
        _hash_into(sums, path, value)
        return value, sums, {}
    before = last[2] if last is not None else {}
    entries: dict[Any, tuple[Any, Hashed]] = {}
    total: Hashed = {}
    for key, inner in value.items():
        entry = before.get(key)
        if entry is None or entry[0] is not inner:
            entry = (inner, {})
            _hash_into(entry[1], f"{path}/{key}", inner)
        entries[key] = entry
        for bucket, amount in entry[1].items():
            total[bucket] = total.get(bucket, 0.0) + amount
    return value, total, entries


def record_features(state: GameState, buckets: int = RECORD_BUCKETS) -> Array:
    """The ruleset's records and the pending decision, feature-hashed into `buckets` numbers."""
    sums: Hashed = {}
    _hash_into(sums, "extra", state.extra, buckets)
    _hash_into(sums, "pending", state.pending, buckets)
    out = np.zeros(buckets, dtype=np.float32)
    for bucket, amount in sums.items():
        out[bucket] = amount
    return out


_BUCKETS: dict[str, int] = {}  # text -> its bucket of RECORD_BUCKETS


def _bucket(text: str, size: int) -> int:
    if size != RECORD_BUCKETS:
        return zlib.crc32(text.encode()) % size
    found = _BUCKETS.get(text)
    if found is None:
        if len(_BUCKETS) >= 65536:
            _BUCKETS.clear()
        found = _BUCKETS[text] = zlib.crc32(text.encode()) % size
    return found


def _hash_into(sums: Hashed, path: str, value: Any, size: int = RECORD_BUCKETS) -> None:
    """Add `value` (at `path`) into `sums`: each number into the bucket of its path, each text 1 into the bucket
    of its path and text, through mappings (the key extends the path) and lists."""
    kind = type(value)
    if kind is str:
        bucket = _bucket(f"{path}={value}", size)
        sums[bucket] = sums.get(bucket, 0.0) + 1.0
    elif kind is int or kind is float or kind is bool:
        bucket = _bucket(path, size)
        sums[bucket] = sums.get(bucket, 0.0) + float(value)
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            _hash_into(sums, f"{path}/{key}", inner, size)
    elif isinstance(value, list | tuple):
        for inner in value:
            _hash_into(sums, path, inner, size)
    elif isinstance(value, bool | int | float):
        bucket = _bucket(path, size)
        sums[bucket] = sums.get(bucket, 0.0) + float(value)
    elif isinstance(value, str):
        bucket = _bucket(f"{path}={value}", size)
        sums[bucket] = sums.get(bucket, 0.0) + 1.0


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
