"""The fresh database's DDL kept as text (shared/store/schema_ddl.py) is what SQLAlchemy writes
from the tables' definitions today, and names every table they define."""
from __future__ import annotations

from shared.store.schema import HEAD_REVISION, TABLE_NAMES, create_statements
from shared.store.schema_ddl import TABLE_STATEMENTS
from shared.store.schema_tables import DDL_MODULE, DIALECTS, METADATA, ddl_module_text, table_statements

REGENERATE = "run `python -m shared.store.schema_tables` and commit shared/store/schema_ddl.py"


def test_the_kept_ddl_is_what_sqlalchemy_writes_from_the_tables() -> None:
    for dialect in DIALECTS:
        assert TABLE_STATEMENTS[dialect] == table_statements(dialect), REGENERATE
    assert DDL_MODULE.read_text() == ddl_module_text(), REGENERATE


def test_the_store_names_every_table_the_definitions_register() -> None:
    assert set(TABLE_NAMES) == set(METADATA.tables)
    assert len(TABLE_NAMES) == len(set(TABLE_NAMES))


def test_a_fresh_database_gets_the_tables_then_the_functions_then_the_stamp() -> None:
    postgresql = create_statements("postgresql")
    assert postgresql[:len(TABLE_STATEMENTS["postgresql"])] == TABLE_STATEMENTS["postgresql"]
    assert any("FUNCTION entente_append_batch" in statement for statement in postgresql)
    assert create_statements("sqlite")[-1] == f"INSERT INTO alembic_version (version_num) VALUES ('{HEAD_REVISION}')"
    assert "CREATE UNLOGGED TABLE IF NOT EXISTS rate_buckets" in "\n".join(postgresql)
