// The board: GET /games/{id}/map.svg inlined, so that its regions (data-province), units
// (data-unit) and drawn orders (data-order) can be clicked and read (docs/web.md).
import {api} from "./api.js";

/** The place a unit attribute stands in: "A PAR" -> PAR, "F STP/SC" -> STP,
 *  "PARESQUE INFANTRY hitillia" (Tale of Ekonia) -> hitillia. */
export function unitPlace(unit) {
  const words = unit.trim().split(/\s+/);
  return baseOf(words[words.length - 1]);
}

/** A location without its coast: "SPA/NC" -> SPA. */
export function baseOf(location) {
  return location ? location.split("/")[0] : location;
}

export class Board {
  constructor(container, {onUnit, onProvince}) {
    this.container = container;
    this.request = 0;
    this.selected = null;
    container.addEventListener("click", (event) => {
      const unit = event.target.closest("[data-unit]");
      if (unit) {
        onUnit(unit.getAttribute("data-unit"), event);
        return;
      }
      const region = event.target.closest("[data-province]");
      if (region) onProvince(region.getAttribute("data-province"), event);
    });
  }

  /** The variant's empty board, while the game forms. */
  async showEmpty(variant) {
    await this.draw(`/variants/${encodeURIComponent(variant)}/map.svg`, null, "empty");
  }

  /** Draws the game's board as the caller may see it, now or at a resolved ``phase``. */
  async show(gameId, token, phase = null, power = null) {
    const query = new URLSearchParams();
    if (phase) query.set("phase", phase);
    if (power) query.set("power", power);  // which power of a seat that plays several
    const search = query.toString() ? `?${query}` : "";
    await this.draw(`/games/${gameId}/map.svg${search}`, token, phase);
  }

  async draw(path, token, phase) {
    const request = ++this.request;
    const svg = await api(path, {token});
    if (request !== this.request) return;  // a later drawing was asked for meanwhile
    this.container.innerHTML = svg;
    const drawing = this.container.querySelector("svg");
    if (drawing) {
      drawing.removeAttribute("width");
      drawing.removeAttribute("height");
      drawing.setAttribute("role", "img");
      drawing.setAttribute("aria-label", phase === "empty" ? "The board" : phase ? `The board at ${phase}` : "The board now");
      this.fitNarrowScreen(drawing);
    }
    this.container.dataset.phase = phase || "now";
    this.mark(this.selected);
  }

  /** On a phone's width the drawing's legend (the powers' table, the key) is left out: the
   *  page lists the powers, and the map gets the whole width. */
  fitNarrowScreen(drawing) {
    const legend = drawing.querySelector("#legend");
    const box = (drawing.getAttribute("viewBox") || "").split(/\s+/).map(Number);
    if (!legend || box.length !== 4 || this.container.clientWidth >= 700) return;
    const left = legend.getBBox().x;
    if (left > 0) drawing.setAttribute("viewBox", `0 0 ${left} ${box[3]}`);
  }

  /** Outlines the selected unit or place. */
  mark(selection) {
    this.selected = selection;
    for (const old of this.container.querySelectorAll(".selected")) old.classList.remove("selected");
    if (!selection) return;
    const found = selection.unit
      ? this.container.querySelector(`[data-unit="${CSS.escape(selection.unit)}"]`)
      : this.container.querySelector(`[data-province="${CSS.escape(selection.place)}"]`);
    if (found) found.classList.add("selected");
  }

  orders() {
    return [...this.container.querySelectorAll("[data-order]")].map((node) => ({
      order: node.getAttribute("data-order"), power: node.getAttribute("data-power"),
      result: node.getAttribute("data-result"),
    }));
  }
}
