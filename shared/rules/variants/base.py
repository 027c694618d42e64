"""What the platform needs from a variant's rules, in JSON documents at the boundary.

The hosted game stores each variant's full state as a JSON document inside its events, so the
platform (lobby, order intake, resolution, replay, views) talks to every variant through this
one small protocol and never imports a variant's engine directly. Each implementation is a
thin adapter over a pure engine: no I/O, no clock; randomness only from the ``seed`` given.

The protocol is generic over the variant's own state and its document (``VariantOf[StateT,
DocumentT]``, as boardgame.io's ``Game<G>``): ``read_state`` is where a stored JSON document
becomes the engine's typed value (the standard game's ``Position``, Tale of Ekonia's
``position.Ekonia``) and ``write_state`` where it becomes JSON again. The platform holds
``Variant`` (``VariantOf[Any, Any]``): it stores the document and hands it back, and reads what
it needs of a position from the variant's answers (``view``, ``surviving``, ...), never by
indexing the document (docs/architecture.md,
"What crosses the rules' boundary").
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from .documents import (
    HistoryView,
    MapData,
    MenuGroup,
    OrderCheckAnswer,
    OrderResult,
    PositionView,
    RulesSettings,
    StructuredOrder,
)

PhaseKind = Literal["movement", "retreats", "adjustments"]
StateT = TypeVar("StateT")  # a variant's own state, as its engine computes on it
DocumentT = TypeVar("DocumentT")  # the JSON document that state is stored as (a TypedDict)


class UnknownVariant(ValueError):
    """A variant name that no registered variant answers to."""


class UnsupportedPlayerCount(ValueError):
    """A number of players the variant does not seat, said in the variant's own words: the lobby
    answers it 422 ``unsupported_player_count`` at ``body.settings.player_count`` (any other
    ValueError of ``check_settings`` is ``unsupported_setting``)."""


@dataclass(frozen=True, slots=True)
class Opening(Generic[DocumentT]):
    """A new game: its first phase, the full state document, the seats, who acts.

    ``seats`` lists the powers each player takes: one power a seat in a full standard game,
    several in the small games (docs/rules/standard.md: "Four: England; Austria and France; ..."). The
    platform draws which player gets which seat from the game's stored seed.
    """

    phase: str
    state: DocumentT
    seats: list[list[str]]
    must_act: list[str]
    # powers nobody plays at first that a seat takes over later: (POWER, seat index, phase),
    # e.g. ("ITALY", 1, "S1915M") in the two-player game
    joins: tuple[tuple[str, int, str], ...] = ()

    @property
    def powers(self) -> list[str]:
        return sorted(p for seat in self.seats for p in seat)


@dataclass(frozen=True, slots=True)
class OrderCheck:
    """One submitted text, accepted in canonical notation or rejected with the reason."""

    text: str
    accepted: bool
    order: str | None = None
    reason: str | None = None
    where: str | None = None  # the word the parser stumbled on
    expected: tuple[str, ...] = ()

    def as_json(self) -> OrderCheckAnswer:
        if self.accepted:
            return {"text": self.text, "status": "accepted", "order": self.order}
        body: OrderCheckAnswer = {"text": self.text, "status": "rejected", "reason": self.reason}
        if self.where is not None:
            body["word"] = self.where
        if self.expected:
            body["expected"] = list(self.expected)
        return body


@dataclass(frozen=True)
class PhaseOutcome(Generic[DocumentT]):
    """A resolved phase: everything a PhaseResolved event stores.

    ``orders``: POWER -> [{"order", "result", "reason"}] in submission order (plus any orders
    the rules gave, such as forced removals); ``details``: variant-specific facts such as
    dislodged units, dice rolls or espionage outcomes (the visibility policy decides who sees
    which).
    """

    phase: str
    orders: dict[str, list[OrderResult]]
    state: DocumentT
    next_phase: str
    must_act: list[str]
    winners: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


def every_order_and_dislodgement(resolved: Mapping[str, Any]) -> HistoryView:
    """A resolved phase as the standard and dirigible games show it to everyone: every
    power's orders and results, and the dislodged units (``history_view``)."""
    return {"phase": resolved["phase"], "orders": resolved.get("orders", {}),
            "dislodged": resolved.get("dislodged", []), "next_phase": resolved["next_phase"]}


