"""Rating history: a player's rating of a game after each of its rated games, so a
profile can show how it moved (``server/routes/profiles.py``). Ratings earned before
this revision have no history: it starts with the next rated game.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_history",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("games", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_history")
