"""What one viewer may see of a game: a pure projection of the log.

``view(events, viewer)`` is the only way game state reaches a player. The policy, field by
field:

| field                          | a power's player | public (and host) | operator |
| ------------------------------ | ---------------- | ----------------- | -------- |
| status, phase, must_act        | yes              | yes               | yes      |
| codenames of all powers        | yes              | yes               | yes      |
| which power the viewer plays   | own only         | -                 | -        |
| own codename before the start  | own (``player``) | -                 | -        |
| units, centres, dislodged      | yes              | yes               | yes      |
| resolved phases (see below)    | yes              | yes               | yes      |
| pending orders of this phase   | own only         | none              | all      |
| who has submitted, who is ready| yes              | yes               | yes      |
| token hashes, player ids, seed | never            | never             | never    |
| clock, civil disorder, result  | yes              | yes               | yes      |
| draw votes                     | own seat's only  | passed or not     | passed or not |

(with ``public_votes`` every seat's draw vote is shown to everyone). Resolved phases are the
variant's ``history_view``: in the standard game all orders and results; in Tale of Ekonia the
viewer's own orders and the details its visibility policy allows (shared/rules/ekonia/policy.py).
A player whose seat plays several powers (games for fewer than seven) sees as one of them, with
the pending orders of all of them. Each resolved phase carries the position it was played from,
as the variant's ``view`` shows it to this viewer; orders come as text and as structured values
(the variant's ``describe_order``). ``past_view`` is the game as it stood at a resolved phase
(``GET /games/{id}/view?phase=``), built from the same pieces.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, TypedDict

import orjson

from shared.auth import Caller
from shared.errors import ErrorCode, Forbidden, Unprocessable
from shared.events import Event, OrdersSubmitted, PhaseResolved, ReadySet
from shared.game.cached import Caches
from shared.game.draws import own_ballot
from shared.game.repository import RECENT_PHASES
from shared.game.state import ClockJSON, DrawJSON, GameState, OwnBallotJSON, PowerSeatJSON, ResultJSON, fold
from shared.game.submissions import PowerSubmission, latest_submissions, submitted_orders
from shared.game.view_documents import HistoryEntry, StructuredResult
from shared.game.waiting import order_status
from shared.http.summary import GameInfoJSON, game_info
from shared.rules.variants import Variant, get_variant
from shared.rules.variants.documents import PositionView, StructuredOrder


@dataclass(frozen=True, slots=True)
class Viewer:
    kind: Literal["power", "player", "public", "operator"]  # player: seated, no power drawn yet
    power: str | None = None
    codename: str | None = None  # a seated player's own codename (also before the powers are drawn)
    powers: tuple[str, ...] = ()  # every power of the viewer's seat (several in small games)
    player_id: str | None = None  # only to find the viewer's own draw vote; never shown

    @classmethod
    def public(cls) -> Viewer:
        return cls("public")


def viewer_for(caller: Caller, game: GameState, power: str | None) -> Viewer:
    """The viewer a caller may be: a player sees as their power, the operator as anyone."""
    if power is not None and power.upper() not in get_variant(game.variant).powers():
        raise Unprocessable(f"unknown power {power!r}", code=ErrorCode.UNKNOWN_POWER, where="query.power")
    wanted = power.upper() if power else None
    if caller.role == "operator":
        return Viewer("power", wanted) if wanted else Viewer("operator")
    if caller.role == "player":
        seat = game.seat(caller.player_id)
        own = tuple(seat.powers) if seat else ()
        if wanted and wanted not in own:
            raise Forbidden(f"a player may see only their own power's view, not {wanted}",
                            code=ErrorCode.NOT_YOUR_POWER, where="query.power")
        codename = seat.codename if seat else None
        if not own:  # a seat in a forming game: the powers are drawn at the start
            return Viewer("player", None, codename, player_id=caller.player_id)
        return Viewer("power", wanted or own[0], codename, own, caller.player_id)
    if wanted:
        raise Forbidden(f"the view of {wanted} needs that player's token", code=ErrorCode.NOT_YOUR_POWER,
                        where="query.power")
    return Viewer.public()


class ViewerJSON(TypedDict):
    kind: str  # power, player, public, operator
    power: str | None
    codename: str | None
    powers: list[str]


class GameViewJSON(TypedDict):
    """A viewer's view of a game (``view_of``), as ``GameView`` (schemas.py) writes it."""

    game: GameInfoJSON
    viewer: ViewerJSON
    powers: dict[str, PowerSeatJSON]
    position: PositionView | None
    must_act: list[str]
    submitted: list[str]
    ready: list[str] | None  # None in a past phase's view (past.py)
    ordering: list[str] | None
    waiting_for: list[str]
    orders: dict[str, list[str]]
    structured_orders: dict[str, list[StructuredOrder]]
    history: list[HistoryEntry]
    history_before: str | None
    winners: list[str]
    clock: ClockJSON | None  # None in a past phase's view
    civil_disorder: list[str]
    draw: DrawViewJSON
    result: ResultJSON | None
    resolution: HistoryEntry | None  # a past phase's view: that phase's resolution