class VariantOf(Protocol[StateT, DocumentT]):
    """Everything the platform asks of a game's rules. The platform decides nothing by reading
    a view: who survives, who must adjust and the kind of a phase are asked here. ``StateT``
    is the variant's own state and ``DocumentT`` the JSON document it is stored as (the board
    games' ``BoardDocument``, Tale of Ekonia's ``EkoniaState``); the platform passes the stored
    document, which the variant reads with ``read_state``."""

    name: str
    # game settings the lobby fills in when the creator leaves them out (player_count: the
    # number of seats of a full game)
    default_settings: RulesSettings
    # stored in each PhaseResolved; bumped when the same orders may give other results
    engine_version: str

    def read_state(self, document: DocumentT) -> StateT:
        """The state a stored document holds, as the variant's engine computes on it: the one
        place where JSON becomes the variant's own value."""

    def write_state(self, state: StateT) -> DocumentT:
        """A state as the platform stores it: JSON again (``read_state`` of it is the same state)."""

    def powers(self) -> list[str]:
        """Every power (state) of the variant's full table, sorted."""

    def seated(self, state: DocumentT) -> list[str]:
        """The powers of this game, playing or beaten, sorted: a small game's or a Tale of
        Ekonia game of fewer players has fewer than ``powers``."""

    def phase_kind(self, phase: str) -> PhaseKind:
        """What is done in ``phase``: movement (Ekonia's turns too), retreats or adjustments."""

    def phase_order(self, phase: str) -> tuple[int, ...]:
        """A key that sorts the variant's phase names in the order they are played."""

    def surviving(self, state: DocumentT) -> frozenset[str]:
        """The powers still in the game (a standard power with a unit or a centre left)."""

    def adjustments(self, state: DocumentT) -> dict[str, int]:
        """Builds allowed (positive) or removals owed (negative) per power in an adjustment
        phase; empty in every other phase."""

    def forced_only(self, state: DocumentT) -> frozenset[str]:
        """Powers whose only possible orders are forced (removing every unit they have): never
        waited for, never in civil disorder for missing a deadline."""

    def opening(self, settings: RulesSettings, seed: int) -> Opening[DocumentT]:
        """The state of a new game; ``seed`` is the game's stored secret seed."""

    def check_orders(self, state: DocumentT, power: str, texts: Sequence[str]) -> list[OrderCheck]:
        """Read and check one power's submission against the current state."""

    def resolve(self, state: DocumentT, orders: Mapping[str, Sequence[str]], *,
                settings: RulesSettings, seed: int,
                civil_disorder: frozenset[str] = frozenset()) -> PhaseOutcome[DocumentT]:
        """Resolve the current phase from stored canonical orders; pure and deterministic."""

    def possible_orders(self, state: DocumentT, power: str) -> dict[str, list[str]]:
        """Every order ``power`` could give now, as canonical texts, under the variant's own
        keys (a unit's place, a build site, ...)."""

    def order_menu(self, state: DocumentT, power: str) -> list[MenuGroup]:
        """``possible_orders`` as groups of structured orders, the same shape in every variant
        (structured.py): ``{"key", "kind": "unit" | "site" | "power", "unit", "location",
        "orders": [structured order, ...]}``."""

    def describe_order(self, text: str, phase: str, power: str) -> StructuredOrder:
        """A stored (canonical) order of ``power`` in ``phase`` as a structured value: ``text``,
        ``type``, ``unit``, ``to`` and the type's own keys (docs/api.md, "Structured orders");
        type ``unknown`` for a text that is no order."""

    def order_subject(self, text: str, phase: str, power: str) -> str | None:
        """What an order text, or a unit named alone (``A LVP``), is about: the key under which
        ``PATCH .../orders`` replaces a power's orders one at a time (a unit, a build site, a
        matter); None when the text names nothing the variant knows."""

    def view(self, state: DocumentT, viewer: str | None) -> PositionView:
        """What ``viewer`` (a power, or None for the public) may see of ``state``."""

    def history_view(self, resolved: Mapping[str, Any], viewer: str | None) -> HistoryView:
        """What ``viewer`` (a power, or None) may see of a resolved phase: ``resolved`` is a
        PhaseResolved event as JSON; the answer has phase, orders, dislodged, next_phase and
        optionally details."""

    def check_settings(self, settings: RulesSettings) -> None:
        """Raise ValueError, saying why, for settings this variant cannot be played with; for a
        ``player_count`` it does not seat, UnsupportedPlayerCount."""

    def adjudicate_document(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """The ``entente adjudicate`` contract for this variant."""

    def map_data(self) -> MapData:
        """Everything a frontend needs to draw and check the board, as JSON (docs/maps.md):
        ``variant``, ``board`` (the drawing it is played on: ``standard``, ``ekonia``),
        ``unit_types``, the powers with their colours, the places, the adjacency, the opening
        position, and whatever else the variant's map has."""


Variant = VariantOf[Any, Any]  # a variant as the platform holds it: whatever its state, read only by it
