"""When a DAIDE seat is done, as the syntax document has it (docs/bots.md, "When a DAIDE seat is
done"), with seven real clients on a real ``entente daide``: the go flag is set by default, so
a seat whose orders are complete is done; NOT (GOF) holds the turn until that seat's GOF (or
the deadline); GOF is accepted whatever is stored; a SUB or GOF meant for a turn that has been
processed is REJ and never counts for the next one; a SUB naming a turn is checked.
"""
from __future__ import annotations

import asyncio

from shared.events import OrdersSubmitted, PhaseResolved, from_recorded
from shared.game.repository import read_game
from shared.rules.bots.reading import holdings
from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient, dm, units_in, written
from tests.utils.daide_server import entente_daide, seated_game

CODES = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA", "RUSSIA": "RUS",
         "TURKEY": "TUR"}
# a move for each power's first unit in the turns played, so a lost revision shows in the log
SPRING = {"AUS": "((AUS AMY VIE) MTO GAL)", "ENG": "((ENG FLT LON) MTO NTH)", "FRA": "((FRA AMY PAR) MTO BUR)",
          "GER": "((GER AMY MUN) MTO RUH)", "ITA": "((ITA AMY VEN) MTO PIE)", "RUS": "((RUS AMY WAR) MTO UKR)",
          "TUR": "((TUR AMY CON) MTO BUL)"}


async def joined(client: DaideClient, credential: str) -> str:
    """Join; the NOW of the first turn."""
    await client.hello()
    client.send(f"NME ('{credential}') ('turn bot')")
    await client.until("MAP")
    client.send("YES (MAP ('STANDARD'))")
    return (await client.turn())[-2]


def holds(now: str, code: str) -> list[str]:
    return [f"({written(u)} HLD)" for u in units_in(now, code)]


async def log_of(store: EventStore, game_id: str) -> list[PhaseResolved]:
    events = [from_recorded(r) for r in await store.events.read_stream(f"game-{game_id}")]
    return [e for e in events if isinstance(e, PhaseResolved)]


async def test_every_seat_that_says_gof_after_its_subs_has_its_last_orders_counted(store_url: str) -> None:
    """Each turn every client sends SUB then GOF; France, Germany and Russia send NOT (GOF)
    first and then a second SUB that revises the first (a hold turned into a move); Austria and
    Italy order in two partial SUBs. No turn resolves with a seat's orders missing or its
    revision lost, and no GOF or SUB counts for another turn."""
    store = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as served:
            clients = {code: await DaideClient.connect(served.port) for code in CODES.values()}
            codes = list(CODES.values())
            nows = dict(zip(codes, await asyncio.gather(
                *(joined(clients[c], game.credentials[p]) for p, c in CODES.items())), strict=True))

            async def play_turn(code: str, now: str) -> str:
                client = clients[code]
                standing = holds(now, code)
                move = SPRING[code] if now.startswith("NOW (SPR 1901)") else standing[0]
                final = [move, *(h for h in standing if not h.startswith(move.split(")")[0] + ")"))]
                if code in ("FRA", "GER", "RUS"):
                    client.send("NOT (GOF)")
                    client.send("SUB " + " ".join(standing))  # every unit holds: complete, but held back
                    client.send("SUB " + final[0])  # the revision
                elif code in ("AUS", "ITA"):
                    client.send("SUB " + final[0])
                    client.send("SUB " + " ".join(final[1:]))
                else:
                    client.send("SUB " + " ".join(final))
                client.send("GOF")
                told = await client.turn(timeout=60)
                # a GOF read after the SUB that completed the turn may come too late: REJ, never the next turn's
                assert [m for m in told if m.startswith("REJ")] in ([], ["REJ (GOF)"]), told
                assert ("YES (NOT (GOF))" in told) == (code in ("FRA", "GER", "RUS"))
                return told[-2]

            for _ in range(2):  # SPR 1901 and FAL 1901
                nows = dict(zip(codes, await asyncio.gather(*(play_turn(c, nows[c]) for c in codes)),
                                strict=True))
            for client in clients.values():
                await client.close()
        resolved = await log_of(store, game.game_id)
        streams = await store.events.read_streams(f"orders-{game.game_id}-")
    finally:
        await store.close()
    assert [e.phase for e in resolved[:2]] == ["S1901M", "F1901M"]
    for event in resolved[:2]:
        assert event.civil_disorder == [], event.phase
        for power in CODES:
            given = [o.order for o in event.orders[power]]
            assert len(given) == len(holdings(event.position_before, "units")[power]), (event.phase, power, given)
            written_down = [from_recorded(r) for r in streams[f"orders-{game.game_id}-{event.phase}-{power}"]]
            # every write was the seat's own orders for this turn: no GOF meant for another wrote an empty set
            assert all(isinstance(e, OrdersSubmitted) and e.orders for e in written_down), (event.phase, power)
    for power in CODES:  # the spring's move survived: the revision after NOT (GOF), the second partial SUB
        assert any(" - " in o.order for o in resolved[0].orders[power]), power


