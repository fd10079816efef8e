"""GameState: the whole game as one immutable, JSON-serialisable value with a canonical hash."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from aare.errors import MalformedInput
from aare.identity_cache import ByIdentity, Recent
from aare.state.unit_stacks import Stack, normalise

try:
    import orjson
except ImportError:  # pragma: no cover (the server extra brings it; without it the standard library writes all)
    orjson = None  # type: ignore[assignment]

CHECK_PARTS = os.environ.get("AARE_CHECK_STATE_PARTS") == "1"
"""Tests: each remembered part is kept with a copy taken when it was written and compared with it whenever it is
found again; a part changed in place since raises (a state is a value: a change makes a new mapping);
and every canonical text orjson writes is compared with the standard library's."""
FORMAT = "aare-state"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class DiceState:
    """Where the game's dice come from: `seed` for reproducible dice (analysis and tests: whoever holds the seed
    can foresee every roll), None for dice from the operating system's randomness, each roll recorded in the log;
    `counter` counts the draws so far."""

    seed: int | None
    counter: int = 0

    @property
    def predictable(self) -> bool:
        return self.seed is not None

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "counter": self.counter} if self.seed is not None else {"counter": self.counter}


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one moment. Never mutated: events produce new states.

    `owners` maps each controlled land territory to its controller; `units` maps a space to its stacks
    (spaces without units are absent); `extra` holds ruleset-specific state keyed by rule module id
    (e.g. a treaty's status); `pending` is a decision some power must answer before play goes on;
    `version` counts the actions applied so far.

    In a team turn `members` maps each acting power to its own place in the turn: `{"phase", "status"
    ("acting", "waiting" for a joint phase, "done"), "pending"}`; `nation` and `phase` then name the team's
    first member and its earliest phase, except while one member's action is judged (the engine focuses the
    state on that member). Outside team turns `members` is empty and absent from the JSON form.
    """

    ruleset: str
    options: Mapping[str, Any]
    round: int
    nation: str
    phase: str
    owners: Mapping[str, str]
    units: Mapping[str, tuple[Stack, ...]]
    banks: Mapping[str, int]
    dice: DiceState
    techs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    pending: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    winner: str | None = None
    version: int = 0
    members: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def teammates_in_play(self) -> frozenset[str]:
        """In a team turn, the other members that have not ended their turn: their units' marks of this turn
        are their own to keep (empty outside team turns)."""
        if not self.members:
            return _NOBODY
        return frozenset(p for p, m in self.members.items() if p != self.nation and m.get("status") != "done")

    def marks_kept(self, owner: str) -> bool:
        """Whether `owner`'s units keep their marks of this turn when the power to move starts or ends its turn: in
        a team turn with other members still playing, theirs and the enemy's (the members' battles still read
        them, e.g. a submarine that submerged in a teammate's battle) wait for the team turn's end."""
        playing = self.teammates_in_play()
        return owner in playing or (bool(playing) and owner not in self.members)

    def stacks(self, space: str) -> tuple[Stack, ...]:
        return self.units.get(space, ())

    def owner(self, space: str) -> str | None:
        return self.owners.get(space)

    def evolve(self, **changes: Any) -> GameState:
        """`dataclasses.replace(self, **changes)`, faster: the fields are copied as they are, without running
        the constructor again (events make a new state many times per action). An unknown field is a
        TypeError, as with `replace`."""
        if not changes.keys() <= _FIELDS:
            raise TypeError(f"GameState has no field {sorted(changes.keys() - _FIELDS)[0]!r}")
        new = object.__new__(type(self))
        values = dict(self.__dict__)
        values.update(changes)
        object.__setattr__(new, "__dict__", values)
        return new

    def with_stacks(self, space: str, stacks: tuple[Stack, ...]) -> GameState:
        units = dict(self.units)
        clean = normalise(stacks)
        if clean:
            units[space] = clean
        else:
            units.pop(space, None)
        _derived(units, self.units, space)
        return self.evolve(units=units)

    def to_json(self) -> dict[str, Any]:
        out = self._json()
        if self.members:
            out["members"] = {p: dict(m) for p, m in self.members.items()}
        return out

    def _json(self, units: bool = True) -> dict[str, Any]:
        """The JSON form but for `members`; without `units` when `units` is False."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "ruleset": self.ruleset,
            "options": dict(sorted(self.options.items())),
            "round": self.round,
            "nation": self.nation,
            "phase": self.phase,
            "owners": dict(sorted(self.owners.items())),
            **({"units": {s: [st.to_json() for st in self.units[s]] for s in sorted(self.units)}} if units else {}),
            "banks": dict(sorted(self.banks.items())),
            "dice": self.dice.to_json(),
            "techs": {p: list(t) for p, t in sorted(self.techs.items())},
            "pending": self.pending,
            "extra": dict(sorted(self.extra.items())),
            "winner": self.winner,
            "version": self.version,
        }

    @staticmethod
    def from_json(raw: Any) -> GameState:
        """Read a state written by `to_json`; anything malformed raises MalformedInput naming the key."""
        if not isinstance(raw, Mapping):
            raise MalformedInput("a game state must be a JSON object")
        if raw.get("format") != FORMAT:
            raise MalformedInput(f"not an aare game state (format is {raw.get('format')!r})")
        if raw.get("format_version") != FORMAT_VERSION:
            raise MalformedInput(f"unsupported state format version {raw.get('format_version')!r}")
        expected = set(GameState(**_EMPTY).to_json())
        missing, unknown = expected - set(raw), set(raw) - expected - {"members"}
        if missing or unknown:
            raise MalformedInput(f"game state: missing {sorted(missing)}, unknown {sorted(unknown)}")
        _check(raw, "ruleset", str)
        _check(raw, "round", int)
        _check(raw, "nation", str)
        _check(raw, "phase", str)
        _check(raw, "version", int)
        for key in ("options", "owners", "units", "banks", "techs", "extra", "dice"):
            _check(raw, key, dict)
        try:
            units = {
                space: normalise(Stack.from_json(s) for s in stacks) for space, stacks in raw["units"].items()
            }
        except (TypeError, AttributeError):
            raise MalformedInput("game state: units must map spaces to lists of stacks") from None
        for key in ("owners", "banks"):
            for k, v in raw[key].items():
                if not isinstance(v, str if key == "owners" else int) or isinstance(v, bool):
                    raise MalformedInput(f"game state: {key}.{k} has the wrong type")
        dice = raw["dice"]
        seed = dice.get("seed")
        if not (isinstance(seed, int) or seed is None) or not isinstance(dice.get("counter"), int) \
                or set(dice) - {"seed", "counter"}:
            raise MalformedInput("game state: dice holds an integer counter and, for seeded dice, an integer seed")
        if raw["pending"] is not None and not isinstance(raw["pending"], dict):
            raise MalformedInput("game state: pending must be an object or null")
        if raw["winner"] is not None and not isinstance(raw["winner"], str):
            raise MalformedInput("game state: winner must be text or null")
        members = raw.get("members", {})
        if not isinstance(members, dict) or not all(isinstance(m, dict) for m in members.values()):
            raise MalformedInput("game state: members must map powers to objects")
        return GameState(
            ruleset=raw["ruleset"],
            options=dict(raw["options"]),
            round=raw["round"],
            nation=raw["nation"],
            phase=raw["phase"],
            owners=dict(raw["owners"]),
            units={s: st for s, st in units.items() if st},
            banks=dict(raw["banks"]),
            dice=DiceState(seed, dice["counter"]),
            techs={p: tuple(t) for p, t in raw["techs"].items()},
            pending=raw["pending"],
            extra=dict(raw["extra"]),
            winner=raw["winner"],
            version=raw["version"],
            members={p: dict(m) for p, m in members.items()},
        )

    def canonical_json(self) -> str:
        """`canonical_dumps(self.to_json())`, built faster: each space's stacks, and each larger mapping (the
        owners, a ruleset's `extra` record, ...), are written once per value (states share every part an event
        did not touch), then joined in key order (the fields' order is fixed: written out here)."""
        members = f',"members":{_joined_json(self.members)}' if self.members else ""
        return (f'{{"banks":{_part_json(self.banks)},"dice":{_dice_json(self.dice)},'
                f'"extra":{_joined_json(self.extra)},"format":{_FORMAT_JSON},"format_version":{FORMAT_VERSION}'
                f'{members},"nation":{_key_json(self.nation)},"options":{_part_json(self.options)},'
                f'"owners":{_part_json(self.owners)},"pending":{_part_json(self.pending)},'
                f'"phase":{_key_json(self.phase)},"round":{_scalar_json(self.round)},'
                f'"ruleset":{_key_json(self.ruleset)},"techs":{_part_json(self.techs)},'
                f'"units":{_units_json(self.units)},"version":{_scalar_json(self.version)},'
                f'"winner":{_scalar_json(self.winner)}}}')

    def hash(self) -> str:
        """sha256 of the canonical JSON: equal states have equal hashes, on every machine."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()


_FIELDS = frozenset(f.name for f in fields(GameState))
_NOBODY: frozenset[str] = frozenset()

_EMPTY: dict[str, Any] = {
    "ruleset": "",
    "options": {},
    "round": 0,
    "nation": "",
    "phase": "",
    "owners": {},
    "units": {},
    "banks": {},
    "dice": DiceState(0),
}


def canonical_dumps(value: Any) -> str:
    """JSON with sorted keys, no spaces and characters as they are: the text the state hash is taken of, as the
    standard library writes it (`json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`).
    orjson writes the same text for str keys, strings, integers, booleans, null, lists and dicts, faster; what
    it refuses (another kind of key, an integer beyond 64 bits, ...) and any text where it may have written a
    float (a digit followed by "." or "e+"/"e-": the two write some floats differently) are written by the
    standard library. (Non-finite floats, which are not JSON and which no state holds, orjson writes as null.)
    With AARE_CHECK_STATE_PARTS=1 (the tests) every text orjson wrote is compared with the standard library's."""
    if value is None:
        return "null"
    if orjson is None:
        return _standard_dumps(value)
    try:
        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return _standard_dumps(value)
    if _may_hold_float(text):
        return _standard_dumps(value)
    if CHECK_PARTS and text != _standard_dumps(value):
        raise AssertionError(f"orjson wrote another canonical text than the standard library: {text[:300]}")
    return text


