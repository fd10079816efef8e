"""The ladder on the server: ranked games and matches, the AARe formula and openskill ratings when they end, the
ladder endpoints and the import of an `aare ladder` file. Runs on SQLite and, when it is available, PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from aare.cli.main import cli
from aare.ladder import Ladder, high_loses, high_wins, low_wins, save_ladder
from aare.rules.ruleset import load_ruleset
from aare.server import db, ladder
from aare.server.settings import sqlite_url
from tests.server.conftest import LiveServer, Player

RULES = "aa50-1941"  # a ruleset with concession: a ranked game can be played to its end in two actions
MODEL = PlackettLuce()


def power_of(side: str) -> str:
    return next(p.name for p in load_ruleset(RULES).board.powers if p.side == side)


def seed_ladder(server: LiveServer, players: list[str], champion: str | None = None) -> None:
    """Start the server's ladder afresh with `players` in this order."""
    with db.write(server.service.engine) as conn:
        ladder.import_ladder(conn, Ladder(players, champion), replace=True)


def entry(server: LiveServer, player: Player, name: str) -> dict[str, Any]:
    answer = player.http.get("/ladder")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = next(p for p in answer.json()["players"] if p["name"] == name)
    return found


def concede(player: Player, game_id: str) -> None:
    """`player` gives up the game for the side he holds."""
    view = player.view(game_id)
    [side] = view["your_seats"]
    answer = player.act(game_id, {"type": "concede", "power": power_of(side)})
    assert answer.status_code == 200, answer.text
    assert player.view(game_id)["winner"] not in (None, side)


def rated(winner: dict[str, Any], loser: dict[str, Any]) -> tuple[float, float]:
    """The openskill ordinals after `winner` beats `loser` (entries as the ladder endpoint gives them)."""
    [[w], [lo]] = MODEL.rate([[MODEL.rating(mu=winner["mu"], sigma=winner["sigma"])],
                              [MODEL.rating(mu=loser["mu"], sigma=loser["sigma"])]])
    return w.ordinal(), lo.ordinal()


@pytest.mark.rule("AARE-RANK-upset-low-formula", "AARE-RANK-upset-high-formula", "AARE-RANK-upset-high-threshold",
                  "AARE-RANK-high-wins-formula", "AARE-RANK-high-wins-loser-unchanged", "AARE-RANK-rounding")
def test_two_ranked_games_move_both_players_as_the_formula_says(server: LiveServer, player: Player,
                                                                 other_player: Player) -> None:
    alice, bob = player, other_player
    others = [f"x{i}{alice.username[:6]}" for i in range(12)]
    order = [*others[:1], alice.username, *others[1:10], bob.username, *others[10:]]  # alice 2, bob 12
    seed_ladder(server, order)
    answer = alice.post("/matches", {"ruleset": RULES, "opponent": bob.username, "bid": 5})
    assert answer.status_code == 201, answer.text
    first, second = answer.json()["games"]
    views = [alice.view(first), alice.view(second)]
    assert [v["your_seats"] for v in views] == [["Axis"], ["Allies"]]  # the sides swapped
    assert {v["match_id"] for v in views} == {answer.json()["match_id"]}
    assert all(v["ranked"] and v["options"]["bid_axis"] == 5 and v["seating"] == "sides" for v in views)

    # game 1: bob (12) beats alice (2), an upset of ten places
    a0, b0 = entry(server, alice, alice.username), entry(server, alice, bob.username)
    assert (a0["rank"], b0["rank"]) == (2, 12)
    concede(alice, first)
    a1, b1 = entry(server, alice, alice.username), entry(server, alice, bob.username)
    assert b1["rank"] == low_wins(12, 2) == 6
    assert a1["rank"] == high_loses(2, 12) == 5
    assert (a1["wins"], a1["losses"], b1["wins"], b1["losses"]) == (0, 1, 1, 0)
    expected = rated(b0, a0)
    assert b1["rating"] == pytest.approx(expected[0], abs=1e-3)
    assert a1["rating"] == pytest.approx(expected[1], abs=1e-3)

    # game 2: alice (5) beats bob (6), the high player wins
    concede(bob, second)
    a2, b2 = entry(server, alice, alice.username), entry(server, alice, bob.username)
    assert a2["rank"] == high_wins(5, 6) == 3
    assert b2["rank"] == 6  # the low loser keeps his place
    assert (a2["games"], b2["games"]) == (2, 2)
    expected = rated(a1, b1)
    assert a2["rating"] == pytest.approx(expected[0], abs=1e-3)
    assert b2["rating"] == pytest.approx(expected[1], abs=1e-3)

    # the table stays a ranking (1..n, each place once) and the history says what happened, newest first
    table = alice.http.get("/ladder").json()["players"]
    assert [p["rank"] for p in table] == list(range(1, len(order) + 1))
    history = alice.http.get(f"/ladder/players/{alice.username}").json()["history"]
    assert [(h["result"], h["opponent"], h["rank_before"], h["rank_after"], h["game_id"]) for h in history] == [
        ("won", bob.username, 5, 3, second), ("lost", bob.username, 2, 5, first)]

    # a finished game moves the ladder once: nothing more happens to it, and its end is not taken back
    assert alice.act(first, {"type": "concede", "power": power_of("Allies")}).status_code >= 400
    undo = alice.post(f"/games/{first}/undo", {"version": alice.view(first)["version"]})
    assert undo.status_code == 403 and "ladder" in undo.json()["message"]
    assert entry(server, alice, alice.username) == a2


