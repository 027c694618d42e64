// The board: GET /games/{id}/map.svg inlined, so that its regions (data-province), units
// (data-unit) and drawn orders (data-order) can be clicked and read (docs/web.md).
import {api} from "./api.js";
import {mapPath, variantMapPath} from "./endpoints.js";

/** @typedef {{unit?: string | null, place?: string | null}} Selection  the unit or place outlined */

/** The place a unit attribute stands in: "A PAR" -> PAR, "F STP/SC" -> STP,
 *  "PARESQUE INFANTRY hitillia" (Tale of Ekonia) -> hitillia.
 *  @param {string} unit */
export function unitPlace(unit) {
  const words = unit.trim().split(/\s+/);
  return baseOf(words[words.length - 1]);
}

/** A location without its coast: "SPA/NC" -> SPA. @param {string} location */
export function baseOf(location) {
  return location ? location.split("/")[0] : location;
}

export class Board {
  /** @param {HTMLElement} container
   *  @param {{onUnit: (unit: string, event: MouseEvent) => void, onProvince: (place: string, event: MouseEvent) => void}} handlers */
  constructor(container, {onUnit, onProvince}) {
    this.container = container;
    this.request = 0;
    /** @type {Selection | null} */
    this.selected = null;
    this.zoomed = false;
    this.hitRadius = Infinity;  // the smallest unit's hit disc in the drawing's units (enlargeHits)
    /** @type {string | null} */
    this.focusWanted = null;  // the place or unit to focus once the next drawing is in
    container.addEventListener("click", (event) => {
      const target = /** @type {Element} */ (event.target);
      const unit = target.closest("[data-unit]");
      if (unit) {
        onUnit(unit.getAttribute("data-unit") || "", event);
        return;
      }
      const region = target.closest("[data-province]");
      if (region) onProvince(region.getAttribute("data-province") || "", event);
    });
    // a phone turned sideways: the drawing's width follows the frame's (the phone's board or not)
    window.addEventListener("resize", () => this.applyZoom());
    // The keyboard's click (docs/web.md, "Phones and keyboards"): Enter or Space on a focused
    // unit or place runs the same flow as a click at its middle.
    container.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const item = /** @type {Element} */ (event.target).closest?.("[data-unit], [data-province]");
      if (!item || !container.contains(item)) return;
      event.preventDefault();
      const box = item.getBoundingClientRect();
      item.dispatchEvent(new MouseEvent("click", {bubbles: true, clientX: box.left + box.width / 2,
        clientY: box.top + box.height / 2}));
    });
  }

  /** The variant's empty board, while the game forms. @param {string} variant */
  async showEmpty(variant) {
    await this.draw(variantMapPath(variant), null, "empty");
  }

  /** Draws the game's board as the caller may see it, now or at a resolved ``phase``; ``power``:
   *  which power of a seat that plays several.
   *  @param {string} gameId @param {string | null} token @param {string | null} [phase] @param {string | null} [power] */
  async show(gameId, token, phase = null, power = null) {
    await this.draw(mapPath(gameId, {phase, power}), token, phase);
  }

  /** @param {string} path @param {string | null} token @param {string | null} phase */
  async draw(path, token, phase) {
    const request = ++this.request;
    const svg = await api(path, {token});
    if (request !== this.request) return;  // a later drawing was asked for meanwhile
    const focused = this.container.contains(document.activeElement) ? itemKey(document.activeElement) : null;
    // where the reader looks: the frame's scroll (zoomed) and the page's, both kept across the
    // new drawing, which is briefly of no size (docs/web.md, "Phones and keyboards")
    const kept = {left: this.container.scrollLeft, top: this.container.scrollTop, page: window.scrollY};
    this.container.innerHTML = svg;
    const drawing = this.container.querySelector("svg");
    if (drawing) {
      drawing.removeAttribute("width");
      drawing.removeAttribute("height");
      // a group, not an image: its units and places are controls of their own
      drawing.setAttribute("role", "group");
      drawing.setAttribute("aria-label", phase === "empty" ? "The board" : phase ? `The board at ${phase}` : "The board now");
      this.fitNarrowScreen(drawing);
      reachable(drawing);
      this.hitRadius = enlargeHits(drawing);
      this.applyZoom();
      this.container.scrollTo(kept.left, kept.top);
      if (window.scrollY !== kept.page) window.scrollTo(window.scrollX, kept.page);
    }
    this.container.dataset.phase = phase || "now";
    // the page offers "Last phase's moves" only where the drawing has some (docs/maps.md)
    this.container.dispatchEvent(new CustomEvent("drawn",
      {detail: {lastMoves: Boolean(drawing?.querySelector("#last-orders"))}}));
    this.mark(this.selected);
    const again = focused || this.focusWanted;
    this.focusWanted = null;
    if (again) this.focusItem(again);
  }

  /** Focuses the unit or place ``key`` ("unit:A PAR", "province:BUR") of the drawing, or of
   *  the next one if it is not drawn yet. @param {string} key */
  focusItem(key) {
    const [kind, value] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
    const found = this.container.querySelector(`[data-${kind}="${CSS.escape(value)}"]`);
    if (found instanceof SVGElement || found instanceof HTMLElement) found.focus({preventScroll: true});
    else this.focusWanted = key;
  }

  /** The focused unit or place, as focusItem takes it; null when the focus is elsewhere. */
  focusedKey() {
    return this.container.contains(document.activeElement) ? itemKey(document.activeElement) : null;
  }

  /** Zoom the board: the drawing wider than its frame, scrolled, and wide enough that every
   *  unit's hit area is at least 46 pixels across (docs/web.md, "Phones and keyboards").
   *  @param {boolean} zoomed */
  setZoom(zoomed) {
    this.zoomed = zoomed;
    this.container.classList.toggle("zoomed", zoomed);
    this.applyZoom();
  }

  applyZoom() {
    const drawing = this.container.querySelector("svg");
    if (!drawing) return;
    // a phone's board as it comes (docs/web.md, "Phones and keyboards"): larger names and units,
    // drawn wider than the frame where that keeps them readable, scrolled sideways
    const phone = !this.zoomed && this.container.clientWidth < NARROW;
    this.container.classList.toggle("phone", phone);
    if (this.zoomed) drawing.style.width = `${zoomWidth(drawing, this.container.clientWidth, this.hitRadius)}px`;
    else if (phone) drawing.style.width = `${phoneWidth(drawing, this.container.clientWidth, this.hitRadius)}px`;
    else drawing.style.width = "";
  }

  /** Scrolls the frame sideways so that the units of ``powers`` are in the middle of it (a
   *  phone's board, wider than the frame, shows the player's own corner first).
   *  Returns whether there were such units (or no need to scroll). @param {string[]} powers */
  centreOn(powers) {
    const frame = this.container.getBoundingClientRect();
    const xs = [...this.container.querySelectorAll("[data-unit]")]
      .filter((unit) => powers.includes(unit.getAttribute("data-power") || ""))
      .map((unit) => { const box = unit.getBoundingClientRect(); return box.left + box.width / 2 - frame.left; });
    if (!xs.length) return false;
    if (this.container.scrollWidth <= this.container.clientWidth) return true;
    const middle = (Math.min(...xs) + Math.max(...xs)) / 2 + this.container.scrollLeft;
    this.container.scrollLeft = Math.max(0, middle - this.container.clientWidth / 2);
    return true;
  }

  /** On a phone's width the drawing's legend (the powers' table, the key) is left out: the
   *  page lists the powers, and the map gets the whole width. @param {SVGSVGElement} drawing */
  fitNarrowScreen(drawing) {
    const legend = drawing.querySelector("#legend");
    const box = (drawing.getAttribute("viewBox") || "").split(/\s+/).map(Number);
    if (!(legend instanceof SVGGraphicsElement) || box.length !== 4 || this.container.clientWidth >= NARROW) return;
    const left = legend.getBBox().x;
    if (left > 0) drawing.setAttribute("viewBox", `0 0 ${left} ${box[3]}`);
  }

  /** Outlines the selected unit or place. @param {Selection | null} selection */
  mark(selection) {
    this.selected = selection;
    for (const old of this.container.querySelectorAll(".selected")) old.classList.remove("selected");
    if (!selection) return;
    const found = selection.unit
      ? this.container.querySelector(`[data-unit="${CSS.escape(selection.unit)}"]`)
      : this.container.querySelector(`[data-province="${CSS.escape(selection.place || "")}"]`);
    if (found) found.classList.add("selected");
  }

  orders() {
    return [...this.container.querySelectorAll("[data-order]")].map((node) => ({
      order: node.getAttribute("data-order"), power: node.getAttribute("data-power"),
      result: node.getAttribute("data-result"),
    }));
  }
}

