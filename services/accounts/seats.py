"""An account's seats and what each owes, as a list (``GET /me/games``) and as one live stream
for all of them (``GET /me/stream``): docs/social.md, "API keys".

The stream is state, not history: it opens with one ``seat`` event per seat (the very entry
``/me/games`` lists), then sends a seat's entry again whenever it changes (a new phase, a
deadline moved, a power done ordering or writing again, a game joined), and a keep-alive comment
every ``KEEP_ALIVE_SECONDS``. Each entry says which of the seat's own writes it reflects
(``writes``: per power, how many writes of the phase, orders and ready flags, its power's order
stream held when the entry was computed), so that a bot can tell an entry computed before its
latest write from one after it: only the seat's own writes are counted, nothing of the log that
the seat may not see. A client that reconnects gets every seat again, so it needs no
cursor. The log is followed with one ``LogTail`` per connection: an event recomputes only the
seats of the games it belongs to (its stream's game id), and an event of the account's own
stream re-reads the account (a seat joined; the credential revoked: ``event: closed``).
"""
from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypedDict

from shared import credentials
from shared.errors import DomainError, ErrorCode, TooManyRequests
from shared.events_social import account_stream
from shared.game.log import phase_submissions
from shared.game.state import GameState, Status
from shared.game.waiting import order_status
from shared.http.dependencies import load_game
from shared.http.stream_leases import shared_streams
from shared.store import EventStore, RecordedEvent

KEEP_ALIVE_SECONDS = 15.0
MAX_STREAM_SECONDS = 300.0
RETRY_MILLISECONDS = 2000
KEEP_ALIVE = b": keep-alive\n"

class OwedJSON(TypedDict, total=False):
    """What a seat owes in its game now (``owed``): nothing outside an active phase."""

    deadline: str | None
    must_act: list[str]  # its powers that must act
    waiting_for: list[str]  # those the phase waits for
    submitted: list[str]  # those done ordering
    writes: dict[str, int]  # the events in each power's order stream for the phase


class Seat(OwedJSON):
    """One seat of an account as ``/me/games`` lists it (``MySeat``, api.py)."""

    game_id: str
    name: str
    status: Status
    phase: str | None
    player_id: str
    codename: str
    power: str | None
    powers: list[str]


async def seat_of(store: EventStore, game_id: str, player_id: str) -> Seat | None:
    """One seat of the account as ``/me/games`` lists it (None: the game or seat is gone)."""
    try:
        game = await load_game(store, game_id)
    except DomainError:
        return None
    seat = game.seat(player_id)
    if seat is None:
        return None
    powers = game.powers_of(player_id)
    return {"game_id": game_id, "name": game.name, "status": game.status, "phase": game.phase,
            "player_id": player_id, "codename": seat.codename, "power": powers[0] if powers else None,
            "powers": powers, **await owed(store, game, powers)}


async def owed(store: EventStore, game: GameState, powers: list[str]) -> OwedJSON:
    """What the seat owes in its game now: its powers that must act, those the phase waits for."""
    if game.status != "active" or not game.phase:
        return {}
    submissions = await phase_submissions(store, game.game_id, game.phase)
    status = order_status(game, submissions)
    mine = set(powers)
    return {"deadline": game.clock()["deadline"], "must_act": [p for p in game.must_act if p in mine],
            "waiting_for": [p for p in status["waiting_for"] if p in mine],
            "submitted": [p for p in status["submitted"] if p in mine],
            "writes": {p: submissions[p].writes if p in submissions else 0 for p in powers}}


async def seats_of(store: EventStore, account: credentials.Account, games: set[str] | None = None) -> list[Seat]:
    """The account's seats (only those in ``games``, when given), by game id."""
    found = []
    for game_id, player_id in sorted(account.seats.items()):
        if games is None or game_id in games:
            seat = await seat_of(store, game_id, player_id)
            if seat is not None:
                found.append(seat)
    return found


def game_of_stream(stream_id: str) -> str | None:
    """The game a stream of the log belongs to (``game-``, ``orders-``, ``press-`` ... ``{id}``
    or ``orders-{id}-{phase}-{POWER}``): game ids are ``g_`` and a token of URL-safe letters."""
    _, _, rest = stream_id.partition("-")
    game_id = rest.split("-", 1)[0] if rest.startswith("g_") else ""
    return game_id or None


def touched(events: list[RecordedEvent], account: credentials.Account) -> tuple[set[str], bool]:
    """The account's games the events belong to, and whether its own stream changed."""
    own = account_stream(account.account_id)
    games = {g for e in events if (g := game_of_stream(e.stream_id)) is not None and g in account.seats}
    return games, any(e.stream_id == own for e in events)


