"""The board: land territories, sea zones, adjacency, canals and the starting set-up, loaded from
a ruleset family's `data/boards/*.toml`."""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, NoReturn

from aare.board.notation import parse_units
from aare.board.powers import MIN_CONTRAST, SIDES, WHITE, Power, contrast, is_colour
from aare.board.units import UnitCatalogue
from aare.errors import DataFileError, MalformedInput, UnknownName


@dataclass(frozen=True)
class Space:
    """A land territory or a sea zone. `owner` is the original owner (`Board.owners` holds who controls it at the
    start of the loaded set-up); a sea zone has a `number`, no owner."""

    name: str
    kind: Literal["land", "sea"]
    neighbors: tuple[str, ...]
    ipc: int = 0
    owner: str | None = None
    victory_city: str | None = None
    neutral: bool = False
    number: int | None = None
    aliases: tuple[str, ...] = ()

    @property
    def is_land(self) -> bool:
        return self.kind == "land"

    @property
    def is_sea(self) -> bool:
        return self.kind == "sea"


@dataclass(frozen=True)
class Canal:
    """A canal joining two adjacent sea zones; a side passes only while it controls all of `requires`. With
    `into` (one of the two seas) it bars only ships entering that sea zone, not ships leaving it (a strait). With
    `joins` the side that may pass counts the two sea zones as one for movement: passing costs no movement."""

    name: str
    seas: tuple[str, str]
    requires: tuple[str, ...]
    into: str | None = None
    joins: bool = False

    def bars(self, a: str, b: str) -> bool:
        """Whether a ship moving from sea zone `a` to `b` needs the canal's territories."""
        return self.into is None or b == self.into


@dataclass(frozen=True)
class SetupUnits:
    """The units one power starts with in one space: `{unit id: count}` in catalogue order (read-only)."""

    space: str
    power: str
    units: Mapping[str, int]


class Board:
    """A loaded board: spaces in file order (land, then sea), powers in turn order, canals and set-up.

    `no_transport` holds the adjacent land-sea pairs that transports may not load or unload across (amphibious
    assaults included), and `added_connections` the pairs a ruleset's board changes joined (`apply_changes`;
    the map draws them as crossings, the drawn borders being the base board's).

    A board file may hold several set-ups (scenarios); the board is loaded with one of them: its name is
    `scenario` (None for a file with a single set-up), and it gives the turn order of `powers`, the starting
    `owners` (territory -> power), `bank` and `setup`.

    Lookups accept canonical names and aliases in any case and return canonical names. Treat it as read-only.
    """

    def __init__(
        self,
        *,
        id: str,
        name: str,
        path: str,
        spaces: dict[str, Space],
        powers: tuple[Power, ...],
        canals: tuple[Canal, ...],
        bank: dict[str, int],
        setup: tuple[SetupUnits, ...],
        owners: dict[str, str] | None = None,
        scenario: str | None = None,
        no_transport: frozenset[frozenset[str]] = frozenset(),
        added_connections: frozenset[frozenset[str]] = frozenset(),
    ) -> None:
        self.id, self.name, self.path = id, name, path
        self.no_transport = no_transport
        self.added_connections = added_connections
        self.spaces, self.powers, self.canals = spaces, powers, canals
        self.bank, self.setup, self.scenario = bank, setup, scenario
        self.owners = owners if owners is not None else {s.name: s.owner for s in spaces.values() if s.owner}
        self._space_index = {_norm(a): s.name for s in spaces.values() for a in (s.name, *s.aliases)}
        self._power_index = {_norm(a): p.name for p in powers for a in (p.name, *p.aliases)}
        self._powers = {p.name: p for p in powers}
        self._adjacency = {s.name: frozenset(s.neighbors) for s in spaces.values()}

    def __repr__(self) -> str:
        land, seas = len(self.land()), len(self.seas())
        return f"Board({self.id!r}: {land} land, {seas} sea, {len(self.powers)} powers)"

    def resolve(self, name: str) -> str:
        """Canonical name of a space given its name or an alias; UnknownName suggests close matches."""
        return _lookup(self._space_index, name, "space")

    def space(self, name: str) -> Space:
        return self.spaces[self.resolve(name)]

    def resolve_power(self, name: str) -> str:
        """Canonical name of a power given its name or one of the aliases its board file lists."""
        return _lookup(self._power_index, name, "power")

    def power(self, name: str) -> Power:
        return self._powers[self.resolve_power(name)]

    def adjacent(self, a: str, b: str) -> bool:
        return self.resolve(b) in self._adjacency[self.resolve(a)]

    def capital_of(self, power: str) -> str | None:
        """The power's capital territory; None for a power without one."""
        return self.power(power).capital

    def holds_capital(self, power: str, owners: Mapping[str, str]) -> bool:
        """Whether `power` controls its capital under `owners`; a power without a capital has none to lose."""
        capital = self.capital_of(power)
        return capital is None or owners.get(capital) == self.resolve_power(power)

    def capitals(self) -> dict[str, str]:
        """Capital territory -> power."""
        return {p.capital: p.name for p in self.powers if p.capital is not None}

    def victory_cities(self) -> dict[str, str]:
        """Territory -> victory city name."""
        return {s.name: s.victory_city for s in self.spaces.values() if s.victory_city}

    def side_of(self, power: str) -> str:
        return self.power(power).side

    def player_of(self, power: str) -> str:
        """The power whose player plays `power`: itself, or the power named by `played_by`."""
        found = self.power(power)
        return found.played_by or found.name

    def land(self) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces.values() if s.is_land)

    def seas(self) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces.values() if s.is_sea)

    def connections(self) -> tuple[tuple[str, str], ...]:
        """Every adjacent pair once, in file order."""
        order = {name: i for i, name in enumerate(self.spaces)}
        return tuple((s.name, n) for s in self.spaces.values() for n in s.neighbors if order[s.name] < order[n])

    def canal_between(self, a: str, b: str) -> Canal | None:
        """The canal joining two sea zones, if any."""
        pair = {self.resolve(a), self.resolve(b)}
        return next((c for c in self.canals if set(c.seas) == pair), None)


