"""The seats taken at each public table still waiting for players: the lobby, shared by every process.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("kosti_tables") as batch:
        batch.add_column(sa.Column("taken", sa.Integer(), nullable=True))
    op.create_index("kosti_tables_open", "kosti_tables", ["taken", "created_at"])


def downgrade() -> None:
    op.drop_index("kosti_tables_open", "kosti_tables")
    with op.batch_alter_table("kosti_tables") as batch:
        batch.drop_column("taken")