@pytest.mark.rule("AARE-RANK-unranked-opponents")
def test_beating_a_newcomer_gains_nothing_and_unranked_games_do_not_count(server: LiveServer, player: Player,
                                                                          other_player: Player) -> None:
    names = [f"r{i}" for i in range(11)]
    seed_ladder(server, [*names[:3], player.username, *names[3:]])  # 12 ranked players, the player 4th
    seats = {"Axis": "me", "Allies": f"user:{other_player.username}"}
    casual = player.post("/games", {"ruleset": RULES, "seating": "sides", "seats": seats})
    assert casual.status_code == 201, casual.text
    concede(other_player, casual.json()["id"])
    assert player.http.get(f"/ladder/players/{other_player.username}").status_code == 404
    assert entry(server, player, player.username)["games"] == 0
    ranked = player.post("/games", {"ruleset": RULES, "seating": "sides", "ranked": True, "seats": seats})
    assert ranked.status_code == 201, ranked.text
    concede(other_player, ranked.json()["id"])
    # the newcomer counts as rank 13 (one below the last) and enters there; 4 beating 13 gains nothing
    assert entry(server, player, player.username)["rank"] == 4 == high_wins(4, 13)
    assert entry(server, player, other_player.username)["rank"] == 13
    assert entry(server, player, player.username)["wins"] == 1


@pytest.mark.rule("AARE-RANK-title-match")
def test_the_belt_passes_only_in_a_title_match(server: LiveServer, player: Player, other_player: Player) -> None:
    seed_ladder(server, [other_player.username, player.username], champion=other_player.username)
    seats = {"Axis": "me", "Allies": f"user:{other_player.username}"}
    ordinary = player.post("/games", {"ruleset": RULES, "seating": "sides", "ranked": True, "seats": seats})
    concede(other_player, ordinary.json()["id"])
    assert player.http.get("/ladder").json()["champion"] == other_player.username
    title = player.post("/games", {"ruleset": RULES, "seating": "sides", "title_match": True, "seats": seats})
    assert title.status_code == 201, title.text
    concede(other_player, title.json()["id"])
    table = player.http.get("/ladder").json()
    assert table["champion"] == player.username
    assert [p["name"] for p in table["players"] if p["champion"]] == [player.username]


def test_ranked_games_are_two_accounts_one_a_side(server: LiveServer, player: Player, other_player: Player) -> None:
    def refused(body: dict[str, Any]) -> str:
        answer = player.post("/games", {"ruleset": RULES, "ranked": True, **body})
        assert answer.status_code == 400, answer.text
        message: str = answer.json()["message"]
        return message

    assert "by side" in refused({"seating": "nations"})
    assert "bots" in refused({"seating": "sides", "seats": {"Axis": "me", "Allies": "random"}})
    assert "two different" in refused({"seating": "sides", "seats": {"Axis": "me", "Allies": "me"}})
    assert "no account" in refused({"seating": "sides", "seats": {"Axis": "me", "Allies": "user:nobody-here"}})
    assert "names both" in refused({"seating": "sides", "title_match": True, "seats": {"Axis": "me"}})
    seed_ladder(server, ["holder"], champion="holder")
    assert "belt" in refused({"seating": "sides", "title_match": True,
                              "seats": {"Axis": "me", "Allies": f"user:{other_player.username}"}})
    assert player.post("/matches", {"ruleset": RULES, "opponent": "nobody-here"}).status_code == 400
    myself = player.post("/matches", {"ruleset": RULES, "opponent": player.username})
    assert myself.status_code == 400 and "two different" in myself.json()["message"]
    no_bid = {"ruleset": "aare-5.0", "options": {"straight_bid": False}, "opponent": other_player.username, "bid": 3}
    assert "no agreed bid" in player.post("/matches", no_bid).json()["message"]
    assert player.http.get("/ladder/players/nobody-here").status_code == 404


