"""A DAIDE seat's orders go the one way in every order goes (shared/game/intake.py): the same
orders given over DAIDE (each power in two SUBs and then GOF, some saying NOT (GOF) first)
and over the HTTP API give the same event log, no phase resolves while a seat has not said
GOF, a SUB reads the store no more than an HTTP PUT does beside the read of the game, and a
seat owed only forced removals is waited for.
The DAIDE sessions run in this process (services/daide/session.py, as the server's connection
hands them each message), on both back ends.
"""
from __future__ import annotations

from functools import partial

import httpx

from services.cli.daide import build_desk
from services.daide.board import turn, unit
from services.daide.desk import Desk
from services.daide.press import read_written
from services.daide.session import Session
from services.daide.syntax import Item, Text
from services.daide.watch import Hub
from shared.game.repository import read_game
from shared.rules.bots.reading import holdings
from shared.store import EventStore
from tests.conftest import open_store
from tests.games.test_civil_disorder import WINTER
from tests.services.daide.test_daide_matches_http import CODES, drawn_orders, play_http_phase, resolved_phases
from tests.utils.counted_store import count_sessions, counted
from tests.utils.daide_server import seated_game
from tests.utils.http import Host, start_at, started_table

PHASES = 7  # 1901 and the spring and autumn of 1902: moves, retreats, builds


async def seat(hub: Hub, credential: str, sent: list[list[Item]]) -> Session:
    session = Session(hub, sent.append, lambda: None, "127.0.0.1")
    await session.handle(["NME", [Text(credential)], [Text("intake test")]])
    await session.handle(["YES", ["MAP", [Text("STANDARD")]]])
    return session


async def told(session: Session) -> None:
    """The client has been told the current turn (its NOW) and sends what follows having seen it."""
    await session.catch_up()
    session.read_at_turn()


def items_of(written: list[str]) -> list[Item]:
    found = [read_written(order) for order in written]
    assert all(f is not None and len(f) == 1 for f in found), written
    return [f[0] for f in found if f is not None]


async def phase_of(store: EventStore, game_id: str) -> str:
    state = await read_game(store, game_id)
    assert state is not None
    return f"{state.phase}/{state.status}"


