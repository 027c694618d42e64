"""One DAIDE client's conversation once its IM is in: joining a game as a seat (NME, IAM) or
watching one (OBS), the map, and the diplomacy messages, answered through the hosted game's
own service functions (docs/bots.md); a seat's SUB, GOF and NOT (GOF) are ordering.py's.
Transport-free: ``send`` writes one message, ``close`` ends the connection;
services/daide/server.py does the bytes.
"""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shared.events import EventMetadata
from shared.game import intake
from shared.game.commands import Player, SendPress, VoteDraw
from shared.game.log import phase_submissions
from shared.game.phases import resolved_phases
from shared.game.repository import full_state, read_game, with_recent_history
from shared.game.state import GameState

from . import ordering
from .board import (
    MAP_NAME,
    POWER_CODES,
    POWER_NAMES,
    centres_of,
    dislodged_of,
    map_message,
    mdf_message,
    now_message,
    our_unit,
    phase_now,
    phase_of,
    sco_message,
    units_of,
)
from .desk import submitted_of
from .grants import Grant
from .messages import MAX_SECONDS, ending_messages, hlo_message, mis_message, ord_messages
from .press import is_press, level_of
from .seats import record_taken, seat_by_name, seat_of, take_back
from .syntax import Item, Text, render, texts_of

if TYPE_CHECKING:
    from .watch import Hub

log = logging.getLogger("entente.daide")
MAX_FAILED_JOINS = 3  # NME or IAM refusals before the connection is closed
# press tokens a client may not send as messages of their own (press travels inside SND)
PRESS = {"PRP", "FRM", "PCE", "ALY", "DMZ", "SUG", "QRY", "FCT", "THK", "INS"}


