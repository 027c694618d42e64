"""One Alembic revision per schema change, oldest first (their ids listed in shared/store/schema.py)."""
