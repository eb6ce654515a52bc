"""When something last happened at each table, so that tables left idle stop counting as live.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("kosti_tables") as batch:
        batch.add_column(sa.Column("active_at", sa.DateTime(timezone=True), nullable=True))
    # the tables made before: active when their last event was written (or when made)
    op.execute(
        "UPDATE kosti_tables SET active_at = COALESCE((SELECT MAX(e.created_at) FROM kosti_events e "
        "WHERE e.table_id = kosti_tables.id), created_at) WHERE finished_at IS NULL"
    )
    op.execute("UPDATE kosti_tables SET active_at = created_at WHERE active_at IS NULL")
    op.create_index("kosti_tables_active", "kosti_tables", ["finished_at", "active_at"])


def downgrade() -> None:
    op.drop_index("kosti_tables_active", "kosti_tables")
    with op.batch_alter_table("kosti_tables") as batch:
        batch.drop_column("active_at")