def _standard_dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _may_hold_float(text: str) -> bool:
    """Whether orjson's `text` may hold a float: a digit followed by "." or by "e+" or "e-" (the mark may also
    be in a string: then the text is only written again)."""
    for mark in (".", "e+", "e-"):
        at = text.find(mark)
        while at > 0:
            if "0" <= text[at - 1] <= "9":
                return True
            at = text.find(mark, at + 1)
    return False


_FORMAT_JSON = canonical_dumps(FORMAT)


def _scalar_json(value: Any) -> str:
    """Canonical JSON of a plain int, a string or None, written without the encoder."""
    if type(value) is int:
        return str(value)
    if value is None:
        return "null"
    if type(value) is str:
        return _key_json(value)
    return canonical_dumps(value)


def _dice_json(dice: DiceState) -> str:
    """The dice source's canonical JSON, written without the encoder for a plain counter and seed."""
    if type(dice.counter) is int:
        if dice.seed is None:
            return f'{{"counter":{dice.counter}}}'
        if type(dice.seed) in (int, str):
            return f'{{"counter":{dice.counter},"seed":{_scalar_json(dice.seed)}}}'
    return canonical_dumps(dice.to_json())


_KEYS_JSON: dict[str, str] = {}
_STACKS_JSON_SIZE = 500_000
_STACKS_JSON: ByIdentity[str] = ByIdentity(_STACKS_JSON_SIZE)


