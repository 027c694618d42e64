"""Rows of the notifications outbox for the store's tests."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from shared.store import NewNotification

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def planned(key: str, *, game_id: str = "g1", player_id: str = "p1", kind: str = "phase_resolved",
            phase: str | None = "S1901M", due: datetime = NOW, source: int = 1) -> NewNotification:
    return NewNotification(dedupe_key=key, game_id=game_id, player_id=player_id, kind=kind, phase=phase,
                           url=f"https://hooks.example/{player_id}", payload={"content": f"about {key} 🙂"},
                           not_before=due, source_position=source, created_at=NOW - timedelta(minutes=1))
