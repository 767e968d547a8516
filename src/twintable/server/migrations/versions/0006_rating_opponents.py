"""Whom each rated player has met: the games against each opponent (a profile, or a bot
by its kind), and on each rating how many distinct opponents it was earned against
(``server/ratings.py``: a rating reaches the leaderboard only past a few of each, and
games against the same profile weigh less and less).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_opponents",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("opponent", sa.String(64), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
    )
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("opponents", sa.Integer, nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("opponents")
    op.drop_table("rating_opponents")
