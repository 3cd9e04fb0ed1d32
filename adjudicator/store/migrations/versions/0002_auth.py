"""Who is asking: directors and their sessions, judge devices and pairing codes, app keys,
failed attempts (lockouts) and rulings per credential per minute (rate limits).

Revision ID: 0002_auth
Revises: 0001_store
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_auth"
down_revision = "0001_store"
branch_labels = None
depends_on = None

NAME = 64
SHA256 = 64


def upgrade() -> None:
    op.create_table(
        "directors",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(NAME), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_login_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "director_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("token_hash", sa.String(SHA256), nullable=False, unique=True),
        sa.Column(
            "director_id",
            sa.Integer(),
            sa.ForeignKey("directors.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "devices",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(NAME), nullable=False),
        sa.Column("ruleset", sa.String(NAME), nullable=True),
        sa.Column("token_hash", sa.String(SHA256), nullable=False, unique=True),
        sa.Column(
            "paired_by",
            sa.Integer(),
            sa.ForeignKey("directors.id", ondelete="SET NULL"),
            nullable=True,
            index=True,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("last_used_at", sa.DateTime(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "pairing_codes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code_hash", sa.String(SHA256), nullable=False, unique=True),
        sa.Column("name", sa.String(NAME), nullable=False),
        sa.Column("ruleset", sa.String(NAME), nullable=True),
        sa.Column(
            "created_by",
            sa.Integer(),
            sa.ForeignKey("directors.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(NAME), nullable=False, unique=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("scopes", sa.Text(), nullable=False),
        sa.Column("key_hash", sa.String(SHA256), nullable=False, unique=True),
        sa.Column("hint", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_used_at", sa.DateTime(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "auth_failures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("account", sa.String(128), nullable=False),
        sa.Column("client", sa.String(128), nullable=False),
        sa.Column("failed_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_auth_failures_account", "auth_failures", ["scope", "account", "failed_at"])
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("window", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("count", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_counters")
    op.drop_index("ix_auth_failures_account", table_name="auth_failures")
    op.drop_table("auth_failures")
    op.drop_table("api_keys")
    op.drop_table("pairing_codes")
    op.drop_table("devices")
    op.drop_table("director_sessions")
    op.drop_table("directors")