async def test_not_gof_holds_the_turn_until_gof_and_a_gof_names_the_last_now(store_url: str) -> None:
    store = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as served:
            clients = {code: await DaideClient.connect(served.port) for code in CODES.values()}
            nows = dict(zip(CODES.values(), await asyncio.gather(
                *(joined(clients[c], game.credentials[p]) for p, c in CODES.items())), strict=True))
            # England's orders are complete (it is done), then it says NOT (GOF): no longer done
            england = clients["ENG"]
            england.send("SUB " + " ".join(holds(nows["ENG"], "ENG")))
            england.send("NOT (GOF)")
            assert (await england.until("YES", timeout=20))[-1] == "YES (NOT (GOF))"
            # Turkey says GOF before any SUB: accepted, and its units are left as at a deadline
            turkey = clients["TUR"]
            turkey.send("GOF")
            assert await turkey.receive() == "YES (GOF)"
            for code in ("AUS", "FRA", "GER", "ITA", "RUS"):
                clients[code].send("SUB " + " ".join(holds(nows[code], code)))
            for code in ("AUS", "FRA", "GER", "ITA", "RUS"):
                await clients[code].until("THX")  # its orders are stored
            # everyone else is done; England's NOT (GOF) holds the turn
            await asyncio.sleep(1.0)
            state = await read_game(store, game.game_id)
            assert state is not None and state.phase == "S1901M"
            england.send("GOF")
            fall = await england.turn(timeout=30)
            assert "YES (GOF)" in fall and fall[-2].startswith("NOW (FAL 1901)")
            # a turn named in SUB is checked: the spring is past
            england.send("SUB (SPR 1901) ((ENG FLT LON) HLD)")
            assert (await england.receive()).startswith("ADM")
            assert await england.receive() == "REJ (SUB (SPR 1901) ((ENG FLT LON) HLD))"
            england.send("SND (SPR 1901) (FRA) (PRP (PCE (ENG FRA)))")
            assert (await england.receive()).startswith("ADM")
            assert (await england.receive()).startswith("REJ (SND (SPR 1901)")
            # the current turn named: THX as for any SUB, never THX for the turn itself
            england.send("SUB (FAL 1901) " + " ".join(holds(fall[-2], "ENG")))
            thx = [await england.receive() for _ in units_in(fall[-2], "ENG")]
            assert all(m.startswith("THX ((ENG") and m.endswith("(MBV)") for m in thx), thx
            # France's SUB that completes the fall and its GOF come in one read: the GOF was sent
            # before France could hear of the next turn, so it never counts for the next turn. It
            # is REJ when the fall was resolved before the GOF was handled, YES (for the fall) when
            # a busy machine handled it first; either way nothing is written for the spring
            nows = {code: (await clients[code].turn(timeout=30))[-2] for code in CODES.values() if code != "ENG"}
            for code in ("AUS", "GER", "ITA", "RUS", "TUR"):
                clients[code].send("SUB " + " ".join(holds(nows[code], code)))
            for code in ("AUS", "GER", "ITA", "RUS", "TUR"):
                await clients[code].until("THX")  # its orders are stored: France's SUB is the last
            france = clients["FRA"]
            france.raw(dm("SUB " + " ".join(holds(nows["FRA"], "FRA"))) + dm("GOF"))
            told = await france.turn(timeout=30)
            while "REJ (GOF)" not in told and "YES (GOF)" not in told:  # the answer may follow the new turn
                told.append(await france.receive(timeout=30))
            assert any(m.startswith("NOW (SPR 1902)") for m in told), told
            await asyncio.sleep(0.5)
            state = await read_game(store, game.game_id)
            assert state is not None and state.phase == "S1902M"
            assert await store.events.read_stream(f"orders-{game.game_id}-S1902M-FRANCE") == []
            for client in clients.values():
                await client.close()
        resolved = await log_of(store, game.game_id)
    finally:
        await store.close()
    spring = resolved[0]
    assert "TURKEY" not in spring.civil_disorder  # its GOF said it was done
    assert [o.order for o in spring.orders["ENGLAND"]] and spring.phase == "S1901M"


