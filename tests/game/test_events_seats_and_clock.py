"""The hosting events: GameStarted's version 2 (a list of powers per player) reads version 1
logs; every new event round-trips through the store's records."""
from __future__ import annotations

from datetime import UTC, datetime

from shared.events import (
    DeadlineExtended,
    DeadlineSet,
    DrawVoted,
    GamePaused,
    GameResumed,
    GameStarted,
    PowerJoin,
    ReadySet,
    from_recorded,
    to_new_event,
)
from shared.store.records import RecordedEvent

MOMENT = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def recorded(new, schema_version: int | None = None) -> RecordedEvent:
    return RecordedEvent("game-g_1", 1, 1, new.type, schema_version or new.schema_version, new.data,
                         new.metadata, MOMENT)


def test_a_version_1_game_started_is_read_as_seats_of_one_power() -> None:
    old = {"seed": 5, "powers": {"p_1": "FRANCE", "p_2": "ITALY"}, "phase": "S1901M",
           "position": {"phase": "S1901M"}, "must_act": ["FRANCE", "ITALY"]}
    record = RecordedEvent("game-g_1", 9, 9, "GameStarted", 1, old, {}, MOMENT)
    event = from_recorded(record)
    assert isinstance(event, GameStarted)
    assert event.powers == {"p_1": ["FRANCE"], "p_2": ["ITALY"]} and event.joins == []
    assert to_new_event(event).schema_version == 2


def test_hosting_events_round_trip() -> None:
    events = [
        GameStarted(seed=1, powers={"p_1": ["ENGLAND", "FRANCE", "RUSSIA"]}, phase="S1914M", position={},
                    must_act=["ENGLAND"], joins=[PowerJoin(power="ITALY", player_id="p_1", phase="S1915M")]),
        DeadlineSet(phase="S1901M", deadline=MOMENT, minutes=60),
        DeadlineExtended(phase="S1901M", minutes=5, deadline=MOMENT, by="host"),
        GamePaused(phase="S1901M", until=MOMENT, remaining_seconds=12.5, by="operator"),
        GameResumed(phase="S1901M", deadline=MOMENT, by="clock"),
        ReadySet(phase="S1901M", power="FRANCE", ready=True),
        DrawVoted(player_id="p_1", powers=["FRANCE"], vote=False, phase="S1901M"),
    ]
    for event in events:
        assert from_recorded(recorded(to_new_event(event))) == event
