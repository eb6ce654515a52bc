"""Who created a table and when its game ended, so that live tables can be counted.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("kosti_tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("kosti_tables_live", "kosti_tables", ["finished_at", "created_at"])


def downgrade() -> None:
    op.drop_index("kosti_tables_live", "kosti_tables")
    with op.batch_alter_table("kosti_tables") as batch:
        batch.drop_column("finished_at")
        batch.drop_column("creator")
