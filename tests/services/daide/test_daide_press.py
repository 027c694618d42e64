"""DAIDE press at level 10 on a real ``entente daide``, on both back ends: HLO says LVL 10 where
players may send press; SND is answered YES and reaches only its recipients as FRM, signed by
power; the press is the game's own messages (players over HTTP read it, and a player who writes
level-10 press over HTTP reaches a DAIDE seat); press beyond level 10 is HUH; a gunboat game
says LVL 0 and refuses SND.
"""
from __future__ import annotations

import asyncio

import httpx

from shared.store import EventStore
from tests.conftest import open_store
from tests.utils.daide_client import DaideClient, tree
from tests.utils.daide_server import entente_daide, seated_game
from tests.utils.http import bearer

SEATS = {"FRANCE": "FRA", "ENGLAND": "ENG", "GERMANY": "GER"}


async def joined(client: DaideClient, credential: str) -> str:
    """Join; the HLO the server sends."""
    await client.hello()
    client.send(f"NME ('{credential}') ('press bot')")
    await client.until("MAP")
    client.send("YES (MAP ('STANDARD'))")
    seen = await client.turn()
    return next(m for m in seen if m.startswith("HLO"))


async def nothing_more(client: DaideClient) -> list[str]:
    """What else the client is sent in the next second (the press it should not see)."""
    got: list[str] = []
    try:
        while True:
            got.append(await client.receive(timeout=1.0))
    except TimeoutError:
        return got


async def test_level_10_press_between_daide_seats_and_players(store_url: str, client: httpx.AsyncClient) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store)
        with entente_daide(store_url) as served:
            seats = {power: await DaideClient.connect(served.port) for power in SEATS}
            hellos = await asyncio.gather(*(joined(seats[p], game.credentials[p]) for p in SEATS))
            for hlo in hellos:
                assert ["LVL", 10] in tree(hlo)[3]
            france, england, germany = seats["FRANCE"], seats["ENGLAND"], seats["GERMANY"]

            france.send("SND (ENG) (PRP (PCE (FRA ENG)))")
            assert await france.receive() == "YES (SND (ENG) (PRP (PCE (FRA ENG))))"
            assert await england.receive(timeout=10) == "FRM (FRA) (ENG) (PRP (PCE (FRA ENG)))"
            england.send("SND (SPR 1901) (FRA) (YES (PRP (PCE (FRA ENG))))")  # the form with a turn
            assert (await england.receive()).startswith("YES (SND (SPR 1901)")
            assert await france.receive(timeout=10) == "FRM (ENG) (FRA) (YES (PRP (PCE (FRA ENG))))"
            assert await nothing_more(germany) == []  # not a recipient: told nothing

            # beyond level 10, or not press at all: HUH, nothing sent
            germany.send("SND (FRA) (XDO ((GER AMY MUN) MTO BUR))")
            assert (await germany.receive()).startswith("HUH (SND (FRA) ERR")
            germany.send("SND (GER) (PRP (PCE (GER FRA)))")  # only to oneself
            assert (await germany.receive()).startswith("ADM")
            assert (await germany.receive()).startswith("REJ (SND")

            # over HTTP: the players read the press as the game's messages, signed by power
            england_token = game.credentials["ENGLAND"].partition("/")[2]
            germany_token = game.credentials["GERMANY"].partition("/")[2]
            read = await client.get(f"/games/{game.game_id}/messages", headers=bearer(england_token))
            assert read.status_code == 200, read.text
            texts = [(m["from"]["power"], m["text"]) for m in read.json()["messages"]]
            assert ("FRANCE", "PRP (PCE (FRA ENG))") in texts and ("ENGLAND", "YES (PRP (PCE (FRA ENG)))") in texts
            theirs = await client.get(f"/games/{game.game_id}/messages", headers=bearer(germany_token))
            assert theirs.json()["messages"] == []

            # a player writing level-10 press over HTTP reaches the DAIDE seat; free text does not
            for text in ("shall we talk?", "PRP (ALY (ENG FRA) VSS (GER))"):
                sent = await client.post(f"/games/{game.game_id}/messages", headers=bearer(england_token),
                                         json={"to": ["FRANCE"], "text": text})
                assert sent.status_code == 201, sent.text
            assert await france.receive(timeout=10) == "FRM (ENG) (FRA) (PRP (ALY (ENG FRA) VSS (GER)))"
            for seat in seats.values():
                await seat.close()
    finally:
        await store.close()


async def test_a_gunboat_game_plays_press_level_0(store_url: str) -> None:
    store: EventStore = await open_store(store_url)
    try:
        game = await seated_game(store, press="none")
        with entente_daide(store_url) as served:
            france = await DaideClient.connect(served.port)
            hlo = await joined(france, game.credentials["FRANCE"])
            assert ["LVL", 0] in tree(hlo)[3]
            france.send("SND (ENG) (PRP (PCE (FRA ENG)))")
            assert (await france.receive()).startswith("ADM")
            assert await france.receive() == "REJ (SND (ENG) (PRP (PCE (FRA ENG))))"
            await france.close()
    finally:
        await store.close()
