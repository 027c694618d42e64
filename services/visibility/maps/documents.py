"""Pictures of ``entente adjudicate`` documents, before or after adjudication (``entente render``).

A document before adjudication is drawn as its position with its orders pending (read into
the canonical notation by the variant's own order check; a text the check rejects is left
out); one after adjudication (orders carrying results) as the position it produced, with the
phase's orders and their results and the units it dislodged. A Tale of Ekonia document holds
the whole state, and is drawn for an operator: the public map and every state's own section,
each taken from the variant's views of that state.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.rules.variants import Variant, get_variant, read_settings

from .board_svg import BoardPicture, DrawnOrder, Layers, board_layers
from .ekonia_svg import EkoniaPicture, ekonia_layers
from .geometry import geometry_for
from .pictures import map_data_of


def is_outcome(document: Mapping[str, Any]) -> bool:
    """Whether the document is an adjudication's output: its orders carry results."""
    orders = document.get("orders") or {}
    return isinstance(orders, Mapping) and any(
        isinstance(item, Mapping) and "result" in item for found in orders.values() if isinstance(found, list)
        for item in found)


def document_layers(document: Any, variant_name: str | None = None) -> Layers:
    """The picture of one document; ValueError (or KeyError, TypeError) for one the variant
    cannot read."""
    if not isinstance(document, Mapping):
        raise ValueError("the document must be a JSON object")
    name = variant_name or document.get("variant") or "standard"
    variant = get_variant(name)
    data = map_data_of(name)
    geometry = geometry_for(data["board"])
    if data["board"] == "ekonia":
        return ekonia_layers(data, geometry, _ekonia_picture(variant, document))
    return board_layers(data, geometry, _board_picture(variant, name, document))


def _board_picture(variant: Variant, name: str, doc: Mapping[str, Any]) -> BoardPicture:
    dislodged = [{"power": power, **item} for power, items in sorted((doc.get("dislodged") or {}).items())
                 for item in items]
    if is_outcome(doc):
        orders = [DrawnOrder(power, str(r.get("order", "")), str(r.get("result", "")), str(r.get("reason", "")))
                  for power, found in sorted(doc["orders"].items()) for r in found]
        title = f'{doc.get("phase", "")} to {doc.get("next_phase", "")}'
        caption = "Orders and results; units after"
        phase = doc.get("next_phase") or doc.get("phase")
    else:
        state = {**doc, "variant": name}
        orders = []
        for power, texts in sorted((doc.get("orders") or {}).items()):
            for check in variant.check_orders(state, power, list(texts)):
                if check.accepted and check.order:
                    orders.append(DrawnOrder(power, check.order))
        title, caption = str(doc.get("phase", "")), "Orders (not adjudicated)" if orders else ""
        phase = doc.get("phase")
        variant.view(state, None)  # the position must be one the variant reads
    return BoardPicture(title, phase, doc.get("units") or {}, doc.get("centers") or doc.get("centres") or {},
                        dislodged, orders, caption, doc.get("devastated") or ())


def _ekonia_picture(variant: Variant, doc: Mapping[str, Any]) -> EkoniaPicture:
    state = doc.get("state") or variant.opening(read_settings(doc.get("settings") or {}), int(doc.get("seed", 0))).state
    public = variant.view(state, None)
    own = [variant.view(state, power)["own"] for power in variant.seated(state)]
    if is_outcome(doc):
        orders = [DrawnOrder(power, str(r.get("order", "")), str(r.get("result", "")), str(r.get("reason", "")))
                  for power, found in sorted(doc["orders"].items()) for r in found]
        battles = [b["territory"] for b in doc.get("battles", [])]
        title, caption = f'{doc.get("phase", "")} to {doc.get("next_phase", "")}', "Orders and results"
    else:
        orders = [DrawnOrder(power, str(text)) for power, texts in sorted((doc.get("orders") or {}).items())
                  for text in texts]
        battles, title, caption = [], public["phase"], "Orders (not adjudicated)" if orders else ""
    return EkoniaPicture(title, public["phase"], public["public"], own, orders, battles, caption,
                         tuple(public.get("surviving", ())))
