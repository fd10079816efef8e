"""Committed dice: the derivation, commit and reveal through play, offline verification, no undo past dice."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.fair_dice import CommittedDice, commitment, die
from aare.game_log import GameLog, link
from aare.server.verify import verify_export
from aare.state.game_state import GameState
from tests.server.conftest import Player

END = {"type": "end_phase"}
RESEARCH = {"type": "research", "dice": 3, "tech": "rockets"}


def spec_die(seed: bytes, game_id: str, turn: int, index: int, sides: int) -> int:
    """The documented formula, written out again: first HMAC byte below 256 - 256 % sides, mod sides, + 1."""
    limit = 256 - 256 % sides
    block = 0
    while True:
        suffix = f"|{block}" if block else ""
        digest = hmac.new(seed, f"{game_id}|{turn}|{index}{suffix}".encode(), hashlib.sha256).digest()
        good = [b for b in digest if b < limit]
        if good:
            return good[0] % sides + 1
        block += 1


def test_die_follows_the_documented_formula() -> None:
    seed = bytes(range(32))
    for index in range(300):
        for sides in (6, 12, 20, 7):
            assert die(seed, "g1", 3, index, sides) == spec_die(seed, "g1", 3, index, sides)


def test_rejection_sampling_skips_biased_bytes() -> None:
    """Find a die whose first HMAC byte is at or above 252: it must come from a later byte, not wrap around."""
    seed = b"\x01" * 32
    for index in range(5000):
        first = hmac.new(seed, f"g|0|{index}".encode(), hashlib.sha256).digest()[0]
        if first >= 252:
            assert die(seed, "g", 0, index) == spec_die(seed, "g", 0, index, 6)
            break
    else:
        pytest.fail("no high first byte found")


def test_dice_are_uniform_and_depend_on_every_input() -> None:
    seed = b"\x07" * 32
    faces = Counter(die(seed, "game", 0, i) for i in range(6000))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in faces.values()), faces
    base = [die(seed, "game", 0, i) for i in range(40)]
    assert base != [die(seed, "other", 0, i) for i in range(40)]
    assert base != [die(seed, "game", 1, i) for i in range(40)]
    assert base != [die(b"\x08" * 32, "game", 0, i) for i in range(40)]


def test_committed_dice_count_their_index() -> None:
    seed = b"\x02" * 32
    source = CommittedDice(seed, "g", 4)
    assert source.roll(3) + source.roll(2) == tuple(die(seed, "g", 4, i) for i in range(5))
    assert source.index == 5


def play_russia_turn_with_research(player: Player) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A game where Russia researches (rolls dice) and ends its turn; returns the game id, the research
    answer and the answer that handed play to Germany."""
    game = player.new_game()
    assert game["dice"]["turn"] == 0 and len(game["dice"]["commitment"]) == 64
    research = player.act(game["id"], RESEARCH, 0)
    assert research.status_code == 200, research.text
    version, answer = 1, None
    while True:
        answer = player.act(game["id"], END, version).json()
        version += 1
        if answer["nation"] != "Russia":
            break
    return game["id"], research.json(), answer


def test_seed_is_committed_before_and_revealed_after_the_turn(player: Player) -> None:
    game = player.new_game()
    committed = game["dice"]["commitment"]
    assert "seed" not in json.dumps(player.view(game["id"])["dice"])
    research = player.act(game["id"], RESEARCH, 0).json()
    values = next(e["values"] for e in research["events"] if e["type"] == "dice_rolled")
    assert len(values) == 3
    export = player.http.get(f"/games/{game['id']}/export").json()
    assert export["server"]["dice"]["turns"][0]["seed"] is None  # still secret
    version, handover = 1, None
    while handover is None:
        answer = player.act(game["id"], END, version).json()
        version += 1
        handover = answer.get("dice")
    revealed = bytes.fromhex(handover["revealed"]["seed"])
    assert handover["revealed"]["turn"] == 0 and handover["turn"] == 1
    assert commitment(revealed) == committed
    assert values == [spec_die(revealed, game["id"], 0, i, 6) for i in range(3)]
    assert player.view(game["id"])["dice"] == {"scheme": "hmac-sha256-v1", "turn": 1,
                                               "commitment": handover["commitment"]}


def relink(game_file: dict[str, Any]) -> None:
    """Rebuild a game file's hash chain after an edit, as a forger without a secret can."""
    previous = GameState.from_json(game_file["initial"]).hash()
    for entry in game_file["entries"]:
        previous = entry["hash"] = link(previous, entry)


def export_of(player: Player) -> dict[str, Any]:
    game_id, _, _ = play_russia_turn_with_research(player)
    # Germany researches too, so the export also holds dice of the unrevealed current turn
    version = player.view(game_id)["version"]
    assert player.act(game_id, {"type": "research", "dice": 1, "tech": "jet_fighters"}, version).status_code == 200
    export: dict[str, Any] = player.http.get(f"/games/{game_id}/export").json()
    return export


