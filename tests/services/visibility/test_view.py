"""The visibility projection as a pure function of the log and the viewer."""
from __future__ import annotations

from services.adjudication.service import opening
from services.visibility.view import Viewer, view
from shared.events import Event, GameCreated, GameSettings, GameStarted, OrdersSubmitted, PlayerJoined
from shared.game.adjudicate import adjudicate_phase
from shared.game.state import fold

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def started_log() -> list[Event]:
    first = opening("standard", GameSettings(), seed=987654321)
    phase, document, must_act = first.phase, first.state, first.must_act
    log: list[Event] = [GameCreated(game_id="g_1", variant="standard", name="Test", settings=GameSettings(),
                       host_token_hash="h" * 64)]
    log += [PlayerJoined(player_id=f"p_{i}", codename=f"Codename {i}", token_hash=f"{i}" * 64) for i in range(7)]
    log.append(GameStarted(seed=987654321, powers={f"p_{i}": [power] for i, power in enumerate(POWERS)},
                           phase=phase, position=document, must_act=must_act))
    return log


def submitted(power: str, orders: list[str], phase: str = "S1901M") -> OrdersSubmitted:
    return OrdersSubmitted(phase=phase, power=power, player_id=f"p_{POWERS.index(power)}", orders=orders)


def test_a_power_sees_only_its_own_latest_pending_orders() -> None:
    log = started_log() + [submitted("FRANCE", ["A PAR - PIC"]), submitted("ENGLAND", ["F LON - NTH"]),
                           submitted("FRANCE", ["A PAR - BUR", "A MAR S A PAR - BUR"])]
    france = view(log, Viewer("power", "FRANCE"))
    assert france["orders"] == {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]}
    assert france["viewer"]["power"] == "FRANCE"
    assert view(log, Viewer("power", "ENGLAND"))["orders"] == {"ENGLAND": ["F LON - NTH"]}
    assert view(log, Viewer("power", "ITALY"))["orders"] == {}
    assert view(log, Viewer.public())["orders"] == {}
    assert view(log, Viewer("operator"))["orders"] == {"ENGLAND": ["F LON - NTH"],
                                                       "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"]}


def test_no_view_leaks_hashes_or_player_ids() -> None:
    log = started_log() + [submitted("FRANCE", ["A PAR - BUR"])]
    for viewer in (Viewer("power", "FRANCE"), Viewer.public(), Viewer("operator")):
        text = str(view(log, viewer))
        assert "h" * 64 not in text and "p_2" not in text and "1" * 64 not in text
        assert "987654321" not in text  # nor the seed


def test_the_position_and_codenames() -> None:
    shown = view(started_log(), Viewer.public())
    assert shown["game"]["phase"] == "S1901M" and shown["game"]["status"] == "active"
    assert shown["powers"]["ITALY"] == {"codename": "Codename 4", "house_bot": False, "daide": False,
                                        "house_bot_since": None, "missed": 0, "civil_disorder": False}
    assert shown["position"] is not None
    assert set(shown["position"]["units"]["RUSSIA"]) == {"A MOS", "A WAR", "F SEV", "F STP/SC"}
    assert shown["position"]["centres"]["TURKEY"] == ["ANK", "CON", "SMY"]
    assert shown["must_act"] == POWERS and shown["history"] == []


def test_resolved_phases_show_everyones_orders_and_results() -> None:
    log = started_log()
    state = fold(log)
    position = state.position
    assert position is not None  # the game has started
    orders = {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]}
    log += [submitted("FRANCE", ["A PAR - BUR"]), submitted("GERMANY", ["A MUN - BUR"]),
            adjudicate_phase(state, position, orders),
            submitted("GERMANY", ["A MUN - BUR"], phase="F1901M")]
    for viewer in (Viewer("power", "ENGLAND"), Viewer.public()):
        shown = view(log, viewer)
        assert shown["game"]["phase"] == "F1901M"
        history = shown["history"][0]
        assert history["phase"] == "S1901M"
        # a standoff in Burgundy, in everyone's history
        assert history["orders"]["FRANCE"] == [{"order": "A PAR - BUR", "result": "fails", "reason": "bounced at BUR",
                                                "structured": {"text": "A PAR - BUR", "type": "move", "unit": "A PAR",
                                                               "to": "BUR", "via_convoy": False}}]
        assert [(r["order"], r["result"]) for r in history["orders"]["GERMANY"]] == [("A MUN - BUR", "fails")]
        # the board the phase was played from
        assert history["position"]["phase"] == "S1901M" and "A PAR" in history["position"]["units"]["FRANCE"]
        assert shown["orders"] == {}  # Germany's fall orders stay hidden
    assert view(log, Viewer("power", "GERMANY"))["orders"] == {"GERMANY": ["A MUN - BUR"]}


def test_a_seated_player_before_the_start() -> None:
    log = started_log()[:4]
    shown = view(log, Viewer("public", None, "Codename 1"))
    assert shown["game"]["status"] == "forming" and shown["position"] is None
    assert shown["viewer"]["codename"] == "Codename 1" and shown["powers"] == {}
