"""Finished games whose moves were moved to an archive file (``twintable archive``).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "archived_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("archive", sa.String(64), nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("archived_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("archived_games")