def load_board(path: Path, units: UnitCatalogue, setup: str | None = None) -> Board:
    """Load and validate a board file; a bad file raises DataFileError naming the key at fault.

    A file with several set-ups (`[setup.<scenario>]` tables) needs `setup`, the scenario to load; a file with one
    plain `[setup]` table takes none.
    """
    return _Loader(Path(path), units, setup).load()


def _norm(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").replace("-", " ").replace(".", "").split())


def _sea_aliases(number: int) -> tuple[str, ...]:
    return (f"SZ {number}", f"{number} Sea Zone", f"Sea Zone {number}")


def _lookup(index: Mapping[str, str], name: str, what: str) -> str:
    if not isinstance(name, str):
        raise UnknownName(f"a {what} name must be text, got {type(name).__name__}")
    key = _norm(name)
    if key in index:
        return index[key]
    close = difflib.get_close_matches(key, list(index), n=6, cutoff=0.6)
    guesses = list(dict.fromkeys(index[c] for c in close))[:3]
    hint = f"; did you mean {', '.join(guesses)}?" if guesses else ""
    raise UnknownName(f"unknown {what} {name!r}{hint}")


# Field specs: field -> (kind, required). Kinds: str (non-empty), int (>= 0), bool, strs (list of str).
_Spec = Mapping[str, tuple[str, bool]]
_EXPECTED = {
    "str": "expected a non-empty string",
    "int": "expected a non-negative integer",
    "bool": "expected true or false",
    "strs": "expected a list of strings",
}
_TOP = ("board", "power", "land", "sea", "canal", "setup")
_META: _Spec = {"id": ("str", True), "name": ("str", True)}
_POWER: _Spec = {
    "name": ("str", True),
    "side": ("str", True),
    "capital": ("str", False),
    "colour": ("str", True),
    "ink": ("str", True),
    "text": ("str", False),
    "aliases": ("strs", False),
    "played_by": ("str", False),
}
_LAND: _Spec = {
    "name": ("str", True),
    "ipc": ("int", True),
    "owner": ("str", False),
    "victory_city": ("str", False),
    "neutral": ("bool", False),
    "aliases": ("strs", False),
    "neighbors": ("strs", True),
}
_SEA: _Spec = {
    "number": ("int", True),
    "name": ("str", True),
    "aliases": ("strs", False),
    "neighbors": ("strs", True),
}
_CANAL: _Spec = {"name": ("str", True), "seas": ("strs", True), "requires": ("strs", True), "into": ("str", False),
                  "joins": ("bool", False)}
_SETUP_UNITS: _Spec = {"space": ("str", True), "power": ("str", True), "units": ("str", True)}
_SETUP_FIELDS = ("bank", "owners", "units", "order")


def _is(kind: str, value: object) -> bool:
    if kind == "str":
        return isinstance(value, str) and bool(value.strip())
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind == "bool":
        return isinstance(value, bool)
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


class _Loader:
    """One pass over one board file; every failure names the file and the key."""

    def __init__(self, path: Path, units: UnitCatalogue, scenario: str | None = None) -> None:
        self.path, self.units, self.scenario = path, units, scenario
        self.space_index: dict[str, str] = {}
        self.power_index: dict[str, str] = {}

    def fail(self, key: str, reason: str) -> NoReturn:
        raise DataFileError(str(self.path), key, reason)

    def load(self) -> Board:
        try:
            raw = tomllib.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise DataFileError(str(self.path), "<file>", str(exc)) from None
        unknown = sorted(set(raw) - set(_TOP))
        if unknown:
            self.fail("<file>", f"unknown top-level key(s) {unknown}")
        meta = raw.get("board")
        if not isinstance(meta, dict):
            self.fail("board", "expected a [board] table with id and name")
        self.check(meta, "board", _META)
        power_entries = self.power_entries(raw)
        spaces = self.spaces(raw)
        powers = self.powers(power_entries, spaces)
        canals = self.canals(raw, spaces)
        table, key = self.chosen_setup(raw)
        powers = self.order(table, key, powers)
        owners = self.owners(table, key, spaces)
        bank, setup = self.bank(table, key, powers), self.placements(table, key, spaces, owners, powers)
        return Board(
            id=meta["id"],
            name=meta["name"],
            path=str(self.path),
            spaces=spaces,
            powers=powers,
            canals=canals,
            bank=bank,
            setup=setup,
            owners=owners,
            scenario=self.scenario,
        )

    # --- helpers -------------------------------------------------------------------------------------------

    def tables(self, raw: Mapping[str, Any], name: str, required: bool = True) -> list[dict[str, Any]]:
        value = raw.get(name, None if required else [])
        ok = isinstance(value, list) and all(isinstance(v, dict) for v in value)
        if not ok or (required and not value):
            self.fail(name, f"expected a {'non-empty ' if required else ''}list of [[{name}]] tables")
        return list(value)

    def check(self, entry: Mapping[str, Any], key: str, spec: _Spec) -> None:
        unknown = sorted(set(entry) - set(spec))
        if unknown:
            self.fail(key, f"unknown field(s) {unknown}")
        for field, (kind, required) in spec.items():
            if field not in entry:
                if required:
                    self.fail(f"{key}.{field}", "required field is missing")
            elif not _is(kind, entry[field]):
                self.fail(f"{key}.{field}", f"{_EXPECTED[kind]}, got {entry[field]!r}")

    def register(self, index: dict[str, str], name: str, aliases: Iterable[str], key: str, what: str) -> None:
        """Add a name and its aliases to a lookup; names and aliases are unique across the file."""
        own: set[str] = set()
        for label in (name, *aliases):
            norm = _norm(label)
            field = "name" if label == name else "aliases"
            if not norm:
                self.fail(f"{key}.{field}", f"empty {what} name or alias {label!r}")
            if norm in own:
                continue
            if norm in index:
                self.fail(f"{key}.{field}", f"duplicate {what} name {label!r}: already used by {index[norm]}")
            index[norm] = name
            own.add(norm)

    def resolve(self, index: Mapping[str, str], ref: str, key: str, what: str) -> str:
        try:
            return _lookup(index, ref, what)
        except UnknownName as exc:
            self.fail(key, str(exc))

    @staticmethod
    def key(kind: str, entry: Mapping[str, Any], i: int) -> str:
        name = entry.get("name")
        return f"{kind}.{name}" if isinstance(name, str) and name.strip() else f"{kind}[{i}]"

    # --- sections ------------------------------------------------------------------------------------------

    def power_entries(self, raw: Mapping[str, Any], required: bool = True) -> list[dict[str, Any]]:
        entries = self.tables(raw, "power", required)
        for i, entry in enumerate(entries):
            key = self.key("power", entry, i)
            self.check(entry, key, _POWER)
            if entry["side"] not in SIDES:
                self.fail(f"{key}.side", f"must be one of {list(SIDES)}, got {entry['side']!r}")
            self.colours(entry, key)
            self.register(self.power_index, entry["name"], entry.get("aliases", ()), key, "power")
        return entries

    def colours(self, entry: Mapping[str, Any], key: str) -> None:
        """`colour` (map fill), `ink` and `text` (written on the ink) are `#rrggbb`; text on ink is readable."""
        for field in ("colour", "ink", "text"):
            value = entry.get(field, WHITE)
            if not is_colour(value):
                self.fail(f"{key}.{field}", f"expected a colour like '#a33b2e', got {value!r}")
        ink, text = entry["ink"], entry.get("text", WHITE)
        ratio = contrast(ink, text)
        if ratio < MIN_CONTRAST:
            self.fail(
                f"{key}.ink",
                f"text {text} on ink {ink} has contrast {ratio:.2f}:1, below {MIN_CONTRAST}:1 "
                "(darken the ink or set a `text` colour)",
            )

    def spaces(self, raw: Mapping[str, Any]) -> dict[str, Space]:
        drafts: list[tuple[Literal["land", "sea"], str, dict[str, Any], tuple[str, ...]]] = []
        numbers: dict[int, str] = {}
        sections: tuple[tuple[Literal["land", "sea"], _Spec], ...] = (("land", _LAND), ("sea", _SEA))
        for kind, spec in sections:
            for i, entry in enumerate(self.tables(raw, kind)):
                key = self.key(kind, entry, i)
                self.check(entry, key, spec)
                aliases = list(entry.get("aliases", ()))
                if kind == "sea":
                    number = entry["number"]
                    if number in numbers:
                        self.fail(f"{key}.number", f"number {number} is also used by {numbers[number]}")
                    numbers[number] = entry["name"]
                    aliases += [a for a in _sea_aliases(number) if _norm(a) != _norm(entry["name"])]
                unique = tuple(dict.fromkeys(aliases))
                self.register(self.space_index, entry["name"], unique, key, "space")
                drafts.append((kind, key, entry, unique))

        spaces: dict[str, Space] = {}
        for kind, key, entry, labels in drafts:
            name, neighbors = entry["name"], self.neighbors(entry, key)
            if kind == "sea":
                spaces[name] = Space(name, "sea", neighbors, number=entry["number"], aliases=labels)
                continue
            owner = None
            if "owner" in entry:
                owner = self.resolve(self.power_index, entry["owner"], f"{key}.owner", "power")
            neutral = entry.get("neutral", False)
            if neutral and owner is not None:
                self.fail(f"{key}.owner", "an impassable neutral territory has no owner")
            if neutral and entry["ipc"]:
                self.fail(f"{key}.ipc", "an impassable neutral territory produces nothing")
            spaces[name] = Space(
                name,
                "land",
                neighbors,
                ipc=entry["ipc"],
                owner=owner,
                victory_city=entry.get("victory_city"),
                neutral=neutral,
                aliases=labels,
            )
        for space in spaces.values():
            for other in space.neighbors:
                if space.name not in spaces[other].neighbors:
                    self.fail(
                        f"{spaces[other].kind}.{other}.neighbors",
                        f"adjacency is not symmetric: {space.name} lists {other}, but {other} does not list "
                        f"{space.name}",
                    )
        return spaces

    def neighbors(self, entry: Mapping[str, Any], key: str) -> tuple[str, ...]:
        key = f"{key}.neighbors"
        if not entry["neighbors"]:
            self.fail(key, "a space needs at least one neighbor")
        found: list[str] = []
        for ref in entry["neighbors"]:
            other = self.resolve(self.space_index, ref, key, "space")
            if other == entry["name"]:
                self.fail(key, f"{other} cannot be its own neighbor")
            if other in found:
                self.fail(key, f"{other} is listed twice")
            found.append(other)
        return tuple(found)

    def powers(self, entries: list[dict[str, Any]], spaces: Mapping[str, Space]) -> tuple[Power, ...]:
        powers: list[Power] = []
        capitals: dict[str, str] = {}
        for order, entry in enumerate(entries):
            name, key = entry["name"], f"power.{entry['name']}.capital"
            capital = None
            if "capital" in entry:
                capital = self.resolve(self.space_index, entry["capital"], key, "space")
                if not spaces[capital].is_land:
                    self.fail(key, f"capital {capital} is not a land territory")
                if spaces[capital].owner != name:
                    owner = spaces[capital].owner or "nobody"
                    self.fail(key, f"capital {capital} starts owned by {owner}, not {name}")
                if capital in capitals:
                    self.fail(key, f"{capital} is already the capital of {capitals[capital]}")
                capitals[capital] = name
            aliases = tuple(entry.get("aliases", ()))
            powers.append(
                Power(
                    name,
                    entry["side"],
                    capital,
                    entry["colour"],
                    order,
                    aliases,
                    ink=entry["ink"],
                    text=entry.get("text", WHITE),
                )
            )
        for entry in entries:
            if "played_by" in entry:
                key = f"power.{entry['name']}.played_by"
                player = self.resolve(self.power_index, entry["played_by"], key, "power")
                if player == entry["name"] or any(e["name"] == player and "played_by" in e for e in entries):
                    self.fail(key, f"{player} cannot play {entry['name']}: it must be a power with a player of its own")
                index = next(i for i, p in enumerate(powers) if p.name == entry["name"])
                powers[index] = replace(powers[index], played_by=player)
        return tuple(powers)

    def canals(self, raw: Mapping[str, Any], spaces: Mapping[str, Space]) -> tuple[Canal, ...]:
        canals: list[Canal] = []
        for i, entry in enumerate(self.tables(raw, "canal", required=False)):
            key = self.key("canal", entry, i)
            self.check(entry, key, _CANAL)
            if any(c.name == entry["name"] for c in canals):
                self.fail(f"{key}.name", "duplicate canal name")
            seas = tuple(self.resolve(self.space_index, s, f"{key}.seas", "space") for s in entry["seas"])
            if len(seas) != 2 or seas[0] == seas[1]:
                self.fail(f"{key}.seas", "expected two different sea zones")
            for sea in seas:
                if not spaces[sea].is_sea:
                    self.fail(f"{key}.seas", f"{sea} is not a sea zone")
            if seas[1] not in spaces[seas[0]].neighbors:
                self.fail(f"{key}.seas", f"{seas[0]} and {seas[1]} are not adjacent")
            where = f"{key}.requires"
            requires = tuple(self.resolve(self.space_index, t, where, "space") for t in entry["requires"])
            if not requires:
                self.fail(f"{key}.requires", "a canal needs at least one territory to control")
            for territory in requires:
                if not spaces[territory].is_land:
                    self.fail(f"{key}.requires", f"{territory} is not a land territory")
            into = None
            if "into" in entry:
                into = self.resolve(self.space_index, entry["into"], f"{key}.into", "space")
                if into not in seas:
                    self.fail(f"{key}.into", f"{into} is not one of the canal's sea zones")
            canals.append(Canal(entry["name"], (seas[0], seas[1]), requires, into, entry.get("joins", False)))
        return tuple(canals)

    def pairs(self, raw: Mapping[str, Any], key: str) -> list[tuple[str, str, str]]:
        """The `key` list of [space, space] pairs of a changes file, resolved to canonical names, each with its
        key (`remove[0]`)."""
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(_is("strs", v) and len(v) == 2 for v in value):
            self.fail(key, f"expected a list of [space, space] pairs, got {value!r}")
        found: list[tuple[str, str, str]] = []
        for i, (a, b) in enumerate(value):
            where = f"{key}[{i}]"
            first = self.resolve(self.space_index, a, where, "space")
            second = self.resolve(self.space_index, b, where, "space")
            if first == second:
                self.fail(where, f"{first} cannot be its own neighbor")
            found.append((where, first, second))
        return found

    def changed_lands(self, raw: Mapping[str, Any], spaces: dict[str, Space], neighbors: dict[str, list[str]],
                      owners: dict[str, str]) -> None:
        """A changes file's `[[land]]` tables applied to `spaces`, `neighbors` and `owners` (all updated): new
        territories, and the board's territories with the fields given replaced."""
        entries = self.tables(raw, "land", required=False)
        drafts: list[tuple[str, dict[str, Any]]] = []
        given: dict[str, set[str]] = {}
        for i, entry in enumerate(entries):
            key = self.key("land", entry, i)
            if isinstance(entry.get("name"), str):
                given[entry["name"]] = set(entry)
            name = entry.get("name")
            known = self.space_index.get(_norm(name)) if isinstance(name, str) else None
            if known is not None and known == name:
                self.check(entry, key, _LAND_CHANGE)
                old = spaces[name]
                if not old.is_land:
                    self.fail(key, f"{name} is a sea zone")
                for label in (name, *old.aliases):
                    self.space_index.pop(_norm(label), None)
                cleared = set(entry.get("clear", ()))
                if cleared - set(_CLEARABLE):
                    self.fail(f"{key}.clear", f"only {list(_CLEARABLE)} may be cleared")
                merged: dict[str, Any] = {"name": name, "ipc": old.ipc, "neighbors": list(neighbors[name]),
                                          "neutral": old.neutral}
                merged |= {k: v for k, v in (("owner", old.owner), ("victory_city", old.victory_city),
                                             ("aliases", list(old.aliases))) if v and k not in cleared}
                merged |= {k: v for k, v in entry.items() if k != "clear"}
                entry = merged
            else:
                self.check(entry, key, _LAND)
            self.register(self.space_index, entry["name"], tuple(entry.get("aliases", ())), key, "space")
            drafts.append((key, entry))
        for key, entry in drafts:
            name = entry["name"]
            if "neighbors" in given[name]:
                self.rewire(drafts, given, key, entry, neighbors)
            owner = None
            if "owner" in entry:
                owner = self.resolve(self.power_index, entry["owner"], f"{key}.owner", "power")
            if "owner" in given[name] or owner is None:
                owners.pop(name, None)
                if owner is not None:
                    owners[name] = owner
            spaces[name] = Space(name, "land", tuple(neighbors[name]), ipc=entry["ipc"], owner=owner,
                                 victory_city=entry.get("victory_city"), neutral=entry.get("neutral", False),
                                 aliases=tuple(entry.get("aliases", ())))

    def rewire(self, drafts: list[tuple[str, dict[str, Any]]], given: Mapping[str, set[str]], key: str,
               entry: Mapping[str, Any], neighbors: dict[str, list[str]]) -> None:
        """The territory of `entry` joined to the neighbours it lists, both ways, and to no others."""
        name = entry["name"]
        listed = self.neighbors(entry, key)
        for other in listed:
            if "neighbors" in given.get(other, ()) and name not in self.listed(drafts, other):
                self.fail(f"{key}.neighbors", f"{other} is changed too and does not list {name}")
        for other in neighbors.get(name, ()):
            if other not in listed:
                neighbors[other].remove(name)
        neighbors[name] = list(listed)
        for other in listed:
            if name not in neighbors[other]:
                neighbors[other].append(name)

    def listed(self, drafts: list[tuple[str, dict[str, Any]]], name: str) -> set[str]:
        """The neighbours the changed territory `name` lists, resolved."""
        entry = next(e for _, e in drafts if e["name"] == name)
        return {self.space_index.get(_norm(ref), ref) for ref in entry["neighbors"]}

    def transfers(self, raw: Mapping[str, Any], setup: tuple[SetupUnits, ...], spaces: Mapping[str, Space],
                  owners: Mapping[str, str], powers: tuple[Power, ...]) -> tuple[SetupUnits, ...]:
        """The set-up after a changes file's `[[transfer]]` tables: units of one power handed to another, all of
        them or those named, moved into another space if `into` is given."""
        held = {(s.space, s.power): dict(s.units) for s in setup}
        side = {p.name: p.side for p in powers}
        for i, entry in enumerate(self.tables(raw, "transfer", required=False)):
            where = f"transfer[{i}]"
            self.check(entry, where, _TRANSFER)
            space = self.resolve(self.space_index, entry["space"], f"{where}.space", "space")
            giver = self.resolve(self.power_index, entry["from"], f"{where}.from", "power")
            taker = self.resolve(self.power_index, entry["to"], f"{where}.to", "power")
            into = self.resolve(self.space_index, entry.get("into", space), f"{where}.into", "space")
            have = held.get((space, giver), {})
            try:
                wanted = parse_units(entry["units"], self.units) if "units" in entry else dict(have)
            except MalformedInput as exc:
                self.fail(f"{where}.units", str(exc))
            if not wanted or any(have.get(u, 0) < n for u, n in wanted.items()):
                self.fail(where, f"{giver} does not start with {entry.get('units', 'units')} in {space}")
            owner = owners.get(into)
            if spaces[into].is_land and (owner is None or side[owner] != side[taker]):
                self.fail(f"{where}.into", f"{taker} cannot start with units in {into}, owned by {owner or 'nobody'}")
            self.check_placement(where, spaces[into], wanted)
            for unit, n in wanted.items():
                have[unit] -= n
                gets = held.setdefault((into, taker), {})
                gets[unit] = gets.get(unit, 0) + n
        order = {u: i for i, u in enumerate(self.units.ids)}
        return tuple(SetupUnits(space, power, dict(sorted(((u, n) for u, n in units.items() if n),
                                                          key=lambda kv: order[kv[0]])))
                     for (space, power), units in held.items() if any(units.values()))

    def chosen_setup(self, raw: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
        """The set-up table to load and its key: the plain `[setup]`, or `[setup.<scenario>]` of a file with
        several set-ups (then `load_board(..., setup=<scenario>)` names it)."""
        setup = raw.get("setup")
        if not isinstance(setup, dict):
            self.fail("setup", "expected a [setup] table with bank and units")
        if "bank" in setup:
            if self.scenario is not None:
                self.fail("setup", f"this board has a single set-up; no set-up {self.scenario!r} to choose")
            return setup, "setup"
        names = list(setup)
        if not names or not all(isinstance(v, dict) for v in setup.values()):
            self.fail("setup", "expected a [setup] table with bank and units, or [setup.<scenario>] tables")
        if self.scenario not in setup:
            self.fail("setup", f"choose one of the set-ups {', '.join(names)} (got {self.scenario!r})")
        return setup[self.scenario], f"setup.{self.scenario}"

    def order(self, table: Mapping[str, Any], key: str, powers: tuple[Power, ...]) -> tuple[Power, ...]:
        """The powers in the set-up's turn order (`order`, every power once), else in file order."""
        unknown = sorted(set(table) - set(_SETUP_FIELDS))
        if unknown:
            self.fail(key, f"unknown field(s) {unknown}")
        if "order" not in table:
            return powers
        where = f"{key}.order"
        if not _is("strs", table["order"]):
            self.fail(where, f"{_EXPECTED['strs']}, got {table['order']!r}")
        names = [self.resolve(self.power_index, ref, where, "power") for ref in table["order"]]
        if sorted(names) != sorted(p.name for p in powers):
            self.fail(where, "expected every power exactly once")
        found = {p.name: p for p in powers}
        return tuple(replace(found[name], order=i) for i, name in enumerate(names))

    def owners(self, table: Mapping[str, Any], key: str, spaces: Mapping[str, Space]) -> dict[str, str]:
        """Who controls each territory at the start: its original owner unless `owners` names another."""
        owners = {s.name: s.owner for s in spaces.values() if s.owner}
        changes = table.get("owners", {})
        if not isinstance(changes, dict):
            self.fail(f"{key}.owners", "expected a table of territory = power")
        for ref, power in changes.items():
            where = f"{key}.owners.{ref}"
            space = spaces[self.resolve(self.space_index, ref, where, "space")]
            if not space.is_land or space.neutral:
                self.fail(where, f"{space.name} cannot be owned")
            if not _is("str", power):
                self.fail(where, f"{_EXPECTED['str']}, got {power!r}")
            owners[space.name] = self.resolve(self.power_index, power, where, "power")
        return {name: owners[name] for name in spaces if name in owners}

    def bank(self, setup: Mapping[str, Any], key: str, powers: tuple[Power, ...]) -> dict[str, int]:
        bank = self.bank_entries(setup, key)
        missing = [p.name for p in powers if p.name not in bank]
        if missing:
            self.fail(f"{key}.bank", f"no starting bank for {', '.join(missing)}")
        return {p.name: bank[p.name] for p in powers}

    def bank_entries(self, setup: Mapping[str, Any], key: str) -> dict[str, int]:
        """The `bank` table of power = IPCs, as given."""
        key = f"{key}.bank" if key else "bank"
        table = setup.get("bank")
        if not isinstance(table, dict):
            self.fail(key, f"expected a [{key}] table of power = IPCs")
        bank: dict[str, int] = {}
        for ref, amount in table.items():
            where = f"{key}.{ref}"
            power = self.resolve(self.power_index, ref, where, "power")
            if not _is("int", amount):
                self.fail(where, f"{_EXPECTED['int']}, got {amount!r}")
            if power in bank:
                self.fail(where, f"{power} is listed twice")
            bank[power] = amount
        return bank

    def placements(
        self,
        setup: Mapping[str, Any],
        key: str,
        spaces: Mapping[str, Space],
        owners: Mapping[str, str],
        powers: tuple[Power, ...],
    ) -> tuple[SetupUnits, ...]:
        placed: list[SetupUnits] = []
        seen: dict[tuple[str, str], int] = {}
        side = {p.name: p.side for p in powers}
        for i, entry in enumerate(self.tables(setup, "units", required=False)):
            prefix = f"{key}.units" if key else "units"
            where = f"{prefix}[{i}]"
            self.check(entry, where, _SETUP_UNITS)
            space = spaces[self.resolve(self.space_index, entry["space"], f"{where}.space", "space")]
            power = self.resolve(self.power_index, entry["power"], f"{where}.power", "power")
            try:
                units = parse_units(entry["units"], self.units)
            except MalformedInput as exc:
                self.fail(f"{where}.units", str(exc))
            if not units:
                self.fail(f"{where}.units", "empty unit list")
            if (space.name, power) in seen:
                earlier = seen[space.name, power]
                self.fail(where, f"{power} units in {space.name} are already listed at {prefix}[{earlier}]")
            seen[space.name, power] = i
            owner = owners.get(space.name)
            if space.is_land and (owner is None or side[owner] != side[power]):
                self.fail(where, f"{power} cannot start with units in {space.name}, owned by {owner or 'nobody'}")
            self.check_placement(where, space, units)
            placed.append(SetupUnits(space.name, power, units))
        self.check_carriers(placed, key, spaces, powers)
        return tuple(placed)

    def check_placement(self, key: str, space: Space, units: Mapping[str, int]) -> None:
        for unit_id in units:
            unit = self.units[unit_id]
            if space.is_land and unit.domain == "sea":
                self.fail(f"{key}.units", f"{unit.display_plural} cannot start on land ({space.name})")
            if space.is_sea and (unit.domain == "building" or (unit.domain == "land" and not unit.transport_size)):
                self.fail(f"{key}.units", f"{unit.display_plural} cannot start at sea ({space.name})")
            if space.is_sea and unit.domain == "air" and not unit.carrier_size:
                reason = f"{unit.display_plural} cannot start at sea ({space.name}): no carrier takes them"
                self.fail(f"{key}.units", reason)

    def check_carriers(
        self, placed: list[SetupUnits], key: str, spaces: Mapping[str, Space], powers: tuple[Power, ...]
    ) -> None:
        """Aircraft at sea need room on carriers of their own side in the same sea zone; land units at sea start
        aboard transports of their own power there and need room on them."""
        side = {p.name: p.side for p in powers}
        self.check_room(placed, key, spaces, side, ("air", "carrier_size", "carrier_capacity", "aircraft", "carriers"))
        own = {p.name: p.name for p in powers}
        cargo = ("land", "transport_size", "transport_capacity", "land units", "transports")
        self.check_room(placed, key, spaces, own, cargo)

    def check_room(
        self,
        placed: list[SetupUnits],
        key: str,
        spaces: Mapping[str, Space],
        team_of: Mapping[str, str],
        kind: tuple[str, str, str, str, str],
    ) -> None:
        """Units of `domain` at sea take `size` of the `capacity` of their team's units in the same sea zone."""
        domain, size, capacity, riders, holders = kind
        room: dict[tuple[str, str], int] = {}
        need: dict[tuple[str, str], int] = {}
        first: dict[tuple[str, str], int] = {}
        for i, group in enumerate(placed):
            if not spaces[group.space].is_sea:
                continue
            at = (group.space, team_of[group.power])
            for unit_id, count in group.units.items():
                unit = self.units[unit_id]
                room[at] = room.get(at, 0) + getattr(unit, capacity) * count
                if unit.domain == domain:
                    need[at] = need.get(at, 0) + getattr(unit, size) * count
                    first.setdefault(at, i)
        for (sea, team), amount in need.items():
            if amount > room.get((sea, team), 0):
                self.fail(
                    f"{key}.units[{first[sea, team]}].units",
                    f"{team} {riders} in {sea} need {holders[:-1]} room {amount}, "
                    f"but {team} {holders} there have room {room.get((sea, team), 0)}",
                )


# --- board changes ---------------------------------------------------------------------------------------------

_CHANGES_TOP = ("board", "power", "land", "remove", "add", "no_transport", "canal", "bank", "transfer", "units")
# a `[[land]]` of a changes file named like one of the board's changes only the fields it gives; `clear` names
# fields it removes (victory_city, aliases, owner)
_LAND_CHANGE: _Spec = {**{k: (kind, False) for k, (kind, _) in _LAND.items()}, "name": ("str", True),
                       "clear": ("strs", False)}
_CLEARABLE = ("victory_city", "aliases", "owner")
_TRANSFER: _Spec = {"space": ("str", True), "from": ("str", True), "to": ("str", True), "into": ("str", False),
                    "units": ("str", False)}


def apply_changes(board: Board, path: Path, units: UnitCatalogue) -> Board:
    """`board` with a ruleset's changes file applied; a bad file raises DataFileError naming the key at fault.

    The file (`data/board_changes/<name>.toml`, named by a ruleset file's `board_changes` or the `board_changes`
    hook) may hold:
    - `[board]` with `id` and `name`: the changed board's own (a map variant has its own map, `<id>-map.json`);
    - `[[power]]` tables as in a board file: powers added after the board's, in turn order;
    - `[[land]]` tables: a new territory as in a board file (its neighbours list it back), or one named like a
      territory of the board, whose given fields replace its own (`neighbors` both ways; `clear` removes
      `victory_city`, `aliases` or `owner`); a changed `owner` also controls it at the start;
    - `remove` and `add` (lists of [space, space] connections taken away or added, both ways), `no_transport`
      ([land, sea] connections transports may not load or unload across, amphibious assaults included; ships,
      aircraft and land units are not affected), `[[canal]]` tables as in a board file (with `into`, a strait
      barring only entry into that sea zone; with `joins`, two zones counted as one; one named like a canal of the
      board replaces it);
    - `[bank]` (power = IPCs): starting banks, needed for each added power;
    - `[[transfer]]` (`space`, `from`, `to`, optional `into` and `units`): set-up units of one power handed to
      another, all of them or the `units` named, moved `into` another space if given;
    - `[[units]]` tables as in a set-up (added to the set-up, in territories the unit's side holds at the start).
    """
    loader = _Loader(Path(path), units, board.scenario)
    try:
        raw = tomllib.loads(loader.path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(str(path), "<file>", str(exc)) from None
    unknown = sorted(set(raw) - set(_CHANGES_TOP))
    if unknown:
        loader.fail("<file>", f"unknown top-level key(s) {unknown}; known: {list(_CHANGES_TOP)}")
    meta = raw.get("board", {"id": board.id, "name": board.name})
    if not isinstance(meta, dict):
        loader.fail("board", "expected a [board] table with id and name")
    loader.check(meta, "board", _META)
    loader.space_index = dict(board._space_index)
    loader.power_index = dict(board._power_index)
    entries = loader.power_entries(raw, required=False)
    neighbors = {name: list(space.neighbors) for name, space in board.spaces.items()}
    spaces = dict(board.spaces)
    owners = dict(board.owners)
    loader.changed_lands(raw, spaces, neighbors, owners)
    added_powers = loader.powers(entries, spaces)
    powers = (*board.powers, *(replace(p, order=len(board.powers) + p.order) for p in added_powers))
    for where, a, b in loader.pairs(raw, "remove"):
        if b not in neighbors[a]:
            loader.fail(where, f"{a} and {b} are not adjacent on the board: nothing to remove")
        neighbors[a].remove(b)
        neighbors[b].remove(a)
    joined: set[frozenset[str]] = set(board.added_connections)
    for where, a, b in loader.pairs(raw, "add"):
        if b in neighbors[a]:
            loader.fail(where, f"{a} and {b} are already adjacent")
        neighbors[a].append(b)
        neighbors[b].append(a)
        joined.add(frozenset((a, b)))
    closed: set[frozenset[str]] = set(board.no_transport)
    for where, a, b in loader.pairs(raw, "no_transport"):
        if {spaces[a].kind, spaces[b].kind} != {"land", "sea"} or b not in neighbors[a]:
            loader.fail(where, f"{a} and {b} are not an adjacent territory and sea zone")
        closed.add(frozenset((a, b)))
    spaces = {name: replace(space, neighbors=tuple(neighbors[name]))
              for name, space in sorted(spaces.items(), key=lambda kv: kv[1].is_sea)}
    canals = list(board.canals)
    for canal in loader.canals(raw, spaces):
        same = next((i for i, c in enumerate(canals) if c.name == canal.name), None)
        if same is not None and set(canals[same].seas) != set(canal.seas):
            loader.fail(f"canal.{canal.name}.seas", f"the board's {canal.name} joins {' and '.join(canals[same].seas)}")
        if same is None and any(set(c.seas) == set(canal.seas) for c in canals):
            loader.fail(f"canal.{canal.name}", "the board already has a canal between those seas")
        if same is None:
            canals.append(canal)
        else:
            canals[same] = canal
    bank = {**board.bank, **(loader.bank_entries(raw, "") if "bank" in raw else {})}
    missing = [p.name for p in powers if p.name not in bank]
    if missing:
        loader.fail("bank", f"no starting bank for {', '.join(missing)}")
    setup = loader.transfers(raw, board.setup, spaces, owners, powers)
    added = loader.placements(raw, "", spaces, owners, powers)
    return Board(
        id=meta["id"],
        name=meta["name"],
        path=board.path,
        spaces=spaces,
        powers=powers,
        canals=tuple(canals),
        bank={p.name: bank[p.name] for p in powers},
        setup=_merged(setup, added, units),
        owners={name: owners[name] for name in spaces if name in owners},
        scenario=board.scenario,
        no_transport=frozenset(closed),
        added_connections=frozenset(joined),
    )


def _merged(
    setup: tuple[SetupUnits, ...], added: tuple[SetupUnits, ...], units: UnitCatalogue
) -> tuple[SetupUnits, ...]:
    """The set-up with `added` units joined to a power's units already in the same space."""
    merged = {(s.space, s.power): dict(s.units) for s in setup}
    for extra in added:
        have = merged.setdefault((extra.space, extra.power), {})
        for unit, count in extra.units.items():
            have[unit] = have.get(unit, 0) + count
    order = {u: i for i, u in enumerate(units.ids)}
    return tuple(
        SetupUnits(space, power, dict(sorted(found.items(), key=lambda kv: order[kv[0]])))
        for (space, power), found in merged.items()
    )
