"""The pure rules of every game Entente hosts, one package per game.

Nothing here imports outside the standard library and its sibling rules packages: no web, SQL,
clock, settings or service code (tests/architecture/test_boundaries.py). ``diplomacy`` is the
standard engine, ``dirigible`` builds on it, ``ekonia`` is Tale of Ekonia with its visibility
policy, and ``variants`` puts each behind the one ``Variant`` protocol the platform uses.
"""
