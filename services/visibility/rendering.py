"""A view's JSON text, exactly as the ``GameView`` model writes it, without validating the
whole history again each time.

A view is mostly its history page (20 resolved phases with every order and its board: about
90 % of a 96 KB view at phase 30), and validating it through the model took 2.7 ms where the
rest of the view takes 0.05 ms (docs/social.md, "The live stream"). The history entries are the
shared dicts ``view.py`` remembers, and a resolved phase never changes, so each entry's JSON is
written once, by the same model the view's field uses (``ResolvedPhaseView``), and remembered
beside it; the rest of the view goes through ``GameView`` as before, so every key a closed part
of the schema does not name is still dropped and every default filled in. The text is the
model's byte for byte (tests/services/visibility/test_rendering.py compares them on many views).
"""
from __future__ import annotations

from typing import Any, Final

from shared.bounded import BoundedCache

from .schemas import GameView, ResolvedPhaseView
from .view import ENTRIES_BYTES, ENTRIES_KEPT  # as many texts as view.py remembers entries

_FIELDS: Final = list(GameView.model_fields)
_BEFORE: Final = set(_FIELDS[:_FIELDS.index("history")])
_AFTER: Final = set(_FIELDS[_FIELDS.index("history") + 1:])

# Keyed by the entry's id, with the entry itself kept beside its text: while the cache holds the
# entry no other object can have its id, and a hit is checked to be that very object.
_ENTRY_TEXTS: BoundedCache[int, tuple[dict[str, Any], str]] = BoundedCache(
    "history_entry_texts", ENTRIES_KEPT, ENTRIES_BYTES)


def view_json(seen: dict[str, Any]) -> bytes:
    """``GameView.model_validate(seen).model_dump_json()``, as bytes."""
    rest = GameView.model_validate({**seen, "history": []})
    before = rest.model_dump_json(include=_BEFORE)
    after = rest.model_dump_json(include=_AFTER)
    history = ",".join(_entry_text(entry) for entry in seen.get("history", []))
    return f'{before[:-1]},"history":[{history}],{after[1:]}'.encode()


def _entry_text(entry: Any) -> str:
    """One history entry's JSON as the view's model writes it; remembered for the shared dicts."""
    found = _ENTRY_TEXTS.get(id(entry))
    if found is not None and found[0] is entry:
        return found[1]
    text = ResolvedPhaseView.model_validate(entry).model_dump_json()
    if isinstance(entry, dict):
        _ENTRY_TEXTS.put(id(entry), (entry, text), 5 * len(text))  # the text and the dict it keeps alive
    return text