async def test_orders_in_two_subs_and_a_gof_give_the_event_log_a_put_gives(store_url: str,
                                                                           client: httpx.AsyncClient) -> None:
    store = await open_store(store_url)
    hub = Hub(store, build_desk())
    try:
        game = await seated_game(store)
        table = await started_table(client, settings={})  # the defaults, as seated_game's
        sent: dict[str, list[list[Item]]] = {power: [] for power in CODES}
        sessions = {power: await seat(hub, game.credentials[power], sent[power]) for power in CODES}
        for number in range(PHASES):
            state = await read_game(store, game.game_id)
            assert state is not None and state.position is not None
            if state.status != "active":
                break
            phase, position = str(state.phase), dict(state.position)
            drawn = {p: drawn_orders(position, p, number) for p in state.must_act}
            acting = sorted(p for p, (_, daide) in drawn.items() if daide)
            for power in acting:
                await told(sessions[power])
                if CODES[power] < "GER":  # Austria, England, France hold the turn first
                    await sessions[power].handle(["NOT", ["GOF"]])
                    assert sent[power][-1][0] == "YES", sent[power][-1]
            for index, power in enumerate(sorted(acting, reverse=True)):  # Austria, holding the turn, last
                last, held = index == len(acting) - 1, CODES[power] < "GER"
                orders = items_of(drawn[power][1])
                first, second = orders[: len(orders) // 2 + 1], orders[len(orders) // 2:]  # one unit in both
                await sessions[power].handle(["SUB", turn(phase), *first])
                await sessions[power].handle(["SUB", turn(phase), *second])
                assert not [m for m in sent[power] if m[0] in ("REJ", "HUH")], sent[power]
                if held or not last:  # complete orders are done, unless NOT (GOF) held the turn
                    assert await phase_of(store, game.game_id) == f"{phase}/active", power
                await sessions[power].handle(["GOF"])
                if held or not last:
                    assert sent[power][-1] == ["YES", ["GOF"]], sent[power][-3:]
                if not last:
                    assert await phase_of(store, game.game_id) == f"{phase}/active", power
            assert await phase_of(store, game.game_id) != f"{phase}/active"  # the last seat done resolved it
            await play_http_phase(table, {p: ours for p, (ours, _) in drawn.items()})
            assert await phase_of(store, table.game_id) == await phase_of(store, game.game_id)
        over_daide = await resolved_phases(store, game.game_id)
        over_http = await resolved_phases(store, table.game_id)
    finally:
        for session in sessions.values():
            session.close()
        await hub.settle(5)
        await store.close()
    assert len(over_daide) >= PHASES - 1
    assert over_daide == over_http
    assert {p["phase"][-1] for p in over_daide} >= {"M", "A"}


async def test_a_sub_reads_the_game_once_and_never_the_phases_submissions(store_url: str) -> None:
    store = await open_store(store_url)
    hub = Hub(store, build_desk())
    try:
        game = await seated_game(store)
        sent: list[list[Item]] = []
        sessions = {power: await seat(hub, game.credentials[power], sent) for power in CODES}
        state = await read_game(store, game.game_id)
        assert state is not None and state.position is not None
        units = holdings(state.position, "units")
        count_sessions(store)
        for power in sorted(CODES)[:-1]:  # Turkey never orders: nothing resolves
            await told(sessions[power])
            for again, given in enumerate((units[power][:-1], units[power][-1:])):  # a SUB, then one more
                sent.clear()
                orders: list[Item] = [[unit(power, u), "HLD"] for u in given]
                message: list[Item] = ["SUB", *orders]
                counts = await counted(partial(sessions[power].handle, message))
                assert [m[0] for m in sent] == ["THX"] * len(given) + ["MIS"] * (again == 0), sent
                # one read of the game (its stream after this process's cached version) and the checked
                # append, which hands back the phase's submissions: before, about six reads of the game
                # and five of the submissions in up to four sessions
                assert counts.sessions <= 2, (power, again, counts)
                assert counts.read_count <= 2 and not counts.reads.get("read_streams"), (power, again, counts)
        assert await phase_of(store, game.game_id) == "S1901M/active"
    finally:
        for session in sessions.values():
            session.close()
        await hub.settle(5)
        await store.close()


async def test_a_seat_owed_only_forced_removals_is_waited_for_and_its_sub_rem_counts(host: Host) -> None:
    """Italy must remove its one unit (it has no centre): the winter waits for its SUB (… REM)
    as for anyone's, and that SUB resolves it (before, the phase resolved without it and the
    SUB arrived in the next one)."""
    game = await start_at(host, WINTER, ["FRANCE", "GERMANY", "ITALY"], retreat_minutes=30)
    hub = Hub(host.store, Desk(now=host.clock.now))
    sent: list[list[Item]] = []
    italy = await seat(hub, f"{game.game_id}/{game.player('ITALY').token}", sent)
    try:
        await told(italy)
        await game.order_ok("GERMANY", ["A BER D", "A BUR D"])
        assert (await game.order_ok("FRANCE", ["A PAR B"]))["resolved"] is False
        assert "ITALY" in (await game.summary())["waiting_for"]
        await italy.handle(["SUB", [["ITA", "AMY", "TUS"], "REM"]])
        assert ["THX", [["ITA", "AMY", "TUS"], "REM"], ["MBV"]] in sent, sent
        winter = (await game.resolutions())[-1]
        assert winter["phase"] == "W1902A" and winter["civil_disorder"] == []
        assert [o["order"] for o in winter["orders"]["ITALY"]] == ["A TUS D"]
    finally:
        italy.close()
        await hub.settle(5)
