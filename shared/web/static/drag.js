// Drawing an order by dragging (docs/web.md, "Orders"): a unit pressed and dragged to another
// place, by the mouse or a finger (pointer events), asks for that unit's orders toward the place
// it is let go over. A movement shorter than DRAG_START is a click, left to the click path.

import {unitPlace} from "./board.js";

const DRAG_START = 10;  // pixels: less is a click, or a finger's wobble on a tap

/** What a drop lands on: the place under the pointer (a unit's place when a unit is there),
 *  or null off the board's places. @param {Element | null} node */
export function placeAt(node) {
  const unit = node?.closest("[data-unit]");
  if (unit) return unitPlace(unit.getAttribute("data-unit") || "");
  const region = node?.closest("[data-province]");
  if (!region || region.getAttribute("data-kind") === "impassable") return null;
  return region.getAttribute("data-province");
}

/** Whether a pointer moved from (x0, y0) to (x1, y1) far enough to be a drag, not a click.
 *  @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1 */
export function isDrag(x0, y0, x1, y1) {
  return Math.hypot(x1 - x0, y1 - y0) >= DRAG_START;
}

/**
 * @typedef {object} DragHooks
 * @property {(unit: string) => boolean} canDrag  whether the viewer may order ``unit`` now
 * @property {(unit: string, place: string | null, event: PointerEvent) => void} onDrop  a drag let go over ``place``
 */

/** @typedef {{unit: string, pointer: number, x: number, y: number, moved: boolean, line: SVGLineElement | null, over: Element | null}} Drag */

export class BoardDrag {
  /** @param {HTMLElement} container  the board's frame @param {DragHooks} hooks */
  constructor(container, {canDrag, onDrop}) {
    this.container = container;
    this.canDrag = canDrag;
    this.onDrop = onDrop;
    /** @type {Drag | null} */
    this.drag = null;
    this.swallowClick = false;  // the click a browser fires after a drag is no click of the player's
    container.addEventListener("pointerdown", (event) => this.start(event));
    container.addEventListener("drawn", () => this.markDraggable());
    // a finger on one's own unit drags it rather than scrolling the board or the page: the
    // touch's moves are cancelled (CSS touch-action is not honoured on SVG shapes); a tap, which
    // has no such move, stays a click
    container.addEventListener("touchmove", (event) => { if (this.drag) event.preventDefault(); }, {passive: false});
    window.addEventListener("pointermove", (event) => this.move(event));
    window.addEventListener("pointerup", (event) => this.end(event));
    window.addEventListener("pointercancel", (event) => { if (event.pointerId === this.drag?.pointer) this.stop(); });
    container.addEventListener("click", (event) => {
      if (!this.swallowClick) return;
      this.swallowClick = false;
      event.stopImmediatePropagation();
      event.preventDefault();
    }, {capture: true});
  }

  /** Marks the units the viewer may order (``.draggable``: the grab cursor, and
   *  ``touch-action: none`` where a browser honours it on SVG). */
  markDraggable() {
    for (const unit of this.container.querySelectorAll("[data-unit]")) {
      unit.classList.toggle("draggable", this.canDrag(unit.getAttribute("data-unit") || ""));
    }
  }

  /** @param {PointerEvent} event */
  start(event) {
    if (!event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
    const unit = /** @type {Element} */ (event.target).closest?.("[data-unit]");
    const name = unit?.getAttribute("data-unit");
    if (!name || !this.canDrag(name)) return;
    this.swallowClick = false;
    this.drag = {unit: name, pointer: event.pointerId, x: event.clientX, y: event.clientY, moved: false, line: null, over: null};
  }

  /** @param {PointerEvent} event */
  move(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.moved && !isDrag(drag.x, drag.y, event.clientX, event.clientY)) return;
    if (!drag.moved) {
      drag.moved = true;
      this.container.classList.add("dragging");
    }
    if (!drag.line?.isConnected) drag.line = this.newLine(drag.unit);  // a redraw on the way took it
    event.preventDefault();  // no text selected on the way
    const drawing = this.container.querySelector("svg");
    const inverse = drawing?.getScreenCTM()?.inverse();
    if (drag.line && inverse) {
      const end = new window.DOMPoint(event.clientX, event.clientY).matrixTransform(inverse);
      drag.line.setAttribute("x2", String(end.x));
      drag.line.setAttribute("y2", String(end.y));
    }
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    const over = hit && this.container.contains(hit) ? hit.closest("[data-province], [data-unit]") : null;
    if (over !== drag.over) {
      drag.over?.classList.remove("drop-target");
      over?.classList.add("drop-target");
      drag.over = over;
    }
  }

  /** @param {PointerEvent} event */
  end(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.stop();
    if (!drag.moved) return;  // a click: the click path has it
    this.swallowClick = true;
    setTimeout(() => { this.swallowClick = false; }, 0);  // a click comes at once, or not at all
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    this.onDrop(drag.unit, hit && this.container.contains(hit) ? placeAt(hit) : null, event);
  }

  stop() {
    this.drag?.line?.remove();
    this.drag?.over?.classList.remove("drop-target");
    this.container.classList.remove("dragging");
    this.drag = null;
  }

  /** The line from the dragged unit to the pointer, drawn over the board (pointer-events: none).
   *  @param {string} unit */
  newLine(unit) {
    const drawing = this.container.querySelector("svg");
    const node = this.container.querySelector(`[data-unit="${CSS.escape(unit)}"]`);
    if (!drawing || !(node instanceof SVGGraphicsElement)) return null;
    const box = node.getBBox();
    const line = document.createElementNS(drawing.namespaceURI, "line");
    line.setAttribute("class", "drag-line");
    for (const [name, value] of [["x1", box.x + box.width / 2], ["y1", box.y + box.height / 2],
      ["x2", box.x + box.width / 2], ["y2", box.y + box.height / 2]]) line.setAttribute(String(name), String(value));
    drawing.appendChild(line);
    return /** @type {SVGLineElement} */ (/** @type {unknown} */ (line));
  }
}