def view(events: Iterable[Event], viewer: Viewer) -> GameViewJSON:
    """The viewer's picture of the game after ``events`` (game stream and order streams, in log order)."""
    events = list(events)
    state = fold(e for e in events if not isinstance(e, (OrdersSubmitted, ReadySet)))
    return view_of(state, latest_submissions(events, state.phase), viewer)


def view_of(state: GameState, submissions: Mapping[str, PowerSubmission], viewer: Viewer,
            history_end: int | None = None, *, history: bool = True, caches: Caches | None = None) -> GameViewJSON:
    """The viewer's picture of ``state``, whose current phase has these latest submissions;
    ``history`` is one page of its resolved phases: the ``HISTORY_PAGE`` latest, or those
    before the index ``history_end`` (docs/api.md, "History pages"), so that a view costs
    the same whatever the number of phases played; none with ``history`` False (for the map
    pictures, which draw no history). The history entries are remembered in ``caches`` (the
    store's, ``caches_of``; None: built afresh)."""
    summary = state.summary()
    start, end = history_page(state.resolved_count, history_end) if history else (0, 0)
    if history and start < state.earlier_resolved:
        raise ValueError("this page needs phases the state leaves out: read them first "
                         "(with_recent_history for the latest page, full_state for older ones)")
    pending = pending_orders(submissions, state, viewer)
    active = state.status == "active"
    return {
        "game": game_info(summary),
        "viewer": {"kind": viewer.kind, "power": viewer.power, "codename": viewer.codename,
                   "powers": list(viewer.powers or ((viewer.power,) if viewer.power else ()))},
        "powers": _powers(state),
        "position": _position(state, viewer),
        "must_act": list(state.must_act) if active else [],
        **order_status(state, submissions),
        "orders": pending,
        "structured_orders": _structured(state, pending),
        "history": _history(state, viewer, start, end, caches),
        "history_before": state.resolved[start - state.earlier_resolved].phase if start > 0 else None,
        "winners": list(state.winners),
        "clock": summary["clock"],
        "civil_disorder": summary["civil_disorder"],
        "draw": _draw(state, summary["draw"], viewer),
        "result": summary["result"],
        "resolution": None,  # a past phase's view (past.py) holds that phase's resolution here
    }


class DrawViewJSON(DrawJSON, OwnBallotJSON):
    """The draw as a viewer sees it: whether it passed, every vote with public votes, its own."""


def _draw(state: GameState, public: DrawJSON, viewer: Viewer) -> DrawViewJSON:
    """Whether the draw passed (and every vote, with public votes); a player's own vote."""
    return {**public, **own_ballot(state, viewer.player_id)}



def _powers(state: GameState) -> dict[str, PowerSeatJSON]:
    return state.power_seats()