class Session:
    def __init__(self, hub: Hub, send: Callable[[list[Item]], None], close: Callable[[], None],
                 address: str, port: int | None = None, port_game: str | None = None) -> None:
        self.hub, self.send, self._close, self.address = hub, send, close, address
        # a game's own port (services/daide/ports.py) and its game; None: the one port for every game
        self.port, self.port_game = port, port_game
        self.game_id: str | None = None
        self.player_id: str | None = None
        self.grant: Grant | None = None  # the credential the seat was taken with (services/daide/grants.py)
        self.power: str | None = None
        self.observer = False
        self.map_accepted = False
        self.passcode = secrets.randbelow(8190) + 1
        # this connection's id in the log's DaideSeatTaken, and that event's position (the
        # seat's holders on other processes taken before it are sent OFF: services/daide/watch.py)
        self.connection = secrets.token_hex(8)
        self.taken_at = 0
        self.failed_joins = 0
        self.closed = False
        # how far this client has been told about the game (the watcher moves these on)
        self.started = False
        self.seen_resolved = 0
        self.seen_phase: str | None = None  # the turn of the last NOW sent
        # the turn of the last NOW sent before the bytes now being handled were read: the turn
        # the client can have seen when it sent them (a GOF names none: docs/bots.md)
        self.client_phase: str | None = None
        self.seen_centres: Any = None
        self.seen_disorder: set[str] = set()
        self.ended = False
        self.time_marks: set[int] = set()
        self.marks_sent: set[tuple[str, int]] = set()
        # the go flag this client set for a turn (GOF: True, NOT (GOF): False); unset, a seat
        # is done once its orders are complete (docs/bots.md, "When a DAIDE seat is done")
        self.go_flag: tuple[str, bool] | None = None
        # a turn whose TME said 8191 (DAIDE's largest integer) for a longer time: told again
        # once the time left fits
        self.exact_time_due: str | None = None

    # ------------------------------------------------------------------------- plumbing

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.hub.leave(self)
            self._close()

    def admin(self, text: str) -> None:
        """An ADM from the server: how it tells a client why (DAIDE's REJ carries no reason)."""
        self.send(["ADM", [Text("Entente")], [Text(text[:200])]])

    def huh(self, items: list[Item], at: int = 0) -> None:
        """HUH (message) with ERR before the token at ``at``."""
        self.send(["HUH", [*items[:at], "ERR", *items[at:]]])

    def reject(self, items: list[Item], why: str | None = None) -> None:
        if why:
            self.admin(why)
        self.send(["REJ", items])

    def read_at_turn(self) -> None:
        """The connection read more of the client's bytes: they were sent having seen at most
        the turns told so far."""
        self.client_phase = self.seen_phase

    @property
    def joined(self) -> bool:
        return self.game_id is not None

    async def state(self) -> GameState | None:
        return await read_game(self.hub.store, self.game_id) if self.game_id else None

    # ------------------------------------------------------------------------- dispatch

    async def handle(self, items: list[Item]) -> None:
        head = items[0] if items else None
        args = items[1:]
        if not isinstance(head, str):
            self.huh(items)
            return
        handler = getattr(self, f"_on_{head.lower()}", None)
        if head in PRESS:
            self.huh(items)
        elif handler is None:
            self.huh(items)
        else:
            await handler(items, args)

    # ------------------------------------------------------------------------- joining

    async def _on_nme(self, items: list[Item], args: list[Item]) -> None:
        texts = texts_of(args)
        if texts is None or len(texts) != 2:
            self.huh(items, 1)
            return
        if self.joined:
            self.reject(items, "this connection has joined a game already")
            return
        found = (await seat_of(self.hub, texts[0]) if self.port_game is None  # on a game's port: any name
                 else await seat_by_name(self.hub, self.port_game, self.address))
        if found is None:
            self._refused(items, "name a seat's credential in NME: 'g_GAME/PLAYER_TOKEN' or a bot token")
            return
        if isinstance(found, str):
            self._refused(items, found)
            return
        state, grant = found
        if (why := _refusal(state)) is not None:
            self._refused(items, why)
            return
        await self._take_seat(items, state, grant)

    async def _take_seat(self, items: list[Item], state: GameState, grant: Grant) -> None:
        player_id = grant.player_id
        powers = state.powers_of(player_id)
        if len(powers) > 1:
            self._refused(items, "this seat plays several powers; DAIDE seats play one")
            return
        self.game_id, self.player_id, self.grant = state.game_id, player_id, grant
        self.power = powers[0] if powers else None
        self.taken_at = await record_taken(self.hub, state.game_id, player_id, self.connection)
        await self.hub.hold(self)
        self.hub.join(self)
        self.send(["YES", items])
        self.send(map_message())
        log.info("daide seat joined", extra={"game_id": state.game_id, "address": self.address})

    def _refused(self, items: list[Item], why: str) -> None:
        self.failed_joins += 1
        self.reject(items, why)
        if self.failed_joins >= MAX_FAILED_JOINS:
            self.send(["OFF"])
            self.close()

    async def _on_iam(self, items: list[Item], args: list[Item]) -> None:
        if (len(args) != 2 or not isinstance(args[0], list) or len(args[0]) != 1 or args[0][0] not in POWER_NAMES
                or not isinstance(args[1], list) or len(args[1]) != 1 or not isinstance(args[1][0], int)):
            self.huh(items, 1)
            return
        if self.joined:
            self.reject(items, "this connection has joined a game already")
            return
        taken = await take_back(self.hub, POWER_NAMES[str(args[0][0])], int(args[1][0]), self.address, self.port,
                                self.port_game)
        if isinstance(taken, str):
            self._refused(items, taken)
            return
        state, held = taken
        self.passcode = int(args[1][0])  # the seat's passcode: the one its HLO told
        await self._take_seat(items, state, held.grant)
        if self.power is not None:
            self.map_accepted = True
            await self.catch_up()

    async def _on_obs(self, items: list[Item], args: list[Item]) -> None:
        texts = texts_of(args)
        if texts is None or len(texts) > 1:
            self.huh(items, 1)
            return
        if self.joined:
            self.reject(items, "this connection has joined a game already")
            return
        named = texts[0] if texts else self.port_game
        if self.port_game is not None and named != self.port_game:
            named = None  # a game's port shows its own game only
        state = await read_game(self.hub.store, named) if named and named.startswith("g_") else None
        if state is None:
            self._refused(items, "name the game to watch: OBS ('g_...')")
            return
        if state.variant != "standard":
            self._refused(items, f"the {state.variant} game has no DAIDE representation; standard games only")
            return
        self.game_id, self.observer = state.game_id, True
        self.hub.join(self)
        self.send(["YES", items])
        self.send(map_message())

    async def _on_map(self, items: list[Item], args: list[Item]) -> None:
        if not self.joined:
            self.reject(items, "join a game first (NME or OBS)")
        else:
            self.send(map_message())

    async def _on_mdf(self, items: list[Item], args: list[Item]) -> None:
        self.send(mdf_message(self.hub.map_data))

    async def _on_yes(self, items: list[Item], args: list[Item]) -> None:
        offer = args[0] if len(args) == 1 and isinstance(args[0], list) and len(args[0]) == 2 else None
        named = offer[1] if offer is not None and offer[0] == "MAP" else None
        if (isinstance(named, list) and len(named) == 1 and isinstance(named[0], Text)
                and named[0].value.upper() == MAP_NAME and self.joined):  # names are not case sensitive
            self.map_accepted = True
            await self.catch_up()
        else:
            self.reject(items)

    async def _on_rej(self, items: list[Item], args: list[Item]) -> None:
        if len(args) == 1 and isinstance(args[0], list) and args[0][:1] == ["MAP"]:
            self.send(["OFF"])
            self.close()
        else:
            self.reject(items)

    # ------------------------------------------------------------------------- telling the game

    async def catch_up(self, state: GameState | None = None) -> None:
        """Tell the client what it has not been told yet: the start (HLO, SCO, NOW), the
        phases resolved since (ORD), the new phase (SCO, NOW), civil disorder (CCD), the end."""
        if self.closed or not self.map_accepted or not self.joined:
            return
        async with self.hub.lock_of(self):
            state = state or await self.state()
            if state is None or state.status == "forming":
                return
            if not self.started:
                if state.status == "finished":
                    self.started = True
                    self.seen_resolved = state.resolved_count
                else:
                    await self._start(state)
            if state.resolved_count > self.seen_resolved:
                recent = await with_recent_history(self.hub.store, state)
                new = state.resolved_count - self.seen_resolved
                events = recent.resolved[-new:] if new <= len(recent.resolved) else recent.resolved
                for index, event in enumerate(events):
                    for message in ord_messages(event):
                        self.send(message)
                    if index < len(events) - 1:  # a turn played at once (house bots): its board too
                        self._board(event.position, None)
                self.seen_resolved = state.resolved_count
            if state.status == "active" and state.phase != self.seen_phase and state.position is not None:
                self._board(state.position, self.hub.seconds_left(state))
            self._disorder(state)
            if state.status == "finished" and not self.ended:
                self.ended = True
                everything = await full_state(self.hub.store, state)
                for message in ending_messages(everything, everything.resolved):
                    self.send(message)
                self.hub.finished(self)

    async def _start(self, state: GameState) -> None:
        self.started = True
        self.seen_resolved = state.resolved_count
        if self.power is None and self.player_id is not None and len(state.powers_of(self.player_id)) == 1:
            self.power = state.powers_of(self.player_id)[0]  # joined before the start: drawn at it
        if self.power is not None:
            await self.hub.remember(self)  # kept before it is told: an IAM right after it finds it
            self.send(hlo_message(state, self.power, self.passcode))
        self.seen_disorder = set()

    def _board(self, position: dict[str, Any], left: float | None) -> None:
        """SCO when the centres changed, NOW, and TME (seconds) when the turn has a deadline."""
        centres = centres_of(position)
        if centres != self.seen_centres:
            self.send(sco_message(position, self.hub.centres))
            self.seen_centres = centres
        self.send(now_message(position))
        self.seen_phase = phase_now(position)
        if left is not None:
            self.send(["TME", [min(int(left), MAX_SECONDS)]])
            self.exact_time_due = self.seen_phase if left > MAX_SECONDS else None

    @property
    def timed(self) -> bool:
        """Whether the watcher's every beat may owe this client a TME."""
        return bool(self.time_marks) or self.exact_time_due is not None

    def _disorder(self, state: GameState) -> None:
        now = set(state.disorder) if state.status == "active" else set()
        for power in sorted(now - self.seen_disorder):
            self.send(["CCD", [POWER_CODES[power]]])
        for power in sorted(self.seen_disorder - now):
            self.send(["NOT", ["CCD", [POWER_CODES[power]]]])
        self.seen_disorder = now

    async def tick(self, state: GameState, now_seconds: float | None) -> None:
        """The watcher's beat: catch up, and TME (seconds) when a time mark is reached."""
        await self.catch_up(state)
        if now_seconds is None or not self.started or state.status != "active":
            return
        if self.exact_time_due == state.phase and now_seconds <= MAX_SECONDS:
            self.exact_time_due = None
            self.send(["TME", [int(now_seconds)]])
        for mark in sorted(self.time_marks):
            key = (str(state.phase), mark)
            if now_seconds <= mark and key not in self.marks_sent:
                self.marks_sent.add(key)
                self.send(["TME", [mark]])

    # ------------------------------------------------------------------------- asking about the game

    async def _playing(self, items: list[Item]) -> GameState | None:
        """The game, when this client holds a power of a game under way (REJ otherwise)."""
        state = await self.state()
        if state is None or self.power is None or not self.map_accepted:
            self.reject(items, "join a game as a power and accept its map first")
            return None
        if state.status != "active":
            self.reject(items, "the game is not under way")
            return None
        return state

    async def _on_hlo(self, items: list[Item], args: list[Item]) -> None:
        if (state := await self._playing(items)) is not None and self.power is not None:
            self.send(hlo_message(state, self.power, self.passcode))

    async def _on_sco(self, items: list[Item], args: list[Item]) -> None:
        state = await self.state()
        if state is None or state.position is None:
            self.reject(items, "no game under way on this connection")
        else:
            self.send(sco_message(state.position, self.hub.centres))

    async def _on_now(self, items: list[Item], args: list[Item]) -> None:
        state = await self.state()
        if state is None or state.position is None:
            self.reject(items, "no game under way on this connection")
        else:
            self.send(now_message(state.position))

    async def _on_hst(self, items: list[Item], args: list[Item]) -> None:
        phase = phase_of(args[0]) if len(args) == 1 else None
        if phase is None:
            self.huh(items, 1)
            return
        state = await self.state()
        if state is None:
            self.reject(items, "join a game first")
            return
        # one phase from the cache of resolved phases HTTP's past reads share (shared/game/phases.py),
        # never a read of the whole log per message (docs/bots.md, "What is played")
        number = next((n for n, (name, _) in enumerate(state.resolved_index) if name == phase), None)
        found = (await resolved_phases(self.hub.store, state, number, number + 1)) if number is not None else []
        if not found:
            self.reject(items, f"{phase} has not been played")
            return
        for message in ord_messages(found[0]):
            self.send(message)

    async def _on_tme(self, items: list[Item], args: list[Item]) -> None:
        state = await self.state()
        if not args:
            left = self.hub.seconds_left(state) if state is not None else None
            if left is None:
                self.reject(items, "no deadline runs now")
            else:
                self.send(["TME", [min(int(left), MAX_SECONDS)]])
            return
        if len(args) != 1 or not isinstance(args[0], list) or len(args[0]) != 1 or not isinstance(args[0][0], int):
            self.huh(items, 1)
            return
        if len(self.time_marks) >= 8 or args[0][0] <= 0:
            self.reject(items, "at most 8 time marks, each a positive number of seconds")
            return
        self.time_marks.add(int(args[0][0]))
        self.send(["YES", items])

    # ------------------------------------------------------------------------- acting

    def _metadata(self) -> EventMetadata:
        return {"actor": "player", "player_id": self.player_id, "via": "daide"}

    async def _on_sub(self, items: list[Item], args: list[Item]) -> None:
        # the session's lock, which catch_up takes too: the THX and MIS of these orders go out
        # before the turn they may end, never after its ORD and NOW (docs/bots.md, "What is played")
        async with self.hub.lock_of(self):
            await ordering.submit(self, items, args)

    async def _missing(self, *, send_empty: bool = True) -> None:
        state = await self.state()
        if state is None or self.power is None or state.phase is None:
            return
        submitted = submitted_of(await phase_submissions(self.hub.store, state.game_id, state.phase), self.power)
        message = mis_message(state, self.power, submitted)
        if send_empty or message != ["MIS"]:
            self.send(message)

    async def _on_mis(self, items: list[Item], args: list[Item]) -> None:
        if await self._playing(items) is not None:
            await self._missing()

    async def _on_not(self, items: list[Item], args: list[Item]) -> None:
        inner = args[0] if len(args) == 1 and isinstance(args[0], list) and args[0] else None
        if inner == ["GOF"]:
            async with self.hub.lock_of(self):
                await ordering.go_flag(self, items, False)
        elif inner == ["DRW"]:
            await self._vote(items, False)
        elif inner is not None and inner[0] == "SUB":
            await self._clear(items, inner[1:])
        elif inner is not None and inner[0] == "TME":
            marks = inner[1:]
            if marks and isinstance(marks[0], list) and marks[0] and isinstance(marks[0][0], int):
                self.time_marks.discard(int(marks[0][0]))
            else:
                self.time_marks.clear()
            self.send(["YES", items])
        else:
            self.huh(items, 1)

    async def _clear(self, items: list[Item], orders: list[Item]) -> None:
        state = await self._playing(items)
        if state is None or self.power is None or self.game_id is None or self.player_id is None:
            return
        if orders and not all(isinstance(o, list) and o and isinstance(o[0], list) for o in orders):
            self.huh(items, 1)
            return
        position = state.position or {}
        named = [our_unit(o[0]) for o in orders if isinstance(o, list)]
        clear = ([found[1] for found in named if found is not None] if orders
                 else [*units_of(position, self.power), *(d["unit"] for d in dislodged_of(position, self.power))]
                 if position else [])
        if not clear:
            self.reject(items, "no unit of yours is named")
            return
        await ordering.clear(self, items, clear, state)

    async def _on_gof(self, items: list[Item], args: list[Item]) -> None:
        async with self.hub.lock_of(self):  # YES before the turn it may end, as for SUB
            await ordering.go_flag(self, items, True)

    async def _on_snd(self, items: list[Item], args: list[Item]) -> None:
        """SND [(turn)] (powers) (press): stored as a message of this seat's power to those
        powers, which the DAIDE seats among them are sent as FRM (docs/bots.md, "Press"); a
        turn that is not the current one is REJ."""
        named = args[1:] if len(args) == 3 else args
        if len(args) == 3 and phase_of(args[0]) is None:
            self.huh(items, 1)
            return
        if len(named) != 2 or not isinstance(named[0], list) or not named[0] \
                or not all(isinstance(p, str) and p in POWER_NAMES for p in named[0]):
            self.huh(items, 1)
            return
        if not isinstance(named[1], list) or not is_press(named[1]):
            self.huh(items, len(items) - 1)
            return
        state = await self._playing(items)
        if state is None or self.power is None or self.game_id is None or self.player_id is None:
            return
        if len(args) == 3 and phase_of(args[0]) != state.phase:
            self.reject(items, f"the turn is {state.phase}: press for another turn is not sent")
            return
        if level_of(state.settings.press) == 0:
            self.reject(items, "this is a gunboat game: no press")
            return
        recipients = sorted({POWER_NAMES[str(code)] for code in named[0]} - {self.power})
        surviving = set(state.surviving_powers())
        if not recipients:
            self.reject(items, "press needs a recipient other than yourself")
            return
        for power in recipients:
            if power not in surviving:
                self.send(["OUT", [POWER_CODES[power]]])
                return
            if power in state.disorder:
                self.send(["CCD", [POWER_CODES[power]]])
                return
        to: str | list[str] = recipients
        if state.settings.press == "public":
            if set(recipients) != surviving - {self.power}:
                self.reject(items, "this game allows public press only: send it to every other power")
                return
            to = "all"
        press = SendPress(self.game_id, Player(self.player_id), self.power, to, render(named[1]), self._metadata(),
                          self.hub.desk.now())
        if not await ordering.accepted(self, items, intake.send_press(self.hub.store, press)):
            return
        self.send(["YES", items])
        self.hub.poke(self.game_id)

    async def _on_drw(self, items: list[Item], args: list[Item]) -> None:
        """DRW: the draw of every surviving power; DRW (powers): a partial draw, in games with
        partial_draws (the intake's refusal, REJ, elsewhere: docs/bots.md, "Draws")."""
        named = args[0] if len(args) == 1 else None
        if len(args) > 1 or (args and (not isinstance(named, list) or not named
                                       or not all(isinstance(p, str) and p in POWER_NAMES for p in named))):
            self.huh(items, 1)
            return
        powers = sorted({POWER_NAMES[str(code)] for code in named}) if isinstance(named, list) else None
        await self._vote(items, True, powers)

    async def _vote(self, items: list[Item], in_favour: bool, powers: list[str] | None = None) -> None:
        state = await self._playing(items)
        if state is None or self.game_id is None or self.player_id is None:
            return
        vote = VoteDraw(self.game_id, Player(self.player_id), in_favour, self._metadata(), self.hub.desk.now(),
                        powers=powers)
        if not await ordering.accepted(self, items, intake.vote(self.hub.store, vote)):
            return
        self.send(["YES", items])
        self.hub.poke(self.game_id)

    async def _on_adm(self, items: list[Item], args: list[Item]) -> None:
        if texts_of(args) is None or len(args) != 2:
            self.huh(items, 1)
        else:
            self.reject(items, "admin messages from clients are not relayed (codenames only, press level 0)")


def _refusal(state: GameState) -> str | None:
    """Why a seat of this game cannot be played over DAIDE now, or None."""
    if state.variant != "standard":
        return f"the {state.variant} game has no DAIDE representation; standard games only"
    if state.status == "finished":
        return "this game is finished"
    return None