def test_export_verifies_and_tampering_is_caught(player: Player) -> None:
    export = export_of(player)
    report = verify_export(export)
    assert report.ok, report.problems
    assert (report.dice_checked, report.dice_pending, report.turns) == (3, 1, 2)

    tampered_die = copy.deepcopy(export)
    number, rolled = next((n, e) for n, entry in enumerate(tampered_die["entries"], 1) for e in entry["events"]
                          if e["type"] == "dice_rolled")  # the first die of turn 0, whose seed is revealed
    missed = rolled["values"][0] < 6  # research hits on a 6
    rolled["values"][0] = rolled["values"][0] % 5 + 1 if missed else 1
    problems = verify_export(tampered_die).problems
    assert any(f"entry {number} " in p and "hash" in p for p in problems), problems  # the chain breaks there
    relink(tampered_die)  # a forger who rebuilds the chain
    problems = verify_export(tampered_die).problems
    if missed:  # the events stay as they were: the commitment catches the die
        assert any("die 0 of turn 0 shows" in p for p in problems), problems
    else:  # a hit became a miss: playing the action again gives other events, unless another die hit too
        assert any(f"entry {number} " in p or "die 0 of turn 0 shows" in p for p in problems), problems

    tampered_seed = copy.deepcopy(export)
    seed = tampered_seed["server"]["dice"]["turns"][0]["seed"]
    tampered_seed["server"]["dice"]["turns"][0]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    problems = verify_export(tampered_seed).problems
    assert any("does not match its commitment" in p for p in problems), problems

    missing = copy.deepcopy(export)
    missing["server"]["dice"]["turns"] = [t for t in missing["server"]["dice"]["turns"] if t["turn"] != 1]
    problems = verify_export(missing).problems
    assert any("turn 1" in p and "no commitment" in p for p in problems), problems

    not_server = copy.deepcopy(export)
    del not_server["server"]
    assert not verify_export(not_server).ok


def test_aare_verify_and_aare_show_read_the_export(player: Player, tmp_path: Path) -> None:
    export = export_of(player)
    good = tmp_path / "game.json"
    good.write_text(json.dumps(export))
    runner = CliRunner()
    ok = runner.invoke(cli, ["verify", str(good)])
    assert ok.exit_code == 0, ok.output
    assert "verified" in ok.output and "3 dice recomputed" in ok.output
    shown = runner.invoke(cli, ["show", str(good), "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["nation"] == "Germany"
    assert GameLog.from_json(export).state.hash() == export["state_hash"]

    rolled = next(e for entry in export["entries"] for e in entry["events"] if e["type"] == "dice_rolled")
    rolled["values"][1] = rolled["values"][1] % 6 + 1
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(export))
    failed = runner.invoke(cli, ["verify", str(bad), "--json"])
    assert failed.exit_code == 1
    assert not json.loads(failed.output)["ok"]


def test_undo_takes_back_a_move_without_dice(player: Player, other_player: Player) -> None:
    game = player.new_game({"Russia": "me"})
    gid = game["id"]
    assert player.act(gid, END, 0).status_code == 200  # into purchase
    assert player.act(gid, {"type": "purchase", "units": "2 infantry"}, 1).status_code == 200
    assert other_player.post(f"/games/{gid}/undo", {"version": 2}).status_code == 403
    assert player.post(f"/games/{gid}/undo", {"version": 1}).status_code == 409
    undone = player.post(f"/games/{gid}/undo", {"version": 2})
    assert undone.status_code == 200, undone.text
    assert undone.json()["version"] == 1
    export = player.http.get(f"/games/{gid}/export").json()
    assert [e["action"]["type"] for e in export["entries"]] == ["end_phase"]
    assert player.view(gid)["state_hash"] == GameLog.from_json(export).state.hash()
    refused = player.post(f"/games/{gid}/undo", {"version": 1})  # a finished phase is not revisited
    assert refused.status_code == 422
    assert refused.json()["rule_id"] == "LHTR-TURN-phase-sequence"


@pytest.mark.rule("LHTR-TURN-all-dice-in-conduct-combat")
def test_undo_never_reaches_past_a_die_roll(player: Player) -> None:
    game = player.new_game({"Russia": "me"})
    assert player.act(game["id"], RESEARCH, 0).status_code == 200
    refused = player.post(f"/games/{game['id']}/undo", {"version": 1})
    assert refused.status_code == 422
    assert refused.json()["rule_id"] == "LHTR-TURN-all-dice-in-conduct-combat"
    assert player.view(game["id"])["version"] == 1
