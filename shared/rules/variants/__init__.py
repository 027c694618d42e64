"""The variants the platform hosts, each behind the ``Variant`` protocol (base.py).

Variants are looked up by name; each lives in its own module and is imported on first use,
so that hosting the standard game never loads another variant's engine.
"""
from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any

from .base import Opening, OrderCheck, PhaseOutcome, UnknownVariant, UnsupportedPlayerCount, Variant, VariantOf
from .documents import PositionView, RulesSettings, read_settings

_MODULES = {
    "standard": "shared.rules.variants.standard",
    "dirigible": "shared.rules.variants.dirigible",
    "ekonia": "shared.rules.variants.ekonia",
}


def variant_names() -> list[str]:
    """The names of the variants whose module is present."""
    return [name for name in _MODULES if importlib.util.find_spec(_MODULES[name]) is not None]


_LOADED: dict[str, Variant] = {}  # name -> its variant, once imported (one dict read per document)


def get_variant(name: str) -> Variant:
    """The variant called ``name``; raises UnknownVariant for any other name."""
    loaded = _LOADED.get(name) if isinstance(name, str) else None
    if loaded is not None:
        return loaded
    module_name = _MODULES.get(name) if isinstance(name, str) else None
    if module_name is None:
        raise UnknownVariant(f"unknown variant {name!r}; expected one of {variant_names()}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name and module_name.startswith(missing.name):
            raise UnknownVariant(f"variant {name!r} is not available in this build") from None
        raise
    variant: Variant = module.VARIANT
    _LOADED[name] = variant
    return variant


def variant_of(document: Mapping[str, Any]) -> Variant:
    """The variant a stored state document is a state of (by its ``variant`` tag; a standard
    position written before the tag existed has none)."""
    return get_variant(str(document.get("variant") or "standard"))


def public_board(document: Mapping[str, Any]) -> PositionView:
    """What everyone sees of a stored state: its phase, every power's units and centres, and
    whatever else the variant shows the public (``Variant.view``). Code outside the rules reads
    a position through this, never by indexing the document (docs/architecture.md)."""
    return variant_of(document).view(document, None)


def engine_build() -> tuple[str, str]:
    """Which build of the standard engine (which the Dirigible variant runs on too) adjudicates
    in this process: ``"pure"``, ``"compiled"`` or ``"compiled-c-core"``, and why a faster build
    does not run ("" when none could: docs/operations.md, "Which engine runs"). Imports the
    engine, which deciding its build needs."""
    from shared.rules.diplomacy.c_core import running_build

    return running_build()


def phases_by_c_core() -> int:
    """How many hosted phases the C core has resolved in this process (standard_core.py)."""
    from .standard_core import phases_by_core

    return phases_by_core()


__all__ = ["Opening", "OrderCheck", "PhaseOutcome", "RulesSettings", "UnknownVariant", "UnsupportedPlayerCount",
           "Variant", "VariantOf", "engine_build", "get_variant", "phases_by_c_core", "public_board",
           "read_settings", "variant_names", "variant_of"]
