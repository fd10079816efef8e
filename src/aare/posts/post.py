"""Writing a post of a game, and reading one back: the game rebuilt from the attachment alone, every die
checked (seeded, or the posts' commit–reveal dice), and the text checked against what the attachment gives."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import AareError
from aare.events import DiceRolled
from aare.game_file import read_game
from aare.game_log import GameLog
from aare.posts.attachment import TamperedPost, decode, encode
from aare.posts.dice import TABLE, ChainReport, StintDice, check_chain, new_section, next_record
from aare.posts.text import FORMATS, render
from aare.state.game_state import GameState

FORMAT = "aare-post"
VERSION = 1


def make_post(log: GameLog, fmt: str, secrets: dict[str, str], section: Mapping[str, Any] | None = None,
              shown_from: int | None = None) -> tuple[str, dict[str, Any]]:
    """The text of the next post of `log` and the game's `posts` section with its record (the caller stores
    it in the game file; `secrets` gains the poster's new secret, which the caller keeps). `section`: the posts
    section to continue (default: the game's, or a new one); `shown_from`: the first entry the text shows
    (default: the first the previous post did not hold)."""
    if fmt not in FORMATS:
        raise AareError(f"unknown post format {fmt!r}: one of {', '.join(FORMATS)}")
    section = copy.deepcopy(dict(section or log.sections.get("posts") or new_section(log)))
    record = next_record(log, section, secrets)
    if shown_from is not None:
        record["shown_from"] = shown_from
    section["records"].append(record)
    lines = render(log, section, fmt, encode(_attachment(log, section)))
    return "\n".join(lines) + "\n", section


def _attachment(log: GameLog, section: Mapping[str, Any]) -> dict[str, Any]:
    """The whole game, compactly: the initial state, each action with the dice it rolled, the final state's hash
    and the posts' records (the events follow from replaying the actions)."""
    entries = [[entry.action, [v for e in entry.events if isinstance(e, DiceRolled) for v in e.values]]
               for entry in log.entries]
    return {"format": FORMAT, "version": VERSION, "initial": log.initial.to_json(), "entries": entries,
            "state_hash": log.state.hash(), "posts": section}


@dataclass
class PostReport:
    """What reading a post found: the rebuilt game (None when it could not be rebuilt) and any problems."""

    log: GameLog | None = None
    fmt: str | None = None
    chain: ChainReport = field(default_factory=ChainReport)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        entries = len(self.log.entries) if self.log else 0
        return {**self.chain.to_json(), "ok": self.ok, "entries": entries, "format": self.fmt,
                "problems": self.problems}


def check_post(text: str) -> PostReport:
    """Read and check a post: attachment checksum, replay of every action, dice, records, and the text."""
    report = PostReport()
    lines = text.splitlines()
    try:
        data = decode(lines)
        log = rebuild(data)
    except (AareError, KeyError, TypeError, ValueError) as exc:
        report.problems.append(str(exc))
        return report
    report.log = log
    report.chain = check_chain(log, log.sections["posts"])
    report.problems += report.chain.problems
    records = log.sections["posts"].get("records") or [{}]
    if not report.problems and records[-1].get("upto") != len(log.entries):
        report.problems.append("the attachment holds entries after its last post record")
    if report.problems:
        return report
    fmt, difference = _text_difference(lines, log, data)
    report.fmt = fmt
    if difference:
        report.problems.append(difference)
    return report


def check_game_file(raw: Any) -> PostReport:
    """Check a posted game's file (`aare verify GAME` of a game with a `posts` section): the checks of every
    load, then the posts' records and every posted die."""
    report = PostReport()
    try:
        log = read_game(raw)
    except AareError as exc:
        report.problems.append(str(exc))
        return report
    report.log = log
    report.chain = check_chain(log, log.sections.get("posts"))
    report.problems += report.chain.problems
    return report


def read_post(text: str) -> GameLog:
    """The game a post holds, checked; TamperedPost names the first problem."""
    report = check_post(text)
    if not report.ok or report.log is None:
        raise TamperedPost(f"the post is refused: {report.problems[0]}")
    return report.log


def rebuild(data: Any) -> GameLog:
    """The game log from an attachment's JSON, every action played again with the dice it records (a game with
    seeded dice: the seed's dice, which must be the recorded ones)."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise TamperedPost(f"the attachment is not an {FORMAT} version {VERSION}")
    entries, posts = data.get("entries"), data.get("posts")
    if not isinstance(entries, list) or not isinstance(posts, Mapping):
        raise TamperedPost("the attachment has no entries list or no posts record")
    log = GameLog(GameState.from_json(data.get("initial")))
    seeded = log.initial.dice.predictable
    stints = StintDice(posts)
    for index, pair in enumerate(entries):
        if not (isinstance(pair, Sequence) and len(pair) == 2 and isinstance(pair[0], Mapping)
                and isinstance(pair[1], list)):
            raise TamperedPost(f"entry {index + 1}: not an action with its dice")
        action, dice = pair
        committed = stints.source(index)
        scripted = None if seeded or committed else ScriptedDice(dice)
        try:
            events = Game(log, committed or scripted).apply(action)
        except AareError as exc:
            raise TamperedPost(f"entry {index + 1} ({_action_text(action)}) is refused where it stands: {exc}") \
                from None
        rolled = [v for e in events if isinstance(e, DiceRolled) for v in e.values]
        if rolled != dice or (scripted is not None and scripted.remaining):
            source = "the game's seeded dice give" if seeded else \
                "the seed the posts reveal gives" if committed else "its action rolls"
            raise TamperedPost(f"entry {index + 1} ({_action_text(action)}) records the dice {dice}, "
                               f"{source} {rolled}")
    if log.state.hash() != data.get("state_hash"):
        raise TamperedPost("the rebuilt game does not reach the state the attachment records")
    log.sections = {"posts": dict(posts)}
    return log


def table_post(log: GameLog, fmt: str) -> str:
    """A post of a game of the online table: the whole game attached, the text showing the current round; its
    dice are the table's (its export proves them), so the post carries no commitments of its own."""
    start = next((i for i, entry in enumerate(log.entries) for e in entry.events
                  if e.type == "phase_entered" and e.to_json().get("round") == log.state.round), len(log.entries))
    return make_post(log, fmt, {}, {"dice": TABLE, "records": []}, shown_from=start)[0]


def _action_text(action: Mapping[str, Any]) -> str:
    from aare.action_text import format_action

    try:
        return format_action(action)
    except (KeyError, TypeError, ValueError):
        return str(dict(action))[:80]


def _text_difference(lines: list[str], log: GameLog, data: Any) -> tuple[str | None, str]:
    """The format of the post's text and its first line that is not what the attachment gives ("" if none)."""
    given = [line.strip() for line in lines if line.strip()]
    best: tuple[str | None, str] = (None, "the post's text is not one `aare post` writes for its attachment")
    for fmt in FORMATS:
        expected = [line.strip() for line in render(log, data["posts"], fmt, encode(data)) if line.strip()]
        if expected[0] not in given:
            continue
        at = given.index(expected[0])
        for offset, want in enumerate(expected):
            have = given[at + offset] if at + offset < len(given) else "(the end of the post)"
            if have != want:
                return fmt, (f"the post's text says {have[:120]!r} where its attachment gives {want[:120]!r}: "
                             "the text was edited")
        return fmt, ""
    return best