def _key_json(key: str) -> str:
    """A key in canonical JSON (remembered: keys are spaces and field names)."""
    text = _KEYS_JSON.get(key)
    if text is None:
        text = canonical_dumps(key)
        if len(_KEYS_JSON) < 100_000:
            _KEYS_JSON[key] = text
    return text


def _stacks_json(stacks: tuple[Stack, ...]) -> str:
    """The canonical JSON of one space's stacks, remembered per stacks value (by identity: the entry keeps the
    value alive, so its id is not reused while it is remembered)."""
    if type(stacks) is not tuple:
        return canonical_dumps([st.to_json() for st in stacks])
    known = _STACKS_JSON.get(stacks)
    if known is not None:
        return known
    return _STACKS_JSON.put(stacks, canonical_dumps([st.to_json() for st in stacks]))


_SPACES_JSON: dict[int, tuple[tuple[Stack, ...], str, str]] = {}


def _space_json(space: str, stacks: tuple[Stack, ...]) -> str:
    """`"space":[stacks]` in canonical JSON, remembered per stacks value and space (as `_stacks_json`)."""
    known = _SPACES_JSON.get(id(stacks))
    if known is not None and known[0] is stacks and known[1] == space:
        return known[2]
    text = f"{_key_json(space)}:{_stacks_json(stacks)}"
    if type(stacks) is tuple:
        if len(_SPACES_JSON) >= _STACKS_JSON_SIZE:
            _SPACES_JSON.clear()
        _SPACES_JSON[id(stacks)] = (stacks, space, text)
    return text


