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
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ranked", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("title_match", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("match_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("bid", sa.Integer, nullable=True))
        batch.create_index("ix_games_match_id", ["match_id"])
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
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_match_id")
        for column in ("bid", "match_id", "title_match", "ranked"):
            batch.drop_column(column)
