"""The server's tables (SQLAlchemy Core). The migrations in `aare.server.migrations` create them; times are
Unix seconds; JSON is stored as text written by the server. The primary key (game_id, seq) of `log_entries`
is what keeps two submissions on the same version from both landing."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(32), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created_at", Float, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("csrf_token", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

api_tokens = Table(
    "api_tokens", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("revoked_at", Float, nullable=True),
)

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seating", String(16), nullable=False),
    Column("initial_state", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("state_hash", String(64), nullable=False),
    Column("dice_from_seq", Integer, nullable=False),
    Column("winner", String(64), nullable=True),
    Column("bot_error", Text, nullable=True),
    Column("created_by", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("ranked", Boolean, nullable=False, server_default=false()),
    Column("title_match", Boolean, nullable=False, server_default=false()),
    Column("match_id", String(32), nullable=True, index=True),
    Column("bid", Integer, nullable=True),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True),
    Column("bot", String(32), nullable=True),
)

log_entries = Table(
    "log_entries", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("action", Text, nullable=True),
    Column("events", Text, nullable=False),
    Column("state_hash", String(64), nullable=False),
    Column("actor", String(80), nullable=False),
    Column("created_at", Float, nullable=False),
)

dice_turns = Table(
    "dice_turns", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("nation", String(64), nullable=False),
    Column("from_seq", Integer, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("seed", String(64), nullable=False),
    Column("revealed", Boolean, nullable=False),
)

ladder_players = Table(
    "ladder_players", metadata,
    Column("name", String(64), primary_key=True),
    Column("rank", Integer, nullable=False),
    Column("champion", Boolean, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

ladder_results = Table(
    "ladder_results", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="SET NULL"), nullable=True, unique=True),
    Column("winner", String(64), nullable=False, index=True),
    Column("loser", String(64), nullable=False, index=True),
    Column("winner_before", Integer, nullable=False),
    Column("loser_before", Integer, nullable=False),
    Column("winner_after", Integer, nullable=False),
    Column("loser_after", Integer, nullable=False),
    Column("winner_rating_before", Float, nullable=False),
    Column("loser_rating_before", Float, nullable=False),
    Column("winner_rating_after", Float, nullable=False),
    Column("loser_rating_after", Float, nullable=False),
    Column("title_match", Boolean, nullable=False),
    Column("source", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
)
