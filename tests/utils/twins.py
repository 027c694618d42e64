"""What twin games are compared by (tests/games/test_ekonia_http_twins.py,
tests/services/visibility/test_hidden_write_twins.py): a stream's text with each event id's view
digest checked and then named as such, and any text with the game's own id and codenames named
by what they stand for, so that two twins' bytes differ only where what a viewer sees differs."""
from __future__ import annotations

import json
import re

from services.visibility.cursors import cursor_key, view_digest
from shared.auth import hash_token
from tests.utils.http import OPERATOR_TOKEN, HostedGame

TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(\+00:00|Z)?")


def ids_checked(stream: str) -> str:
    """The stream's text with each event id's view digest checked to be the keyed digest of
    the view the frame sends (cursors.py) and then named as such: an id then depends only on what
    the frames show, which the twins compare (their bytes differ by the game's id alone)."""
    key = cursor_key(hash_token(OPERATOR_TOKEN))
    blocks = []
    for block in stream.split("\n\n"):
        lines = block.split("\n")
        ids = [line for line in lines if line.startswith("id: ")]
        data = [line for line in lines if line.startswith("data: ")]
        if ids:
            count, _, digest = ids[0][4:].partition(".")
            # a first frame is the whole view with its history page as history_added (docs/social.md)
            view = data[0][6:].replace('"history_reset":true,"history_added":', '"history":', 1) if data else ""
            assert data and digest == view_digest(key, view.encode()), block[:200]
            lines = [f"id: {count}.<digest of the view sent>" if line in ids else line for line in lines]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def named_alike(game: HostedGame, text: str) -> str:
    """``text`` with the game's own id and codenames named by what they stand for; the
    summary's list of codenames (sorted by their random names) then as a sorted list of those."""
    text = text.replace(game.game_id, "<game>")
    if game.client.base_url.host == "127.0.0.1":  # a served game (entente serve): wall-clock times
        text = TIME.sub("<time>", text)
    names = sorted(player.codename for player in game.players)
    placeholders = sorted(f"<codename of {p.powers[0]}>" for p in game.players)
    for write in (lambda v: json.dumps(v, separators=(",", ":")), json.dumps, repr):
        text = text.replace(write(names), write(placeholders))
    for player in game.players:
        text = text.replace(player.codename, f"<codename of {player.powers[0]}>")
    return text
