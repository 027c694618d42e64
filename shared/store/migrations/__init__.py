"""The store's schema migrations, an Alembic environment shipped with the package (so that an
installed entente migrates with ``entente migrate``): ``env.py`` compares against the table
definitions (shared/store/tables.py), ``versions/`` holds one revision per schema change.
docs/store.md, "Schema and migrations", says how to write one."""