def seat_frame(seat: Seat) -> bytes:
    return b"event: seat\ndata: " + json.dumps(seat, separators=(",", ":")).encode() + b"\n\n"


def closed_frame(reason: str) -> bytes:
    return b'event: closed\ndata: {"reason":"' + reason.encode("ascii") + b'"}\n\n'


Recheck = Callable[[], Awaitable[credentials.Account | None]]
RETRY_AFTER_SECONDS = 30


class OpenStreams:
    """How many ``/me/stream`` connections each account holds open in this process: at most
    ``ENTENTE_STREAM_MAX_PER_VIEWER`` (as for one seat's game streams; 0: no limit), one more
    is 429 ``too_many_streams`` before anything is opened (each connection follows the log on
    its own, so they are not free). ``take_stream`` counts them in the store's leases too, for
    every process."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def take(self, account_id: str) -> Callable[[], None]:
        """A place for one more stream of the account; the function that gives it back (once)."""
        if self.limit and self.open.get(account_id, 0) >= self.limit:
            raise account_full(self.limit)
        self.open[account_id] = self.open.get(account_id, 0) + 1
        given_back = False

        def give_back() -> None:
            nonlocal given_back
            if not given_back:
                given_back = True
                left = self.open.get(account_id, 0) - 1
                if left > 0:
                    self.open[account_id] = left
                else:
                    self.open.pop(account_id, None)

        return give_back


def account_full(limit: int) -> TooManyRequests:
    return TooManyRequests(f"{limit} streams of this account are open already: close one (or wait for one to end) "
                           "before opening another", retry_after=RETRY_AFTER_SECONDS, code=ErrorCode.TOO_MANY_STREAMS,
                           where="header.authorization")


async def take_stream(app: Any, store: EventStore, account_id: str) -> Callable[[], None]:
    """A place for one more ``/me/stream`` of the account, in this process and in the store's
    leases for every process; the function that gives both back (once). Else 429."""
    local = open_streams(app)
    done = local.take(account_id)
    if not local.limit:
        return done
    shared = shared_streams(app, store)
    try:
        lease = await shared.take(f"account:{account_id}", local.limit)
    except BaseException:
        done()
        raise
    if lease is None:
        done()
        raise account_full(local.limit)
    given_back = False

    def give_back() -> None:
        nonlocal given_back
        if not given_back:
            given_back = True
            done()
            shared.release(lease)

    return give_back


def open_streams(app: Any) -> OpenStreams:
    """The app's counts, made with its settings the first time."""
    found: OpenStreams | None = getattr(app.state, "account_streams", None)
    if found is None:
        found = app.state.account_streams = OpenStreams(app.state.settings.stream_max_per_viewer)
    return found


async def seat_stream(store: EventStore, account: credentials.Account, recheck: Recheck,
                      seconds: float, done: Callable[[], None]) -> AsyncIterator[bytes]:
    """The SSE bytes of one ``/me/stream`` connection, for ``seconds`` (``recheck``: the
    account behind the request's credential now, None once it is no longer valid; ``done``
    called at the end)."""
    try:
        async for chunk in _frames(store, account, recheck, seconds):
            yield chunk
    finally:
        done()


async def _frames(store: EventStore, account: credentials.Account, recheck: Recheck,
                  seconds: float) -> AsyncIterator[bytes]:
    ends = time.monotonic() + seconds
    sent: dict[str, Seat] = {}
    # the reconnection delay goes out in the first block that is sent, never in a block of its
    # own (httpx-sse hands one on as an event with no data); a keep-alive is a comment line with
    # no blank line after it, which no client dispatches (docs/social.md, "API keys")
    retry = b"retry: %d\n" % RETRY_MILLISECONDS
    async with store.tail(await store.events.head()) as tail:
        games: set[str] | None = None  # None: every seat
        while True:
            for seat in await seats_of(store, account, games):
                if sent.get(seat["game_id"]) != seat:
                    sent[seat["game_id"]] = seat
                    yield retry + seat_frame(seat)
                    retry = b""
            remaining = ends - time.monotonic()
            if remaining <= 0:
                return
            events = await tail.next(min(remaining, KEEP_ALIVE_SECONDS))
            if not events:
                yield retry + KEEP_ALIVE
                retry = b""
                games = set()
                continue
            games, own = touched(events, account)
            if own:
                again = await recheck()
                if again is None:
                    yield closed_frame("revoked")
                    return
                games |= set(again.seats) - set(account.seats)
                account = again
