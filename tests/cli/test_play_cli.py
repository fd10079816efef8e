"""Playing on a file: legal, act (JSON and text), undo, log, the action schema; errors leave the file as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.action_text import format_action, parse_action_text
from aare.cli.main import cli
from aare.errors import MalformedInput
from aare.rules.ruleset import load_ruleset


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    assert run("new", "--rules", "lhtr-1.3", "--seed", "9", "-o", str(path))[0] == 0
    return path


@pytest.mark.rule("LHTR-TURN-phase-sequence")
def test_act_writes_the_file_and_log_prints_history(game: Path) -> None:
    code, out, _ = run("act", str(game), "--text", "end phase")
    assert code == 0 and "Russia: purchase" in out
    code, out, _ = run("act", str(game), '{"type": "end_phase"}', "--json")
    assert code == 0 and json.loads(out)[0]["phase"] == "combat-move"
    data = json.loads(run("show", str(game), "--json")[1])
    assert data["phase"] == "combat-move" and data["version"] == 2
    code, out, _ = run("log", str(game))
    assert code == 0 and out.count("end phase") == 2


def test_errors_exit_2_and_leave_the_file_untouched(game: Path) -> None:
    before = game.read_bytes()
    for args in (
        ("act", str(game), '{"type": "fight", "space": "Germany"}'),
        ("act", str(game), '{"type": "end_phase"'),
        ("act", str(game), "--text", "dance wildly"),
        ("act", str(game)),
        ("undo", str(game)),
    ):
        code, out, err = run(*args)
        assert code == 2, args
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err
    assert game.read_bytes() == before


def test_illegal_action_names_the_rule(game: Path) -> None:
    _, _, err = run("act", str(game), '{"type": "fight", "space": "Germany"}')
    assert "[LHTR-TURN-phase-sequence]" in err


def test_legal_lists_actions(game: Path) -> None:
    code, out, _ = run("legal", str(game), "--json")
    assert code == 0 and {"type": "end_phase"} in json.loads(out)
    assert "end phase" in run("legal", str(game))[1]


def test_schema_covers_every_action_type() -> None:
    code, out, _ = run("actions", "--schema")
    assert code == 0
    schema = json.loads(out)
    names = set(schema["$defs"])
    assert {"Move", "Load", "Purchase", "Place", "ChooseCasualties", "Retreat", "EndPhase"} <= names


@pytest.mark.parametrize(
    "text",
    [
        "move 2 infantry, 1 armour Germany -> Poland -> Ukraine S.S.R.",
        "move 1 fighter: Germany -> Western Europe",
        "load 1 infantry, 1 armour Germany -> SZ 5",
        "buy 3 infantry",
        "place 2 infantry in Germany",
        "research 2",
        "fight Karelia S.S.R.",
        "casualties 2 infantry",
        "retreat to Russia",
        "retreat aircraft",
        "raid 1 bomber United Kingdom -> SZ 7 -> Western Europe -> Germany",
        "rocket Western Europe -> United Kingdom",
        "press",
        "submerge 1 submarine",
        "end phase",
    ],
)
def test_action_text_round_trips(text: str) -> None:
    ruleset = load_ruleset("lhtr-1.3")
    if "Poland" in text:
        with pytest.raises(MalformedInput, match="Poland"):
            parse_action_text(text, ruleset)
        return
    action = parse_action_text(text, ruleset)
    assert parse_action_text(format_action(action), ruleset) == action


@pytest.mark.rule("LHTR-TURN-phase-sequence", "LHTR-COMBAT-battle-order")
def test_russia_plays_its_first_turn_on_a_file(tmp_path: Path) -> None:
    path = tmp_path / "r1.json"
    assert run("new", "--rules", "lhtr-1.3", "--seed", "3", "-o", str(path))[0] == 0
    file = str(path)

    def act(text: str) -> None:
        code, _, err = run("act", file, "--text", text)
        assert code == 0, (text, err)

    def state() -> dict[str, object]:
        return json.loads(run("show", file, "--json")[1])

    act("end phase")  # no research
    act("buy 8 infantry")
    act("end phase")
    act("move 3 infantry, 1 artillery, 2 armour Russia -> West Russia")
    act("move 3 infantry Karelia S.S.R. -> West Russia")
    act("move 3 infantry, 1 armour Archangel -> West Russia")
    act("move 1 fighter Karelia S.S.R. -> West Russia")
    act("end phase")
    code, out, _ = run("legal", file, "--json")
    assert code == 0 and json.loads(out) == [{"type": "fight", "space": "West Russia"}]
    act("fight West Russia")
    while (pending := state()["pending"]) is not None:  # answer each decision with its first option
        assert isinstance(pending, dict) and pending["space"] == "West Russia"
        code, _, err = run("act", file, json.dumps(pending["options"][0]))
        assert code == 0, err
    assert state()["spaces"]["West Russia"]["owner"] == "Russia"  # type: ignore[index]
    act("end phase")
    act("move 1 fighter West Russia -> Russia")
    act("end phase")
    act("place 8 infantry in Russia")
    act("end phase")
    act("end phase")  # collect income ends the turn
    after = state()
    assert (after["round"], after["nation"], after["phase"]) == (1, "Germany", "develop-weapons")
    code, out, _ = run("log", file)
    assert code == 0 and "fight West Russia" in out and "place 8 infantry in Russia" in out
