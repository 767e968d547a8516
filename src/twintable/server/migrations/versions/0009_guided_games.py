"""The guided first games a profile has started, skipped or finished, per game: a player
is offered a game's guided game once, on whatever browser holds the profile.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "guided_games",
        sa.Column("player_id", sa.String(64), sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("guided_games")
