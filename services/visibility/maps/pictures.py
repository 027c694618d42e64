"""A game's picture for one caller, built from that caller's view and nothing else.

``game_layers(state, submissions, viewer, past)``: the board as ``view_of`` shows it to the
viewer now, or at a past phase (``past.read_past``) (the view of the game as it stood then, with that phase's
orders and results as the viewer's history shows them). The raw state never reaches the
drawing: standard and Dirigible boards take the view's position and orders; Tale of
Ekonia's map takes the view's public map and the viewer's own section (docs/maps.md).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import TypedDict

from shared.errors import Conflict, ErrorCode
from shared.events import PhaseResolved
from shared.game.phases import resolved_phases
from shared.game.state import GameState
from shared.game.submissions import PowerSubmission
from shared.game.view_documents import HistoryEntry
from shared.rules.variants import get_variant
from shared.rules.variants.documents import MapData, PositionView
from shared.store import EventStore, Transaction

from ..past import PastPhase, state_at
from ..view import Viewer, history_entry, view_of
from .board_svg import BoardPicture, DrawnOrder, Layers, board_layers
from .ekonia_svg import EkoniaPicture, ekonia_layers
from .geometry import geometry_for


@lru_cache(maxsize=8)
def map_data_of(variant: str) -> MapData:
    return get_variant(variant).map_data()


def empty_layers(variant: str) -> Layers:
    data = map_data_of(variant)
    geometry = geometry_for(data["board"])
    if data["board"] == "ekonia":
        return ekonia_layers(data, geometry, None)
    return board_layers(data, geometry, None)


def check_started(state: GameState) -> None:
    if state.position is None:
        raise Conflict("the game has not started: there is no board to draw yet", code=ErrorCode.GAME_NOT_STARTED)


async def last_resolution(reader: EventStore | Transaction, state: GameState) -> PhaseResolved | None:
    """The game's latest resolved phase (None before the first), which the board now draws faint:
    from the state when it holds it, else one read through the phases' cache."""
    if state.resolved:
        return state.resolved[-1]
    count = state.resolved_count
    found = await resolved_phases(reader, state, count - 1, count) if count else []
    return found[-1] if found else None


def game_layers(state: GameState, submissions: Mapping[str, PowerSubmission], viewer: Viewer,
                past: PastPhase | None = None, last: PhaseResolved | None = None) -> Layers:
    """The picture's layers; ``last``: the latest resolved phase, drawn on the board now."""
    check_started(state)
    if past is None:
        view = view_of(state, submissions, viewer, history=False)
        entry = None
    else:
        view = view_of(state_at(state, past), {}, viewer, history=False)
        entry = history_entry(get_variant(state.variant), past.resolution,
                              viewer.power if viewer.kind == "power" else None)
    data = map_data_of(state.variant)
    geometry = geometry_for(data["board"])
    if data["board"] == "ekonia":
        return ekonia_layers(data, geometry, ekonia_picture(state.name, view, entry, viewer))
    picture = board_picture(state.name, view, entry, viewer)
    if past is None and last is not None:
        picture = with_last_moves(state.variant, last, picture, viewer)
    return board_layers(data, geometry, picture)


def with_last_moves(variant: str, last: PhaseResolved, picture: BoardPicture, viewer: Viewer) -> BoardPicture:
    """The board now with the last resolved phase's orders and results, as the viewer's history
    shows them (its ``history_view``: nothing the view would not show); the drawing keeps the
    moves and retreats (docs/maps.md, "Pictures of a game")."""
    power = viewer.power if viewer.kind == "power" else None
    entry = get_variant(variant).history_view(last.model_dump(mode="json"), power)
    orders = [DrawnOrder(p, r["order"], r.get("result"), r.get("reason", ""))
              for p, found in sorted(entry.get("orders", {}).items()) for r in found]
    return replace(picture, last_orders=orders, last_phase=last.phase)


class PictureView(TypedDict):
    """What a picture reads of a view (``view_of``'s ``GameViewJSON``): the board, and the
    pending orders the viewer may see."""

    position: PositionView | None
    orders: dict[str, list[str]]


def _board_of(view: PictureView) -> PositionView:
    """The board a view shows: a started game's (``check_started`` refuses the others first)."""
    position = view["position"]
    if position is None:
        raise Conflict("the game has not started: there is no board to draw yet", code=ErrorCode.GAME_NOT_STARTED)
    return position


def _caption(viewer: Viewer, orders: Mapping[str, list[str]]) -> str:
    if not orders:
        return ""
    return "Pending orders (operator)" if viewer.kind == "operator" else "Your orders (not yet resolved)"


def board_picture(title: str, view: PictureView, entry: HistoryEntry | None, viewer: Viewer) -> BoardPicture:
    """A standard or Dirigible board picture from a view (and a resolved phase of its history)."""
    position = _board_of(view)
    units = {p: list(us) for p, us in position.get("units", {}).items()}
    if entry is None:
        orders = [DrawnOrder(p, o) for p, found in sorted(view["orders"].items()) for o in found]
        dislodged, caption = list(position.get("dislodged", [])), _caption(viewer, view["orders"])
    else:
        orders = [DrawnOrder(p, r["order"], r["result"], r.get("reason", ""))
                  for p, found in sorted(entry["orders"].items()) for r in found]
        waiting = list(position.get("dislodged", []))  # a retreat phase: the units that had to retreat
        dislodged = waiting + list(entry.get("dislodged", []))
        for d in entry.get("dislodged", []):  # dislodged by this phase: drawn apart, not twice
            if d["unit"] in units.get(d["power"], []):
                units[d["power"]] = [u for u in units[d["power"]] if u != d["unit"]]
        caption = "Orders and results"
    return BoardPicture(title, position.get("phase"), units, position.get("centres", {}), dislodged, orders,
                        caption, position.get("devastated", ()), position.get("adjustments", {}),
                        position.get("points", {}))


def ekonia_picture(title: str, view: PictureView, entry: HistoryEntry | None,
                   viewer: Viewer) -> EkoniaPicture:
    """Tale of Ekonia's picture from a view: its public map and the viewer's own section."""
    position = _board_of(view)
    own = [position["own"]] if position.get("own") else []
    if entry is None:
        orders = [DrawnOrder(p, o) for p, found in sorted(view["orders"].items()) for o in found]
        battles: list[str] = []
        caption = _caption(viewer, view["orders"])
    else:
        orders = [DrawnOrder(p, r["order"], r["result"], r.get("reason", ""))
                  for p, found in sorted(entry["orders"].items()) for r in found]
        battles = [b["territory"] for b in (entry.get("details") or {}).get("battles", [])]
        caption = "Your orders and results" if orders else "Turn resolved"
    return EkoniaPicture(title, position.get("phase"), position["public"], own, orders, battles, caption,
                         tuple(position.get("surviving", ())))