@pytest.mark.rule("AARE-BID-lower-bid-plays-axis")
def test_a_match_under_a_straight_bid_opens_with_the_agreed_bid(server: LiveServer, player: Player,
                                                                 other_player: Player) -> None:
    answer = player.post("/matches", {"ruleset": "aare-5.0", "opponent": other_player.username, "bid": 7})
    assert answer.status_code == 201, answer.text
    views = [player.view(game_id) for game_id in answer.json()["games"]]
    assert sorted(side for view in views for side in view["your_seats"]) == ["Allies", "Axis"]  # swapped
    for view in views:
        assert len(view["your_seats"]) == 1 and view["bid"] == 7
        record = view["state"]["extra"]["straight_bid"]
        assert (record["axis"], record["amount"], record["swap"]) == ("Axis", 7, False)
        assert view["summary"]["phase"] == "setup-bid"


def test_import_ladder_command(tmp_path: Path) -> None:
    file = tmp_path / "ladder.json"
    kept = Ladder(["anna", "bert", "carl", "dora", "emil"])
    kept.add_result("emil", "anna", title_match=True)  # 5 beats 1: emil first, anna down one
    save_ladder(kept, file)
    data = tmp_path / "data"
    runner = CliRunner()
    result = runner.invoke(cli, ["db", "import-ladder", str(file), "--data-dir", str(data)])
    assert result.exit_code == 0, result.output
    assert "imported 5 players and 1 results" in result.output
    again = runner.invoke(cli, ["db", "import-ladder", str(file), "--data-dir", str(data)])
    assert again.exit_code != 0 and "replace" in again.output
    engine = db.make_engine(sqlite_url(data))
    with db.read(engine) as conn:
        table = ladder.standings(conn)
        emil = ladder.history(conn, "emil")
    engine.dispose()
    assert [p["name"] for p in table["players"]] == list(kept.players)
    assert table["champion"] == "emil"
    assert emil is not None and emil["player"]["wins"] == 1
    assert emil["player"]["rating"] > next(p for p in table["players"] if p["name"] == "anna")["rating"]
    assert emil["history"][0]["rank_before"] == 5 and emil["history"][0]["rank_after"] == 1
    replaced = runner.invoke(cli, ["db", "import-ladder", str(file), "--replace", "--data-dir", str(data)])
    assert replaced.exit_code == 0, replaced.output


def test_the_ladder_migration_keeps_existing_games(tmp_path: Path) -> None:
    """0001 -> 0002 on a database with a game: its seats and log stay (no copy of `games` cascading them away),
    it is not ranked, and the way back works."""
    from alembic import command
    from sqlalchemy import text

    from aare.server.migrate import alembic_config, current_revision, upgrade

    engine = db.make_engine(sqlite_url(tmp_path))
    assert upgrade(engine, "0001") == "0001"
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO games (id, ruleset, options, seating, initial_state, version, state_hash, "
                          "dice_from_seq, created_at, updated_at) VALUES ('g', 'r', '{}', 'sides', '{}', 1, 'h', 0, "
                          "0, 0)"))
        conn.execute(text("INSERT INTO seats (game_id, seat) VALUES ('g', 'Axis')"))
        conn.execute(text("INSERT INTO log_entries (game_id, seq, events, state_hash, actor, created_at) "
                          "VALUES ('g', 0, '[]', 'h', 'a', 0)"))

    def kept() -> tuple[Any, ...]:
        with engine.connect() as conn:
            return tuple(conn.execute(text(f"SELECT count(*) FROM {t}")).scalar() for t in ("seats", "log_entries"))

    assert upgrade(engine) == "0002" and kept() == (1, 1)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT ranked, match_id FROM games")).one() == (0, None)
    config = alembic_config()
    with db.write(engine) as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0001")
    assert current_revision(engine) == "0001" and kept() == (1, 1)
    engine.dispose()


@pytest.mark.rule("AARE-RANK-unranked-opponents", "LHTR-VICTORY-no-capital-rule")
def test_a_ranked_aare_game_ends_by_concession_and_moves_the_ladder(server: LiveServer, player: Player,
                                                                   other_player: Player) -> None:
    seed_ladder(server, [f"q{i}{player.username[:6]}" for i in range(3)] + [player.username])  # the player 4th
    seats = {"Axis": "me", "Allies": f"user:{other_player.username}"}
    game = player.post("/games", {"ruleset": "aare-5.0", "seating": "sides", "ranked": True, "seats": seats})
    assert game.status_code == 201, game.text
    answer = other_player.act(game.json()["id"], {"type": "concede", "power": "Russia"})
    assert answer.status_code == 200, answer.text
    assert player.view(game.json()["id"])["winner"] == "Axis"
    assert entry(server, player, player.username)["wins"] == 1
    assert entry(server, player, other_player.username)["rank"] == 5  # the newcomer enters below the last