const MIN_HIT = 46;  // pixels: a finger's target, with a margin over the 44 asked for
const NARROW = 700;  // pixels of frame: a phone's board (no legend; larger names, units and targets)
// A phone's board as it comes: its names are PHONE_NAME_UNITS of the drawing (style.css,
// ".board.phone #names"), drawn at PHONE_NAME_PX pixels at least, and every unit's hit disc
// PHONE_HIT pixels across at least; never wider than the zoom's least (2.2 frames).
const PHONE_NAME_UNITS = 14;
const PHONE_NAME_PX = 9.5;
const PHONE_HIT = 26;

/** "unit:A PAR" or "province:BUR" for a board item (or what is inside one), else null.
 *  @param {Element | null} node */
function itemKey(node) {
  const item = node?.closest?.("[data-unit], [data-province]");
  if (!item) return null;
  return item.hasAttribute("data-unit") ? `unit:${item.getAttribute("data-unit")}` : `province:${item.getAttribute("data-province")}`;
}

/** Every unit and every place one may order toward is a control: in the tab order, a button
 *  named by its title ("France: A PAR", "Paris (PAR)"). @param {SVGSVGElement} drawing */
function reachable(drawing) {
  for (const item of drawing.querySelectorAll("[data-unit], [data-province]")) {
    if (item.getAttribute("data-kind") === "impassable") continue;
    let name = (item.querySelector(":scope > title")?.textContent || item.getAttribute("data-unit") || item.getAttribute("data-province") || "").trim();
    // named as it reads: a Tale of Ekonia badge shows "I2", so its name starts so, and says where
    // it stands ("I2, Paresque: 2 infantry at murlane"; docs/web.md, "Accessibility")
    const unit = item.getAttribute("data-unit");
    if (unit && !name.includes(unitPlace(unit))) name += ` at ${unitPlace(unit)}`;
    const shown = [...item.querySelectorAll(":scope > text")].map((t) => (t.textContent || "").trim()).filter(Boolean).join(" ");
    if (shown && !name.toLowerCase().includes(shown.toLowerCase())) name = `${shown}, ${name}`;
    item.setAttribute("tabindex", "0");
    item.setAttribute("role", "button");
    item.setAttribute("aria-label", name);
  }
}

