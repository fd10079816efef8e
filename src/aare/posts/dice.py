"""Fair dice off-line: the dice of each stretch of play between two posts come from two seed shares, one
committed by the player who rolls them two posts before, one given by the other player in the post before.

Post `n` of a game carries a record (the game file's `posts` section keeps them all):

- `upto`, `head`: how many log entries the game had when it was posted, and the hash chain's link there;
- `reveal` (n >= 2): the poster's secret committed in post n-2, revealed now;
- `share` (n >= 1): a fresh random share for the dice of the next stint, played by the other player;
- `commit`: ``sha256`` of a fresh secret the poster keeps (beside the game file) for its next stint.

The dice of stint `n` (the entries post `n` adds) come from ``seed = sha256(reveal_n ‖ share_{n-1})`` through
the server's commit–reveal dice (`aare.fair_dice.die`, with the stint as the turn and the game's initial
state hash as its id). The roller committed to its half before it saw the other's share and the other chose
its share without knowing the secret, so neither can pick the dice; and the secret is fixed, so reloading rolls
the same dice again. Stints 0 and 1 (until the first two posts have exchanged commitments) roll no dice.
What this does not stop is written in docs/play-by-post.md.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aare.dice import DiceSource
from aare.errors import AareError, MalformedInput
from aare.events import DiceRolled
from aare.fair_dice import CommittedDice, DiceReport, commitment, die, new_seed
from aare.game_log import GameLog, link
from aare.json_files import write_json_atomic

SCHEME = "post-shares-hmac-sha256-v1"
COMMITTED, SEEDED, TABLE = "committed", "seeded", "table"
"""How a posted game's dice are proved: the posts' commitments, the game's seed, or the online table's
commitments (its export, `aare verify`), which a post from the table does not carry."""
SECRETS_SUFFIX = ".secret"
SHARE = "share:"
"""Marks the shares a player gave, among its secrets (to check that the other player's dice used one)."""
_HEX64 = re.compile(r"[0-9a-f]{64}")


class NoFairDice(AareError):
    """A die is needed where the posted game's dice cannot be made by this player."""


@dataclass
class _Refuse:
    """A dice source that refuses to roll, saying why."""

    reason: str

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        raise NoFairDice(self.reason)


def secrets_path(game: Path) -> Path:
    """Where a player keeps the secrets behind their commitments: beside the game file, never posted."""
    return game.with_name(game.name + SECRETS_SUFFIX)


def load_secrets(path: Path) -> dict[str, str]:
    """Commitment -> secret (hex) from a secrets file; empty when there is none."""
    if not path.exists():
        return {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MalformedInput(f"{path}: cannot read the dice secrets: {exc}") from None
    secrets = raw.get("secrets") if isinstance(raw, Mapping) else None
    if not isinstance(secrets, Mapping):
        raise MalformedInput(f"{path}: not an aare secrets file")
    return {str(k): str(v) for k, v in secrets.items()}


def save_secrets(path: Path, secrets: Mapping[str, str]) -> None:
    write_json_atomic(path, {"format": "aare-post-secrets", "secrets": dict(secrets)})


def heads(log: GameLog) -> list[str]:
    """The hash chain's link after each number of entries, from none (the initial state's hash) to all."""
    out = [log.initial.hash()]
    for entry in log.entries:
        out.append(link(out[-1], entry.to_json()))
    return out


def new_section(log: GameLog) -> dict[str, Any]:
    """The `posts` section a game gets with its first post: committed dice, unless its dice are seeded."""
    if log.state.dice.predictable:
        return {"dice": SEEDED, "records": []}
    return {"dice": COMMITTED, "scheme": SCHEME, "game_id": log.initial.hash(), "records": []}


def next_record(log: GameLog, section: Mapping[str, Any], secrets: dict[str, str]) -> dict[str, Any]:
    """The record of the next post; a new secret is added to `secrets` (the caller keeps them)."""
    records: Sequence[Mapping[str, Any]] = section["records"]
    n = len(records)
    if records and heads(log)[records[-1]["upto"]] != records[-1]["head"]:
        raise MalformedInput(f"entries already posted in post {n - 1} were changed or taken back since: a posted "
                             "game only goes on")
    record: dict[str, Any] = {"upto": len(log.entries), "head": heads(log)[-1]}
    if section["dice"] != COMMITTED:
        return record
    if n >= 1 and records[n - 1]["commit"] in secrets:
        raise NoFairDice(f"this player wrote post {n - 1}: posts alternate between the two players, so that "
                         "neither holds both halves of a seed (import the other player's post first)")
    if n >= 2:
        committed = records[n - 2]["commit"]
        if committed not in secrets:
            raise NoFairDice(f"post {n} must reveal the secret committed in post {n - 2}, and this player does not "
                             "hold it: posts alternate between the two players (import the other player's post "
                             "first)")
        record["reveal"] = secrets[committed]
    if n >= 1:
        record["share"] = new_seed().hex()
        secrets[SHARE + record["share"]] = "given"
    secret = new_seed()
    record["commit"] = commitment(secret)
    secrets[record["commit"]] = secret.hex()
    return record


def stint_seed(secret_hex: str, share_hex: str) -> bytes:
    return hashlib.sha256(bytes.fromhex(secret_hex) + bytes.fromhex(share_hex)).digest()


def dice_count(log: GameLog, start: int, end: int | None = None) -> int:
    return sum(len(e.values) for entry in log.entries[start:end] for e in entry.events if isinstance(e, DiceRolled))


def posted_dice(log: GameLog, secrets: Mapping[str, str]) -> DiceSource | None:
    """The dice this player rolls now in a posted game (None: the game's own dice, when it has no committed
    dice); a source that refuses, saying why, when this player cannot make them."""
    section = log.sections.get("posts")
    if not isinstance(section, Mapping) or section.get("dice") != COMMITTED:
        return None
    records = section["records"]
    n = len(records)
    if n < 2:
        return _Refuse(f"no fair dice yet: the first two posts exchange the dice commitments (this is stint {n}); "
                       "post the game without rolling, and play on once the other player has posted")
    secret = secrets.get(records[n - 2]["commit"])
    if secret is None:
        return _Refuse(f"the dice of stint {n} belong to the player who wrote post {n - 2}: this player does not "
                       "hold its secret (wait for the other player's post, and import it)")
    seed = stint_seed(secret, records[n - 1]["share"])
    return CommittedDice(seed, section["game_id"], n, dice_count(log, records[n - 1]["upto"]))


class StintDice:
    """The dice a rebuilt posted game must show, entry by entry: each posted stint's from its revealed seed;
    before the first post, the recorded ones (`None`: nothing to recompute them from)."""

    def __init__(self, section: Mapping[str, Any]) -> None:
        self.section = section
        self.records: Sequence[Mapping[str, Any]] = section.get("records") or []
        self.committed = section.get("dice") == COMMITTED
        self.current: tuple[int, DiceSource | None] = (-1, None)

    def source(self, entry: int) -> DiceSource | None:
        """The dice of entry number `entry` (0-based); entries must be asked for in order."""
        if not self.committed:
            return None
        n = next((k for k, r in enumerate(self.records) if entry < _upto(r)), len(self.records))
        if n == 0 or n == len(self.records):
            return None
        if self.current[0] != n:
            self.current = (n, self._make(n))
        return self.current[1]

    def _make(self, n: int) -> DiceSource:
        if n == 1:
            return _Refuse("a die in stint 1, before the first two posts exchanged the dice commitments")
        reveal, share = self.records[n].get("reveal"), self.records[n - 1].get("share")
        if not (isinstance(reveal, str) and isinstance(share, str) and _HEX64.fullmatch(reveal)
                and _HEX64.fullmatch(share)):
            return _Refuse(f"post {n} does not reveal the seed of its dice")
        return CommittedDice(stint_seed(reveal, share), str(self.section.get("game_id")), n)


def _upto(record: Mapping[str, Any]) -> int:
    upto = record.get("upto")
    return upto if isinstance(upto, int) else 0


def dice_for_file(game: Path, log: GameLog) -> DiceSource | None:
    """`posted_dice` with the secrets kept beside the game file `game`."""
    return posted_dice(log, load_secrets(secrets_path(game)))


def foreign_dice(records: Sequence[Mapping[str, Any]], known: int, secrets: Mapping[str, str]) -> str:
    """Why the posts after the first `known` records are not fair to the player holding `secrets` ("" if they
    are): each stint the other player rolled must use a share this player gave, else that player wrote the two
    posts before it and could have chosen its dice."""
    for n in range(max(known, 2), len(records)):
        if records[n - 2].get("commit") in secrets:
            continue  # this player's own stint
        if SHARE + str(records[n - 1].get("share")) not in secrets:
            return (f"the dice of post {n} used the share of post {n - 1}, which this player did not give: the "
                    f"other player wrote posts {n - 2} and {n - 1} both, and could have chosen those dice")
    return ""


@dataclass
class ChainReport(DiceReport):
    """What checking a posted game's records found."""

    posts: int = 0
    dice: str = ""

    @property
    def seeded(self) -> bool:
        return self.dice == SEEDED

    def to_json(self) -> dict[str, Any]:
        return {**self.dice_json(), "posts": self.posts, "dice": self.dice, "seeded": self.seeded}


def check_chain(log: GameLog, section: Any) -> ChainReport:
    """Check the `posts` records of `log`: the heads, each revealed secret against its commitment, and every die
    of every posted stint against its seed."""
    report = ChainReport()
    if not isinstance(section, Mapping) or not isinstance(section.get("records"), list) \
            or section.get("dice") not in (COMMITTED, SEEDED, TABLE):
        report.problems.append("no posts record: this game was never posted")
        return report
    records: list[Any] = section["records"]
    report.posts, report.dice = len(records), section["dice"]
    if not _check_heads(log, records, report):
        return report
    if report.dice == TABLE:
        report.unverifiable_entries = len(log.entries)
    if report.dice != COMMITTED:
        return report
    if section.get("scheme") != SCHEME or section.get("game_id") != log.initial.hash():
        report.problems.append(f"the dice scheme or game id is not this game's ({SCHEME})")
        return report
    report.unverifiable_entries = records[0]["upto"] if records else len(log.entries)
    for n, record in enumerate(records):
        for key in ("commit",) + (("share",) if n >= 1 else ()) + (("reveal",) if n >= 2 else ()):
            if not isinstance(record.get(key), str) or not _HEX64.fullmatch(record[key]):
                report.problems.append(f"post {n}: its {key} is missing or not 64 hex digits")
                return report
        if n >= 2 and commitment(bytes.fromhex(record["reveal"])) != records[n - 2]["commit"]:
            report.problems.append(f"post {n}: the secret it reveals does not match the commitment of post {n - 2}")
        if n >= 1:
            seed = stint_seed(record["reveal"], records[n - 1]["share"]) if n >= 2 else None
            _check_stint(log, section["game_id"], n, seed, records[n - 1]["upto"], record["upto"], report)
    if records:
        report.dice_pending = dice_count(log, records[-1]["upto"])
    return report


def _check_heads(log: GameLog, records: list[Any], report: ChainReport) -> bool:
    previous, links = 0, heads(log)
    for n, record in enumerate(records):
        upto = record.get("upto") if isinstance(record, Mapping) else None
        if not isinstance(upto, int) or not previous <= upto <= len(log.entries):
            report.problems.append(f"post {n}: its entry count {upto!r} does not follow the posts before it")
            return False
        if record.get("head") != links[upto]:
            report.problems.append(f"post {n}: the game's hash chain after {upto} entries is not the one it posted "
                                   "(the entries before it were changed)")
            return False
        previous = upto
    return True


def _check_stint(log: GameLog, game_id: str, n: int, seed: bytes | None, start: int, end: int,
                 report: ChainReport) -> None:
    index = 0
    for seq in range(start, end):
        for event in log.entries[seq].events:
            if not isinstance(event, DiceRolled):
                continue
            for value in event.values:
                if seed is None:
                    report.problems.append(f"entry {seq}: a die in stint {n}, before the first two posts exchanged "
                                           "the dice commitments")
                    return
                expected = die(seed, game_id, n, index, event.sides)
                report.dice_checked += 1
                if value != expected:
                    report.problems.append(f"entry {seq}: die {index} of stint {n} shows {value}, the seed the "
                                           f"posts reveal gives {expected}")
                index += 1
