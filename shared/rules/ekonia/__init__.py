"""Tale of Ekonia's rules (docs/rules/ekonia.md): the map, orders and their parser, planning,
economy, combat with dice, captures, espionage, privateers, the turn, and the visibility
policy (policy.py: what each state may see is a rule of this game).

Phases are turns, named ``T01``, ``T02``...; every state orders at once each turn. The platform
reaches this package only through ``shared.rules.variants.ekonia``.
"""

ENGINE_VERSION = "ekonia-5"  # stored in each PhaseResolved; bump when results may change
