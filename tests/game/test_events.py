"""The event catalogue: records round-trip, old schema versions are upcast, unknown types refused."""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from shared.events import (
    AdjudicatedOrder,
    DislodgedRecord,
    GameCreated,
    GameFinished,
    GameSettings,
    GameStarted,
    OrdersSubmitted,
    PhaseResolved,
    PlayerJoined,
    UnknownEvent,
    from_recorded,
    to_new_event,
)
from shared.store import RecordedEvent

DOCUMENT: dict[str, object] = {"variant": "standard", "phase": "S1901M", "units": {"FRANCE": ["A PAR"]},
                            "centers": {"FRANCE": ["PAR"]}}
EXAMPLES = [
    GameCreated(game_id="g_1", variant="standard", name="Zürich – Ærø", settings=GameSettings(edition="2023"),
                host_token_hash="a" * 64),
    PlayerJoined(player_id="p_1", codename="Amber Falcon", token_hash="b" * 64),
    # one power given alone is read as a seat of one (a version 1 shape)
    GameStarted.model_validate({"seed": 2**62, "powers": {"p_1": "FRANCE"}, "phase": "S1901M", "position": DOCUMENT,
                                "must_act": ["FRANCE"]}),
    OrdersSubmitted(phase="S1901M", power="FRANCE", player_id="p_1", orders=["A PAR - BUR"]),
    PhaseResolved(phase="S1901M", position_before=DOCUMENT,
                  orders={"FRANCE": [AdjudicatedOrder(order="A PAR - BUR", result="succeeds")]},
                  dislodged=[DislodgedRecord(power="FRANCE", unit="A PAR", attacker_from="BUR", retreats=["GAS"])],
                  position=DOCUMENT, next_phase="F1901M", must_act=["FRANCE"], engine_version="1"),
    GameFinished(reason="victory", winners=["FRANCE"], phase="F1910M"),
]


def recorded(event_type: str, data: dict[str, Any], schema_version: int = 1) -> RecordedEvent:
    return RecordedEvent(stream_id="game-g_1", version=1, position=1, type=event_type,
                         schema_version=schema_version, data=data, metadata={},
                         recorded_at=datetime.now(UTC))


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: e.type)
def test_events_round_trip_through_records(event) -> None:
    new = to_new_event(event, {"actor": "host"})
    assert new.type == event.type and "type" not in new.data and new.metadata == {"actor": "host"}
    assert from_recorded(recorded(new.type, new.data, new.schema_version)) == event


def test_old_schema_versions_are_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Say PlayerJoined v1 stored the codename as ``alias``: a v2 reader gets it through ``upcast``."""

    def upcast(cls, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        if from_version < 2:
            data = dict(data)
            data["codename"] = data.pop("alias")
        return data

    monkeypatch.setattr(PlayerJoined, "SCHEMA_VERSION", 2)
    monkeypatch.setattr(PlayerJoined, "upcast", classmethod(upcast))
    old = recorded("PlayerJoined", {"player_id": "p_1", "alias": "Quiet Otter", "token_hash": "c" * 64})
    assert from_recorded(old) == PlayerJoined(player_id="p_1", codename="Quiet Otter", token_hash="c" * 64)
    assert to_new_event(from_recorded(old)).schema_version == 2


def test_unknown_and_malformed_records_are_refused() -> None:
    with pytest.raises(UnknownEvent, match="GameExploded"):
        from_recorded(recorded("GameExploded", {}))
    with pytest.raises(ValueError):
        from_recorded(recorded("PlayerJoined", {"player_id": "p_1"}))
