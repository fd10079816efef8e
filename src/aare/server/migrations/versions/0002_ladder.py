"""The ladder: ranked games and matches, ladder players and results.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE (no batch copy: on SQLite a copied `games` would take its seats and log with it)
    op.add_column("games", sa.Column("ranked", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("games", sa.Column("title_match", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("games", sa.Column("match_id", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("bid", sa.Integer, nullable=True))
    op.create_index("ix_games_match_id", "games", ["match_id"])
    op.create_table(
        "ladder_players",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("champion", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "ladder_results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True,
                  unique=True),
        sa.Column("winner", sa.String(64), nullable=False, index=True),
        sa.Column("loser", sa.String(64), nullable=False, index=True),
        sa.Column("winner_before", sa.Integer, nullable=False),
        sa.Column("loser_before", sa.Integer, nullable=False),
        sa.Column("winner_after", sa.Integer, nullable=False),
        sa.Column("loser_after", sa.Integer, nullable=False),
        sa.Column("winner_rating_before", sa.Float, nullable=False),
        sa.Column("loser_rating_before", sa.Float, nullable=False),
        sa.Column("winner_rating_after", sa.Float, nullable=False),
        sa.Column("loser_rating_after", sa.Float, nullable=False),
        sa.Column("title_match", sa.Boolean, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ladder_results")
    op.drop_table("ladder_players")
    op.drop_index("ix_games_match_id", table_name="games")
    for column in ("bid", "match_id", "title_match", "ranked"):
        op.drop_column("games", column)