class _UnitsText:
    """The canonical JSON of one units mapping, with what it was made of: a copy of the mapping then, its spaces
    in key order and each space's text."""

    __slots__ = ("copy", "order", "text", "texts", "units")

    def __init__(self, units: Mapping[str, tuple[Stack, ...]], order: tuple[str, ...], texts: dict[str, str]) -> None:
        self.units, self.copy, self.order, self.texts = units, dict(units), order, texts
        self.text = "{" + ",".join(map(texts.__getitem__, order)) + "}"


_UNITS_JSON: Recent[int, _UnitsText] = Recent(2_048)
"""The text of the units mappings hashed last (one per game a server serves in turn, and a few more)."""
_UNITS_PARENT: dict[int, tuple[int, str, int]] = {}
"""id(units) -> (id(the units it was made from), the space changed, id of the first mapping of its line):
`with_stacks`' lineage, by id only (the ids may be reused: a text found through it is used only for a mapping
equal to it, see `_units_json`)."""
_LINEAGE_STEPS = 64


def _derived(units: Mapping[str, tuple[Stack, ...]], parent: Mapping[str, tuple[Stack, ...]], space: str) -> None:
    """Note that `units` is `parent` with `space` changed (so its text can be made from the parent's)."""
    if len(_UNITS_PARENT) >= 50_000:
        _UNITS_PARENT.clear()
    up = _UNITS_PARENT.get(id(parent))
    _UNITS_PARENT[id(units)] = (id(parent), space, up[2] if up is not None else id(parent))


def units_ancestors(units: Mapping[str, tuple[Stack, ...]], steps: int = _LINEAGE_STEPS) -> Iterator[int]:
    """The ids of the units mappings `units` was made from by `with_stacks`, nearest first (`steps` steps back at
    most; by id only: a cache keyed by them must check what it finds)."""
    node = id(units)
    for _ in range(steps):
        step = _UNITS_PARENT.get(node)
        if step is None:
            return
        node = step[0]
        yield node


