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

from dataclasses import dataclass, field
from typing import Final

from shared.game.cached import Caches
from shared.game.view_documents import HistoryEntry

from .cursors import view_digest
from .schemas import GameView, ResolvedPhaseView
from .view import GameViewJSON

_FIELDS: Final = list(GameView.model_fields)
_BEFORE: Final = set(_FIELDS[:_FIELDS.index("history")])
_AFTER: Final = set(_FIELDS[_FIELDS.index("history") + 1:])


@dataclass(frozen=True, slots=True)
class ViewText:
    """A view's JSON in three parts: the fields before ``history`` (an object without its
    closing brace), each history entry's text, and the fields after it (without the opening
    brace). The live stream writes the whole view, or the same with only the entries a
    watcher does not have yet (docs/social.md, "Frames that send only what is new")."""

    before: str
    entries: tuple[str, ...]
    after: str

    def whole(self) -> bytes:
        """The view as ``GET .../view`` writes it, with its whole history page."""
        kept = ",".join(self.entries)
        return f'{self.before},"history":[{kept}],{self.after}'.encode()

    def frame(self, last: int, reset: bool) -> bytes:
        """The view as a stream's ``view`` event carries it: its ``last`` history entries under
        ``history_added``, and ``history_reset`` (true: they are the whole page, drop what you
        hold; false: append them)."""
        kept = self.entries[len(self.entries) - last:] if last else ()
        flag = "true" if reset else "false"
        return f'{self.before},"history_reset":{flag},"history_added":[{",".join(kept)}],{self.after}'.encode()


def view_text(seen: GameViewJSON, *, caches: Caches | None = None) -> ViewText:
    """The view ``seen`` as text; each history entry's text remembered in ``caches`` (the
    store's, where ``seen``'s entries came from: view.py; None: written afresh)."""
    rest = GameView.model_validate({**seen, "history": []})
    before = rest.model_dump_json(include=_BEFORE)
    after = rest.model_dump_json(include=_AFTER)
    entries = tuple(_entry_text(entry, caches) for entry in seen.get("history", []))
    return ViewText(before[:-1], entries, after[1:])


def view_json(seen: GameViewJSON, *, caches: Caches | None = None) -> bytes:
    """``GameView.model_validate(seen).model_dump_json()``, as bytes."""
    return view_text(seen, caches=caches).whole()


def _entry_text(entry: HistoryEntry, caches: Caches | None) -> str:
    """One history entry's JSON as the view's model writes it; remembered for the shared dicts
    (``Caches.history_entry_texts``). Keyed by the entry's id, with the entry itself kept beside
    its text: while the cache holds the entry no other object can have its id, and a hit is
    checked to be that very object."""
    texts = caches.history_entry_texts if caches is not None else None
    found = texts.get(id(entry)) if texts is not None else None
    if found is not None and found[0] is entry:
        return found[1]
    text = ResolvedPhaseView.model_validate(entry).model_dump_json()
    if texts is not None:
        texts.put(id(entry), (entry, text), 5 * len(text))  # the text and the dict it keeps alive
    return text


@dataclass
class RenderedView:
    """One viewer's view as the live stream sends it: the whole text (``GET .../view``'s), its
    digests (one per key: cursors.py), and its frames, all in one shape: the whole page or only
    the history entries added since an earlier frame of the same viewer, under
    ``history_added`` (docs/social.md, "Frames that send only what is new")."""

    text: ViewText
    end: int  # the history page ends before this resolved phase (the game's resolved count)
    body: bytes = b""  # the whole view's JSON, as GET .../view writes it
    digests: dict[bytes, str] = field(default_factory=dict)
    _added: dict[int, bytes] = field(default_factory=dict)  # entries added (-1: the first) -> the frame

    def __post_init__(self) -> None:
        self.body = self.text.whole()

    def digest(self, key: bytes) -> str:
        found = self.digests.get(key)
        if found is None:
            found = self.digests[key] = view_digest(key, self.body)
        return found

    def first(self) -> bytes:
        """The frame of a connection's first view (or of a new viewer, or of a page that no
        longer meets the one held): the whole page, ``history_reset`` true."""
        found = self._added.get(-1)
        if found is None:
            found = self._added[-1] = self.text.frame(len(self.text.entries), True)
        return found

    def since(self, end: int) -> bytes | None:
        """The frame with ``history_added`` (the entries after the resolved phase ``end``) for a
        watcher whose last frame's page ended there; None when that page does not overlap this
        one (then the first frame's whole page goes)."""
        added = self.end - end
        if not 0 <= added <= len(self.text.entries):
            return None
        found = self._added.get(added)
        if found is None:
            found = self._added[added] = self.text.frame(added, False)
        return found
