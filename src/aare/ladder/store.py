"""The ladder: players in rank order, the belt holder and every result, kept in a small JSON file.

A result moves the two players to the ranks the formulas give them and everyone else keeps their order in the
places left over. A player's first result enters him one below the last ranked player (winner first when both are
new). The champion is tracked apart from rank 1 and changes only in a title match.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from aare.errors import AareError, DataFileError, MalformedInput
from aare.json_files import read_json, write_json_atomic
from aare.ladder.ranking import rank_change, unranked_rank

FORMAT: Final = "aare-ladder"
FORMAT_VERSION: Final = 1
LADDER_FILE_ENV = "AARE_LADDER_FILE"
DEFAULT_LADDER_FILE = "ladder.json"
MAX_NAME_LENGTH = 64


class LadderError(AareError):
    """A result the ladder refuses, e.g. a title match that does not include the champion."""


def check_name(name: str) -> str:
    """A player name without surrounding blanks; empty, over-long or unprintable names are refused."""
    clean = name.strip() if isinstance(name, str) else ""
    if not clean or len(clean) > MAX_NAME_LENGTH or not clean.isprintable():
        raise MalformedInput(f"bad player name {name!r}: 1-{MAX_NAME_LENGTH} printable characters")
    return clean


@dataclass(frozen=True)
class Result:
    """One game: who beat whom, and both players' table ranks before and after."""

    winner: str
    loser: str
    winner_before: int
    loser_before: int
    winner_after: int
    loser_after: int
    title_match: bool = False


@dataclass(frozen=True)
class Row:
    """One line of the ladder table."""

    rank: int
    name: str
    wins: int
    losses: int
    champion: bool


class Ladder:
    """Players in rank order (index 0 is rank 1), the champion, and the results that produced them."""

    def __init__(self, players: Iterable[str] = (), champion: str | None = None, results: Iterable[Result] = ()):
        self._players = [check_name(p) for p in players]
        if len(set(self._players)) != len(self._players):
            raise MalformedInput("a player is listed twice")
        if champion is not None and champion not in self._players:
            raise MalformedInput(f"champion {champion!r} is not a ranked player")
        self._champion = champion
        self._results = list(results)
        for i, result in enumerate(self._results):
            unknown = {result.winner, result.loser} - set(self._players)
            if unknown or result.winner == result.loser:
                raise MalformedInput(f"results[{i}]: winner and loser must be two different ranked players")

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self._players)

    @property
    def champion(self) -> str | None:
        return self._champion

    @property
    def results(self) -> tuple[Result, ...]:
        return tuple(self._results)

    def rank_of(self, name: str) -> int | None:
        """The player's rank, or None when he is unranked."""
        try:
            return self._players.index(name) + 1
        except ValueError:
            return None

    def add_result(self, winner: str, loser: str, *, title_match: bool = False) -> Result:
        """Record that ``winner`` beat ``loser`` and move both to their new ranks."""
        winner, loser = check_name(winner), check_name(loser)
        if winner == loser:
            raise MalformedInput(f"{winner!r} cannot play himself")
        if title_match and self._champion is not None and self._champion not in (winner, loser):
            raise LadderError(f"{self._champion!r} holds the belt: a title match must include him")
        order = list(self._players)
        for name in (winner, loser):
            if name not in order:
                order.append(name)  # enters at unranked_rank(len(order)) of the players before him
        rw, rl = order.index(winner) + 1, order.index(loser) + 1
        change = rank_change(rw, rl)
        qw, ql = change.winner_after, change.loser_after
        if ql == qw:
            ql += 1  # the winner takes a contested place; the loser goes just below him
        self._players = _place(order, {winner: qw, loser: ql})
        if title_match:
            self._champion = winner
        result = Result(winner, loser, rw, rl, qw, ql, title_match)
        self._results.append(result)
        return result

    def table(self) -> list[Row]:
        """The ranked players, best first, with their wins and losses."""
        wins = {name: 0 for name in self._players}
        losses = dict(wins)
        for result in self._results:
            wins[result.winner] += 1
            losses[result.loser] += 1
        return [
            Row(rank, name, wins[name], losses[name], name == self._champion)
            for rank, name in enumerate(self._players, start=1)
        ]

    def entry_rank(self) -> int:
        """The rank a newcomer has in the formulas."""
        return unranked_rank(len(self._players))

    def to_json(self) -> dict[str, Any]:
        return _LadderFile(
            format=FORMAT,
            version=FORMAT_VERSION,
            champion=self._champion,
            players=list(self._players),
            results=[_ResultModel(**vars(r)) for r in self._results],
        ).model_dump()

    @classmethod
    def from_json(cls, raw: Any) -> Ladder:
        """Validate a decoded ladder file; anything unexpected raises MalformedInput."""
        try:
            data = _LadderFile.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "ladder"
            raise MalformedInput(f"{where}: {first['msg']}") from None
        for name in data.players:
            if check_name(name) != name:
                raise MalformedInput(f"bad player name {name!r}")
        results = [Result(**r.model_dump()) for r in data.results]
        return cls(data.players, data.champion, results)


def _place(order: list[str], targets: dict[str, int]) -> list[str]:
    """Put each named player at his target rank; the others keep their order in the remaining places."""
    placed: list[str | None] = [None] * len(order)
    for name, rank in targets.items():
        placed[rank - 1] = name
    rest = iter(name for name in order if name not in targets)
    return [slot if slot is not None else next(rest) for slot in placed]


class _ResultModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    winner: StrictStr
    loser: StrictStr
    winner_before: StrictInt = Field(ge=1)
    loser_before: StrictInt = Field(ge=1)
    winner_after: StrictInt = Field(ge=1)
    loser_after: StrictInt = Field(ge=1)
    title_match: StrictBool = False


class _LadderFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["aare-ladder"]
    version: Literal[1]
    champion: StrictStr | None = None
    players: list[StrictStr] = Field(default_factory=list)
    results: list[_ResultModel] = Field(default_factory=list)


def default_ladder_path() -> Path:
    """``$AARE_LADDER_FILE``, else ``ladder.json`` in the current directory."""
    return Path(os.environ.get(LADDER_FILE_ENV) or DEFAULT_LADDER_FILE)


def load_ladder(path: Path, *, missing_ok: bool = False) -> Ladder:
    """Read a ladder file; a missing file is an empty ladder only with ``missing_ok``."""
    if missing_ok and not path.exists():
        return Ladder()
    raw = read_json(path)
    try:
        return Ladder.from_json(raw)
    except MalformedInput as exc:
        raise DataFileError(str(path), "<ladder>", str(exc)) from None


def save_ladder(ladder: Ladder, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then os.replace over the target."""
    write_json_atomic(path, ladder.to_json(), trailing_newline=True)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the ladder file (through `.NAME.lock` beside it) for a read-modify-write, so
    that two results recorded at once are both kept."""
    lock_path = path.resolve().with_name(f".{path.name}.lock")
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def add_result(winner: str, loser: str, path: Path | None = None, *, title_match: bool = False) -> Result:
    """Load the ladder file (created when missing), record one result and save it, under the file's lock."""
    path = path or default_ladder_path()
    with locked(path):
        ladder = load_ladder(path, missing_ok=True)
        result = ladder.add_result(winner, loser, title_match=title_match)
        save_ladder(ladder, path)
    return result


def table(path: Path | None = None) -> list[Row]:
    """The table of the ladder file at ``path``."""
    return load_ladder(path or default_ladder_path()).table()