/** Each unit gets an invisible disc under it that takes its clicks: as wide as half the way to
 *  the nearest other unit allows (at most 30 of the drawing's units), never smaller than the unit
 *  drawn. Returns the smallest such radius among units that stand alone at their point (a unit
 *  waiting to retreat beside the one that took its place, or a dirigible above a ground unit,
 *  share theirs), which the zoom makes at least MIN_HIT pixels across. @param {SVGSVGElement} drawing */
function enlargeHits(drawing) {
  const units = [...drawing.querySelectorAll("[data-unit]")].filter((unit) => unit instanceof SVGGraphicsElement);
  const boxes = units.map((unit) => unit.getBBox());
  const centres = boxes.map((b) => [b.x + b.width / 2, b.y + b.height / 2]);
  let smallest = Infinity;
  units.forEach((unit, i) => {
    let nearest = Infinity;
    centres.forEach((c, j) => {
      if (j !== i) nearest = Math.min(nearest, Math.hypot(c[0] - centres[i][0], c[1] - centres[i][1]));
    });
    const body = Math.max(boxes[i].width, boxes[i].height) / 2;
    const radius = Math.max(body, Math.min(30, nearest / 2 - 0.2));
    const disc = document.createElementNS(drawing.namespaceURI, "circle");  // the SVG namespace
    disc.setAttribute("class", "hit");
    disc.setAttribute("cx", String(centres[i][0]));
    disc.setAttribute("cy", String(centres[i][1]));
    disc.setAttribute("r", String(radius));
    unit.insertBefore(disc, unit.firstChild);
    const shared = unit.hasAttribute("data-dislodged") || /^D /.test(unit.getAttribute("data-unit") || "");
    if (!shared && radius > body) smallest = Math.min(smallest, radius);
  });
  return smallest;
}

/** A phone's drawing width in pixels, unzoomed: the frame's, or wider where the names would be
 *  under PHONE_NAME_PX or a unit's hit disc under PHONE_HIT pixels; at most 2.2 frames.
 *  @param {SVGSVGElement} drawing @param {number} frame @param {number} hitRadius */
function phoneWidth(drawing, frame, hitRadius) {
  const box = (drawing.getAttribute("viewBox") || "").split(/\s+/).map(Number);
  const units = box.length === 4 ? box[2] : frame;
  const names = units * PHONE_NAME_PX / PHONE_NAME_UNITS;
  const hits = Number.isFinite(hitRadius) ? units * PHONE_HIT / (2 * hitRadius) : 0;
  return Math.round(Math.min(2.2 * frame, Math.max(frame, names, hits)));
}

/** The zoomed drawing's width in pixels: 2.2 times its frame, at least the drawing's own size
 *  (a pixel per unit of its viewBox: names of 13 pixels), and wider where that leaves a unit's
 *  hit area under MIN_HIT pixels; at most 4 times the frame.
 *  @param {SVGSVGElement} drawing @param {number} frame @param {number} hitRadius */
function zoomWidth(drawing, frame, hitRadius) {
  const box = (drawing.getAttribute("viewBox") || "").split(/\s+/).map(Number);
  const units = box.length === 4 ? box[2] : frame;
  const needed = Number.isFinite(hitRadius) ? units * MIN_HIT / (2 * hitRadius) : 0;
  return Math.round(Math.min(4 * frame, Math.max(2.2 * frame, units, needed)));
}