def _position(state: GameState, viewer: Viewer) -> PositionView | None:
    """The board as the variant lets this viewer see it (its own visibility rules)."""
    if state.position is None:
        return None
    return get_variant(state.variant).view(state.position, viewer.power if viewer.kind == "power" else None)


def pending_orders(submissions: Mapping[str, PowerSubmission], state: GameState,
                   viewer: Viewer) -> dict[str, list[str]]:
    """The pending orders the viewer may see: none for the public, its own seat's, or all
    (the operator)."""
    if state.status != "active" or viewer.kind == "public":
        return {}
    latest = submitted_orders(dict(submissions))
    if viewer.kind == "operator":
        return dict(sorted(latest.items()))
    own = set(viewer.powers) | ({viewer.power} if viewer.power else set())
    return {power: orders for power, orders in sorted(latest.items()) if power in own}


def _structured(state: GameState, pending: Mapping[str, list[str]]) -> dict[str, list[StructuredOrder]]:
    """The pending orders as structured values, beside their texts."""
    if not pending:
        return {}
    variant, phase = get_variant(state.variant), str(state.phase)
    return {power: [variant.describe_order(text, phase, power) for text in texts] for power, texts in pending.items()}


HISTORY_PAGE = RECENT_PHASES  # resolved phases in a view's history page (docs/api.md, "History pages"),
# as many as a cached state keeps


def history_page(resolved: int, end: int | None) -> tuple[int, int]:
    """The indices [start, end) of the history page that ends before index ``end`` (None:
    after the last resolved phase)."""
    end = resolved if end is None else max(0, min(end, resolved))
    return max(0, end - HISTORY_PAGE), end


def _history(state: GameState, viewer: Viewer, start: int, end: int,
             caches: Caches | None) -> list[HistoryEntry]:
    """Resolved phases ``start`` to ``end`` as the variant lets the viewer see them
    (``history_view``): every order in the standard game; in Tale of Ekonia a state's own
    orders and what the policy shows it of the turn. The operator's view is the public one
    (the whole log is ``GET .../events``)."""
    variant = get_variant(state.variant)
    power = viewer.power if viewer.kind == "power" else None
    kept = state.resolved[start - state.earlier_resolved:end - state.earlier_resolved]
    if caches is None:
        return [history_entry(variant, event, power) for event in kept]
    return [_remembered_entry(caches, state.game_id, variant, event, power) for event in kept]


# an entry's memory / its JSON size (measured: docs/performance.md, 2026-12-01, "Growth: memory, views,
# replay")
MEMORY_PER_ENTRY_JSON_BYTE = 4
def _remembered_entry(caches: Caches, game_id: str, variant: Variant, event: PhaseResolved,
                      power: str | None) -> HistoryEntry:
    """``history_entry``, remembered (``Caches.history_entries``): a resolved phase never
    changes, so its entry for one viewer is the same on every request (views and the stream
    render them again and again). The entries handed out are shared: never change one."""
    key = (game_id, variant.name, event.phase, power)
    entry = caches.history_entries.get(key)
    if entry is None:
        entry = history_entry(variant, event, power)
        caches.history_entries.put(key, entry, MEMORY_PER_ENTRY_JSON_BYTE * len(orjson.dumps(entry)))
    return entry


def history_entry(variant: Variant, event: PhaseResolved, power: str | None) -> HistoryEntry:
    """One resolved phase as ``power`` (None: the public) may see it: the variant's
    ``history_view`` of it, each order also structured, and ``position``: the board it was
    played from, as the variant's ``view`` showed it to the same viewer then."""
    entry = variant.history_view(event.model_dump(mode="json"), power)
    orders: dict[str, list[StructuredResult]] = {
        owner: [{**result, "structured": variant.describe_order(result["order"], event.phase, owner)}
                for result in results]
        for owner, results in entry.get("orders", {}).items()}
    return {**entry, "orders": orders, "position": variant.view(event.position_before, power)}
