"""A table's talk: chat lines and quick reactions, numbered per table (``server/chat.py``).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("author", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("text", sa.String(400), nullable=True),
        sa.Column("emote", sa.String(16), nullable=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("t_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_lines")
