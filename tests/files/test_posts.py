"""Play by post: two players who exchange only posts (text) and their own game files play an `aare-5.0` game
with commit–reveal dice; a tampered post is refused with a clear error and nothing is written; a seeded game
posted and imported is the same game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from aare.cli.main import cli
from aare.game_file import load_game
from aare.posts.attachment import TamperedPost, decode, encode, find
from aare.posts.dice import NoFairDice, dice_for_file, load_secrets, secrets_path

ALLIES = ("Russia", "United Kingdom", "United States")
AXIS = ("Germany", "Japan")
RULE = "LHTR-TURN-all-dice-in-conduct-combat"


def aare(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def ok(*args: str) -> Result:
    result = aare(*args)
    assert result.exit_code == 0, result.output
    return result


def refused(tmp_path: Path, post: str, game: Path, *needles: str) -> str:
    """Import `post` into `game` and check it fails, says all `needles`, and leaves `game` as it was."""
    path = tmp_path / "tampered.md"
    path.write_text(post, encoding="utf-8")
    before = game.read_bytes() if game.exists() else None
    result = aare("import", str(path), "-o", str(game))
    assert result.exit_code != 0, result.output
    for needle in needles:
        assert needle in result.output, result.output
    assert (game.read_bytes() if game.exists() else None) == before
    return result.output


class Players:
    """Two players, each with a folder of their own (game file and secrets); they exchange posts only."""

    def __init__(self, root: Path) -> None:
        self.games = {side: root / side / "game.json" for side in ("allies", "axis")}
        for game in self.games.values():
            game.parent.mkdir()
        self.posts: list[str] = []

    def turn(self, side: str, play: bool = True) -> str:
        """`side` plays (if any of its powers is to act) until its power's turn ends or the other side must
        decide, posts, and the other side imports the post into its game file."""
        game, other = self.games[side], self.games["axis" if side == "allies" else "allies"]
        if play:
            powers = [arg for p in (ALLIES if side == "allies" else AXIS) for arg in ("--power", p)]
            ok("bot", str(game), "--bot", "random", *powers)
        post = game.parent / f"post{len(self.posts)}.md"
        ok("post", str(game), "-o", str(post))
        self.posts.append(post.read_text(encoding="utf-8"))
        received = other.parent / post.name
        received.write_text(self.posts[-1], encoding="utf-8")
        ok("import", str(received), "-o", str(other))
        return self.posts[-1]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Players:
    """Round 0 (the bids) and three power turns of round 1 (Russia, Germany, United Kingdom), by post."""
    players = Players(tmp_path_factory.mktemp("pbp"))
    ok("new", "--rules", "aare-5.0", "-o", str(players.games["allies"]))
    players.turn("allies", play=False)  # post 0 and 1 exchange the commitments, before any die is rolled
    players.turn("axis", play=False)
    side = "allies"
    for _ in range(80):
        state = load_game(players.games[side]).state
        if (state.round, state.nation) == (1, "Japan"):
            break
        players.turn(side)
        side = "axis" if side == "allies" else "allies"
    return players


def test_three_turns_by_post_reach_the_same_game_on_both_sides(played: Players) -> None:
    allies, axis = (ok("show", "--json", str(g)).output for g in played.games.values())
    assert allies == axis
    state = json.loads(allies)
    assert (state["round"], state["nation"]) == (1, "Japan")
    for game in played.games.values():  # each player's newest secret is in no post, only in their own folder
        secrets = load_secrets(secrets_path(game))
        newest = secrets[load_game(game).sections["posts"]["records"][-1 if game == played.games[_last(played)]
                                                                       else -2]["commit"]]
        assert not any(newest in post for post in played.posts)


def test_every_die_is_recomputed_from_the_posts_seeds(played: Players, tmp_path: Path) -> None:
    path = tmp_path / "last.md"
    path.write_text(played.posts[-1], encoding="utf-8")
    report = json.loads(aare("verify", "--json", str(path)).output)
    assert report["ok"], report
    assert report["dice_checked"] > 20 and not report["seeded"] and report["unverifiable_entries"] == 0
    for game in played.games.values():  # each player's game file, checked the same way
        mine = json.loads(aare("verify", "--json", str(game)).output)
        assert mine["ok"] and mine["dice_checked"] == report["dice_checked"], mine


def test_the_post_shows_moves_battles_purchases_and_the_map(played: Players) -> None:
    text = "\n".join(played.posts[2:])
    for needle in ("move ", "dice (land battle", "(purchase)", "IPC (", "The map after entry", "Russia: bank"):
        assert needle in text, needle


def _with_dice(played: Players) -> str:
    return next(p for p in played.posts if "dice (land battle" in p)


@pytest.mark.rule(RULE)
def test_a_die_changed_in_the_text_is_refused(played: Players, tmp_path: Path) -> None:
    post = _with_dice(played)
    line = next(x for x in post.splitlines() if "dice (land battle" in x)
    changed = line[:-1] + ("2" if line[-1] != "2" else "3")
    refused(tmp_path, post.replace(line, changed, 1), played.games["axis"], "text was edited", changed.strip())


def test_a_move_changed_in_the_text_is_refused(played: Players, tmp_path: Path) -> None:
    post = _with_dice(played)
    line = next(x for x in post.splitlines() if re.search(r"\. move 1 ", x))
    refused(tmp_path, post.replace(line, line.replace("move 1 ", "move 2 ", 1), 1), played.games["axis"],
            "text was edited")


def test_one_changed_character_of_the_attachment_is_refused(played: Players, tmp_path: Path) -> None:
    lines = _with_dice(played).splitlines()
    start, _ = find(lines)
    row = lines[start + 1]
    lines[start + 1] = row[:10] + ("A" if row[10] != "A" else "B") + row[11:]
    refused(tmp_path, "\n".join(lines), tmp_path / "new.json", "checksum does not match")
    assert not (tmp_path / "new.json").exists()


def _forged(post: str, edit: object) -> str:
    """The post with its attachment decoded, edited and encoded again with a fresh checksum, as a forger would."""
    lines = post.splitlines()
    start, end = find(lines)
    data = decode(lines)
    edit(data)  # type: ignore[operator]
    return "\n".join([*lines[:start], *encode(data), *lines[end + 1 :]])


@pytest.mark.rule(RULE)
def test_a_die_changed_in_the_attachment_is_refused_by_the_committed_seed(played: Players, tmp_path: Path) -> None:
    def change_die(data: dict[str, object]) -> None:
        entries = data["entries"]
        assert isinstance(entries, list)
        dice = next(e[1] for e in reversed(entries) if e[1])
        dice[0] = 1 if dice[0] != 1 else 2

    refused(tmp_path, _forged(_with_dice(played), change_die), tmp_path / "new.json", "records the dice",
            "the seed the posts reveal gives")


def test_a_move_changed_in_the_attachment_is_refused(played: Players, tmp_path: Path) -> None:
    def change_move(data: dict[str, object]) -> None:
        entries = data["entries"]
        assert isinstance(entries, list)
        move = next(e[0] for e in reversed(entries) if e[0]["type"] == "move")
        count, unit = move["units"].split(" ", 1)
        move["units"] = f"{int(count) + 1} {unit}"

    refused(tmp_path, _forged(played.posts[-1], change_move), played.games["axis"], "the post is refused")


def test_a_post_that_does_not_continue_the_game_file_is_refused(played: Players, tmp_path: Path) -> None:
    refused(tmp_path, played.posts[2], played.games["axis"], "older than the game file")


def test_the_player_who_posted_last_cannot_post_again(played: Players, tmp_path: Path) -> None:
    game = played.games[_last(played)]
    before = game.read_bytes()
    result = aare("post", str(game), "-o", str(tmp_path / "again.md"))
    assert result.exit_code != 0 and "posts alternate" in result.output, result.output
    assert game.read_bytes() == before


def _last(played: Players) -> str:
    """The side that wrote the last post (the allies wrote post 0)."""
    return "allies" if len(played.posts) % 2 == 1 else "axis"


def _to_play(played: Players) -> str:
    """The side whose stint comes next: the one that did not write the last post."""
    return "allies" if len(played.posts) % 2 == 0 else "axis"


def test_reloading_the_game_rolls_the_same_dice(played: Players) -> None:
    game = played.games[_to_play(played)]
    rolls = [dice.roll(12) for dice in (dice_for_file(game, load_game(game)) for _ in range(2)) if dice]
    assert len(rolls) == 2 and rolls[0] == rolls[1]


def test_the_other_player_cannot_roll_the_dice_of_the_stint(played: Players) -> None:
    waiting = played.games["axis" if _to_play(played) == "allies" else "allies"]
    dice = dice_for_file(waiting, load_game(waiting))
    assert dice is not None
    with pytest.raises(NoFairDice, match="does not hold its secret"):
        dice.roll(1)


def test_a_seeded_game_posted_and_imported_shows_the_same(tmp_path: Path) -> None:
    game, copy, post = tmp_path / "g.json", tmp_path / "copy.json", tmp_path / "post.txt"
    ok("new", "--rules", "aare-5.0", "--seed", "7", "-o", str(game))
    ok("bot", str(game), "--bot", "random", "--until-round", "2")
    ok("post", str(game), "--format", "bbcode", "-o", str(post))
    ok("import", str(post), "-o", str(copy))
    assert ok("show", "--json", str(game)).output == ok("show", "--json", str(copy)).output
    assert "[code]" in post.read_text() and "verified" in ok("verify", str(post)).output

    def change_die(data: dict[str, object]) -> None:
        entries = data["entries"]
        assert isinstance(entries, list)
        dice = next(e[1] for e in entries if e[1])
        dice[0] = 1 if dice[0] != 1 else 2

    refused(tmp_path, _forged(post.read_text(), change_die), tmp_path / "new.json", "records the dice")


def test_the_readme_example_runs_as_written(tmp_path: Path) -> None:
    from tests.cli.test_readme import AARE, run, shell_block

    if not AARE.exists():
        pytest.skip("the aare command is not installed")
    for line in shell_block("Play by post"):
        done = run(line, tmp_path)
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr}"
    assert ok("show", "--json", str(tmp_path / "game.json")).output == \
        ok("show", "--json", str(tmp_path / "copy.json")).output


@pytest.mark.parametrize(("edit", "says"), [
    (lambda lines: lines[:2] + lines[3:], "lines were lost or added"),
    (lambda lines: lines[:-1], "no end line"),
    (lambda lines: [lines[0], lines[1][:5] + lines[1][6] + lines[1][5] + lines[1][7:], *lines[2:]],
     "checksum does not match"),
    (lambda lines: [lines[0], lines[1][:5] + "*" + lines[1][6:], *lines[2:]], "never uses"),
    (lambda lines: [lines[0].replace("sha256=", "sha256=0"), *lines[1:]], "header line is damaged"),
])
def test_the_attachment_is_checked_to_the_character(edit: object, says: str) -> None:
    lines = encode({"some": "game", "entries": list(range(200))})
    assert decode(lines) == {"some": "game", "entries": list(range(200))}
    with pytest.raises(TamperedPost, match=says):
        decode(edit(lines))  # type: ignore[operator]


def test_a_posted_entry_cannot_be_taken_back(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    ok("new", "--rules", "lhtr-1.3", "--seed", "3", "-o", str(game))
    ok("act", str(game), "--text", "end phase")
    ok("act", str(game), "--text", "buy 1 infantry")
    ok("post", str(game), "-o", str(tmp_path / "post.md"))
    before = game.read_bytes()
    result = aare("undo", str(game))
    assert result.exit_code == 2 and "posted already" in result.output, result.output
    assert game.read_bytes() == before