async def test_a_seat_joined_before_the_start_is_told_hlo_and_plays(store_url: str) -> None:
    from services.lobby.service import start_game

    store = await open_store(store_url)
    try:
        game = await seated_game(store, start=False)
        credential = next(iter(game.credentials.values()))
        with entente_daide(store_url) as served:
            client = await DaideClient.connect(served.port)
            await client.hello()
            client.send(f"NME ('{credential}') ('early bot')")
            await client.until("MAP")
            client.send("YES (MAP ('STANDARD'))")
            await start_game(store, game.game_id)
            told = await client.turn(timeout=30)
            hlo = next((m for m in told if m.startswith("HLO")), None)
            assert hlo is not None, told
            code = hlo.split("(")[1].split(")")[0]
            client.send("SUB " + " ".join(holds(told[-2], code)))
            answers = [await client.receive() for _ in units_in(told[-2], code)]
            assert all(a.endswith("(MBV)") for a in answers), answers
            await client.close()
        state = await read_game(store, game.game_id)
        power = next(p for p, c in CODES.items() if c == code)
        records = await store.events.read_stream(f"orders-{game.game_id}-S1901M-{power}")
        stored = [from_recorded(r) for r in records]
    finally:
        await store.close()
    assert state is not None and state.phase == "S1901M"
    assert isinstance(stored[-1], OrdersSubmitted) and stored[-1].complete  # orders and go flag: one append


async def test_phases_only_house_bots_play_are_each_told_with_now(store_url: str) -> None:
    """One DAIDE seat among house bots that holds every unit: winter 1901 is the bots' alone
    (they build, it has nothing to build), resolved at once; the client still hears each
    turn's NOW before the turn's ORD."""
    from services.lobby.service import create_game, join_game, settings_for, start_game

    store = await open_store(store_url)
    try:
        settings = settings_for("standard", {"house_bot": "heuristic", "bots_fill_empty_seats": True})
        created = await create_game(store, name="bots", variant="standard", settings=settings)
        seat = await join_game(store, created.state.game_id)
        state = await start_game(store, created.state.game_id)
        power = state.powers_of(seat.player_id)[0]
        with entente_daide(store_url) as served:
            client = await DaideClient.connect(served.port)
            now = await joined(client, f"{created.state.game_id}/{seat.token}")
            heard = [now]
            code = CODES[power]
            while not now.startswith(("NOW (SPR 1902)", "NOW (FAL 1902)")):
                if not now.startswith(("NOW (SPR", "NOW (FAL")):
                    client.send("GOF")  # a retreat or a removal, if any, as at a deadline
                elif units_in(now, code):
                    client.send("SUB " + " ".join(holds(now, code)))  # hold everything
                # up to the TME of the turn it must play: the turns bots played alone come before
                told = await client.until("TME", timeout=60)
                heard += told
                now = [m for m in told if m.startswith("NOW")][-1]
            await client.close()
    finally:
        await store.close()
    announced: set[str] = set()
    for message in heard:
        if message.startswith("NOW ("):
            announced.add(message[5:13])
        if message.startswith("ORD ("):
            assert message[5:13] in announced, f"ORD before the NOW of its turn: {message}"
    assert "WIN 1901" in announced
