"""The DAIDE documents' words where field clients met other answers (docs/bots.md), on a real
``entente daide``: map names are not case sensitive, PCE of one power is press, a bot without
press answers FRM with HUH (ERR ...) and TRY (), tokens dropped in a later revision are no EM,
an echo of a 64 kB or deeply nested message is still an answer, SIGTERM during a SUB stops
cleanly; and the pure rules behind the notes and the summary.
"""
from __future__ import annotations

import asyncio
import struct
from dataclasses import replace
from datetime import timedelta

import pytest

from services.daide.messages import smr_message
from services.daide.orders import asks_what_rules_do
from services.daide.server import STOP_SECONDS
from shared.events import GameSettings, PhaseResolved
from shared.game.repository import read_game
from shared.game.state import GameState
from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient, dm, tree, units_in, written
from tests.utils.daide_server import entente_daide, seated_game
from tests.utils.processes import stop


async def joined(client: DaideClient, credential: str, map_name: str = "STANDARD") -> str:
    await client.hello()
    client.send(f"NME ('{credential}') ('protocol bot')")
    await client.until("MAP")
    client.send(f"YES (MAP ('{map_name}'))")
    return (await client.turn())[-2]


async def test_the_documents_words_are_taken_and_big_or_deep_echoes_are_answered(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as served:
            france, england, russia = [await DaideClient.connect(served.port) for _ in range(3)]
            await joined(france, game.credentials["FRANCE"])
            await joined(england, game.credentials["ENGLAND"])
            now = await joined(russia, game.credentials["RUSSIA"], map_name="standard")  # names: any case
            assert now.startswith("NOW (SPR 1901)")

            # a bot without press answers FRM as the document prescribes: both are sent on
            france.send("SND (ENG) (PRP (PCE (FRA ENG)))")
            assert await france.receive() == "YES (SND (ENG) (PRP (PCE (FRA ENG))))"
            assert await england.receive(timeout=10) == "FRM (FRA) (ENG) (PRP (PCE (FRA ENG)))"
            england.send("SND (FRA) (HUH (ERR PRP (PCE (FRA ENG))))")
            assert await england.receive() == "YES (SND (FRA) (HUH (ERR PRP (PCE (FRA ENG)))))"
            england.send("SND (FRA) (TRY ())")
            assert await england.receive() == "YES (SND (FRA) (TRY ()))"
            assert await france.receive(timeout=10) == "FRM (ENG) (FRA) (HUH (ERR PRP (PCE (FRA ENG))))"
            assert await france.receive(timeout=10) == "FRM (ENG) (FRA) (TRY ())"

            # peace with one power is press (the document sets no least number)
            russia.send("SND (FRA) (PRP (PCE (RUS)))")
            assert await russia.receive() == "YES (SND (FRA) (PRP (PCE (RUS))))"
            assert await france.receive(timeout=10) == "FRM (RUS) (FRA) (PRP (PCE (RUS)))"

            # tokens a later revision dropped (PPT, UOM) are tokens still: no EM 0x0E, the seat plays on
            france.send("SND (ENG) (TRY (PRP PCE PPT UOM))")
            assert await france.receive() == "YES (SND (ENG) (TRY (PRP PCE PPT UOM)))"
            assert await england.receive(timeout=10) == "FRM (FRA) (ENG) (TRY (PRP PCE PPT UOM))"

            # a message of nearly 64 kB the server cannot follow: HUH, its echo cut to fit a frame
            france.raw(dm(" ".join(["BUR"] * 32767)))
            huh = await france.receive()
            assert huh.startswith("HUH (ERR BUR BUR") and huh.endswith(")")
            # brackets that never close, nearly 64 kB of them: PRN, cut to fit
            france.raw(dm(" ".join([")"] * 32767)))
            assert (await france.receive()).startswith("PRN ())))")
            # nesting far deeper than any message of the syntax: HUH up to where it went too deep
            france.raw(dm("NOT " + "(" * 2000 + "GOF" + ")" * 2000))
            deep = tree(await france.receive())
            assert deep[0] == "HUH" and "ERR" in str(deep)
            # and the connection stays, the seat plays
            france.send("SUB " + " ".join(f"({written(u)} HLD)" for u in units_in(now, "FRA")))
            thx = [await france.receive() for _ in range(3)]
            assert all(m.endswith("(MBV)") for m in thx), thx
            for client in (france, england, russia):
                await client.close()
    finally:
        await store.close()


async def test_sigterm_during_a_sub_stops_without_a_traceback(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as served:
            clients = [await DaideClient.connect(served.port) for _ in range(7)]
            nows = await asyncio.gather(*(joined(c, game.credentials[p])
                                          for c, p in zip(clients, sorted(game.credentials), strict=True)))
            for client, power, now in zip(clients, sorted(game.credentials), nows, strict=True):
                code = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA",
                        "RUSSIA": "RUS", "TURKEY": "TUR"}[power]
                client.send("SUB " + " ".join(f"({written(u)} HLD)" for u in units_in(now, code)))
            await asyncio.sleep(0.05)
            # SIGTERM's documented way out: the messages in hand, then the watchers, each given
            # STOP_SECONDS (a busy CI machine took the 10 s this allowed before)
            stop(served.process, timeout=2 * STOP_SECONDS + 5)
            said = served.process.stderr.read() if served.process.stderr else ""
            for client in clients:
                await client.close()
        assert served.process.returncode == 0, said
        assert "Traceback" not in said, said
        state = await read_game(store, game.game_id)
        assert state is not None
    finally:
        await store.close()


@pytest.mark.postgres
async def test_a_clock_longer_than_daides_integers_is_told_again_once_it_fits(postgres_url: str) -> None:
    """A 137-minute clock is 8,220 seconds: HLO says MTL 8191 and the new turn TME (8191); once
    the time left fits a DAIDE integer (the game started 15 s ago: some 14 s later), the server
    says TME again."""
    store: EventStore = await open_store(postgres_url)
    try:
        game = await seated_game(store, movement_minutes=137, started_ago=timedelta(seconds=15))
        with entente_daide(postgres_url) as served:
            client = await DaideClient.connect(served.port)
            await client.hello()
            client.send(f"NME ('{game.credentials['FRANCE']}') ('clock bot')")
            await client.until("MAP")
            client.send("YES (MAP ('STANDARD'))")
            told = await client.turn()
            hlo = tree(next(m for m in told if m.startswith("HLO")))
            assert ["MTL", 8191] in hlo[3]
            assert told[-1] == "TME (8191)"
            again = tree((await client.until("TME", timeout=60))[-1])[1][0]
            assert 8100 < again <= 8191
            await client.close()
    finally:
        await store.close()


# ----------------------------------------------------------------------------- the pure rules

def test_an_order_that_asks_what_the_rules_do_anyway_is_mbv() -> None:
    # WVE from a power owed a build with no free home centre (nothing to order): MBV
    assert asks_what_rules_do(["AUS", "WVE"], "AUSTRIA", "adjustments", 1, [])
    assert not asks_what_rules_do(["AUS", "WVE"], "AUSTRIA", "adjustments", 0, [])
    assert not asks_what_rules_do(["AUS", "WVE"], "AUSTRIA", "movement", 1, [])
    assert not asks_what_rules_do(["ENG", "WVE"], "AUSTRIA", "adjustments", 1, [])
    # DSB of a dislodged unit whose retreats are MRT (): MBV; of another unit: not
    assert asks_what_rules_do([["FRA", "AMY", "BUR"], "DSB"], "FRANCE", "retreats", 0, ["A BUR"])
    assert not asks_what_rules_do([["FRA", "AMY", "PAR"], "DSB"], "FRANCE", "retreats", 0, ["A BUR"])
    assert not asks_what_rules_do([["FRA", "AMY", "BUR"], "DSB"], "FRANCE", "movement", 0, ["A BUR"])


def test_the_summary_after_a_solo_names_the_turn_that_was_played() -> None:
    """A solo won in an autumn: the game's phase moved on to the winter nobody played; SMR names
    the autumn. A draw voted in a turn names that turn."""
    board: dict[str, object] = {"phase": "W1901A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]},
                                "dislodged": {}}
    fall = PhaseResolved.model_construct(phase="F1901M", position=board, position_before=board, orders={},
                                         dislodged=[], next_phase="W1901A", must_act=[], engine_version="test")
    state = GameState(game_id="g_x", variant="standard", name="x", settings=GameSettings(), host_token_hash="",
                      status="finished", phase="W1901A", position=board, winners=["FRANCE"],
                      finish_reason="victory")
    assert tree(_written(smr_message(state, [fall])))[1] == ["FAL", 1901]
    drawn = replace(state, winners=[], finish_reason="draw", phase="S1902M", position={**board, "phase": "S1902M"})
    assert tree(_written(smr_message(drawn, [fall])))[1] == ["SPR", 1902]


def _written(items: list) -> str:
    from services.daide.syntax import render
    return render(items)


def test_no_frame_is_longer_than_its_length_field() -> None:
    from services.daide.syntax import message
    huge = message(["HUH", ["ERR", *["BUR"] * 40000]])
    assert struct.unpack(">BxH", huge[:4])[1] == len(huge) - 4 <= 0xFFFF