def units_line(units: Mapping[str, tuple[Stack, ...]]) -> int:
    """An id naming the line `units` belongs to: that of the first mapping of the chain `with_stacks` made it by
    (a game's units as it began or was loaded, as far as remembered). By id only: what a cache finds by it must
    be checked (it tells one game's mappings from another's, to compare a new mapping with one of its own game)."""
    step = _UNITS_PARENT.get(id(units))
    return step[2] if step is not None else id(units)


def _units_json(units: Mapping[str, tuple[Stack, ...]]) -> str:
    """The canonical JSON of the units on the board, remembered per mapping (by identity, and compared with a
    shallow copy taken then: states share the mapping until a unit changes). A new mapping made by
    `with_stacks` from one whose text is remembered (a few steps back) is written from that text's spaces, the
    changed spaces written afresh, when it equals that copy with those spaces changed; any other is written
    space by space (each space's text remembered per stacks value, `_space_json`)."""
    known = _UNITS_JSON.get(id(units))
    if known is not None and known.units is units and known.copy == units:
        return known.text
    found = _from_lineage(units)
    if found is None:
        order = tuple(sorted(units))
        spaces = _SPACES_JSON.get
        texts = {}
        for space in order:
            stacks = units[space]
            hit = spaces(id(stacks))
            texts[space] = (hit[2] if hit is not None and hit[0] is stacks and hit[1] == space
                            else _space_json(space, stacks))
        found = _UnitsText(units, order, texts)
    _UNITS_JSON.put(id(units), found)
    return found.text


def _from_lineage(units: Mapping[str, tuple[Stack, ...]]) -> _UnitsText | None:
    """The text of `units` made from a remembered ancestor's (through `_UNITS_PARENT`), or None."""
    changed: set[str] = set()
    node = id(units)
    for _ in range(_LINEAGE_STEPS):
        step = _UNITS_PARENT.get(node)
        if step is None:
            return None
        node, space, _ = step
        changed.add(space)
        base = _UNITS_JSON.get(node)
        if base is not None:
            break
    else:
        return None
    expected = base.copy.copy()
    texts = base.texts.copy()
    for space in changed:
        stacks = units.get(space)
        if stacks is None:
            expected.pop(space, None)
            texts.pop(space, None)
        else:
            expected[space] = stacks
            texts[space] = _space_json(space, stacks)
    if expected != units:  # not what the lineage says (changed in place, or an id reused): written afresh
        return None
    order = base.order if len(texts) == len(base.texts) and texts.keys() == base.texts.keys() else tuple(sorted(texts))
    return _UnitsText(units, order, texts)


_PARTS_JSON: dict[int, tuple[Any, Any, str]] = {}
_PARTS_JSON_SIZE = 50_000


def _part_json(value: Any) -> str:
    """The canonical JSON of a part of the state (a mapping), remembered per value by identity: states share
    every part an event did not touch, and a part is never changed in place (AARE_CHECK_STATE_PARTS=1 checks)."""
    if not value or (type(value) is not dict and not isinstance(value, Mapping)):
        return canonical_dumps(value)
    known = _PARTS_JSON.get(id(value))
    if known is not None and known[0] is value:
        if CHECK_PARTS and known[1] != value:
            raise AssertionError(f"a part of a game state was changed in place after it was written: {known[2][:300]}")
        return known[2]
    text = canonical_dumps(value if type(value) is dict else dict(value))
    if len(_PARTS_JSON) >= _PARTS_JSON_SIZE:
        _PARTS_JSON.clear()
    copy = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)) if CHECK_PARTS else None
    _PARTS_JSON[id(value)] = (value, copy, text)
    return text


def _joined_json(value: Mapping[str, Any]) -> str:
    """The canonical JSON of a mapping of parts (`extra`: one record per rule module), each part through
    `_part_json`."""
    return "{" + ",".join([f"{_key_json(k)}:{_part_json(value[k])}" for k in sorted(value)]) + "}"


def _check(raw: Mapping[str, Any], key: str, kind: type) -> None:
    value = raw[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MalformedInput(f"game state: {key} must be {kind.__name__}, got {value!r}")
