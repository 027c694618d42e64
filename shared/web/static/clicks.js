// Orders by clicking the board (docs/web.md, "Orders"): a unit of one's own selected, then the
// place it goes; the short menu beside the click when a click can mean several orders.
import {baseOf, unitPlace} from "./board.js";
import {byId, element} from "./dom.js";
import {byConvoy} from "./wording.js";

/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./shapes.js").PossibleOrders} PossibleOrders */
/** @typedef {import("./shapes.js").MenuGroup} MenuGroup */
/** @typedef {import("./shapes.js").PossibleOrder} PossibleOrder */
/** @typedef {[string, () => void]} MenuItem  a button of the click menu: its label, what it does */

const ui = {
  clickMenu: byId("click-menu", HTMLElement),
  clickMenuClose: byId("click-menu-close", HTMLButtonElement),
  clickMenuItems: byId("click-menu-items", HTMLElement),
  clickMenuTitle: byId("click-menu-title", HTMLElement),
};

const MOVES = new Set(["move", "retreat", "rebase", "load", "unload", "drop", "bombard"]);
// Orders that destroy what one has: never given by a click alone, always a menu choice named
// as such (docs/web.md, "Orders").
const DESTRUCTIVE = /** @type {Record<string, string>} */ ({
  disband: "Disband", remove: "Remove", raze: "Raze",
});

/** Whether ``order`` destroys a unit or an improvement of one's own. @param {PossibleOrder} order */
export function destructive(order) {
  return order.type in DESTRUCTIVE;
}

/** A click menu's label for ``order``: destructive ones say what they destroy.
 *  @param {PossibleOrder} order */
export function choiceLabel(order) {
  const verb = DESTRUCTIVE[order.type];
  if (!verb) return order.text;
  return `${verb}: ${order.text} (${order.type === "raze" ? "destroys the improvement" : "destroys the unit"})`;
}

/** The orders of ``group`` that a click on ``place`` can mean, moves first.
 *  @param {MenuGroup} group @param {string} place */
export function ordersToward(group, place) {
  const home = baseOf(group.location ?? "");
  const found = group.orders.filter((order) => {
    if (order.type === "support_hold") return order.supported && unitPlace(order.supported) === place;
    if (order.to) return baseOf(order.to) === place;
    return place === home && !("supported" in order) && !("convoyed" in order);
  });
  // a click on a neighbour means the move itself: the same move by convoy (VIA) is in the unit's
  // menu, not offered a second time beside the click (docs/web.md, "Orders")
  const plain = new Set(found.filter((o) => o.type === "move" && !byConvoy(o)).map((o) => o.to));
  return sortMovesFirst(found.filter((o) => !(byConvoy(o) && plain.has(o.to))));
}

/** @param {PossibleOrder[]} found */
function sortMovesFirst(found) {
  return found.sort((a, b) => Number(MOVES.has(b.type)) - Number(MOVES.has(a.type)));
}

/** @param {string} label @param {() => void} act @returns {MenuItem} */
function menuItem(label, act) {
  return [label, act];
}

/**
 * @typedef {object} ClickHooks  what the clicks need of the orders panel
 * @property {() => PossibleOrders | null} possible  the possible orders, if the viewer orders now
 * @property {() => boolean} shown  whether the board shows a past phase (no order is given then)
 * @property {(texts: string[]) => Promise<boolean>} send  stores orders (PATCH)
 * @property {(text: string) => void} say  says something on the panel's status line
 */

export class BoardClicks {
  /** @param {Board} board @param {ClickHooks} hooks */
  constructor(board, {possible, shown, send, say}) {
    this.board = board;
    this.possible = possible;
    this.shown = shown;
    this.send = send;
    this.say = say;
    /** @type {MenuGroup | null} */
    this.selected = null;  // the menu group picked on the board
    /** @type {string | null} */
    this.menuOpener = null;  // the board item the click menu was opened from by the keyboard
    ui.clickMenuClose.addEventListener("click", () => this.closeMenu());
    // Escape closes the short menu, and with none open lets go of the unit selected
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      if (!ui.clickMenu.hidden) this.closeMenu();
      else if (this.selected) {
        this.select(null);
        this.say("Nothing selected.");
      }
    });
  }

  /** The menu groups of ``kinds`` at ``place``. @param {string} place @param {string[]} [kinds] */
  groupsAt(place, kinds = ["unit"]) {
    return (this.possible()?.menu || []).filter((g) => kinds.includes(g.kind) && baseOf(g.location ?? "") === place);
  }

  /** Selects ``group`` (null: none) and outlines it on the board.
   *  @param {MenuGroup | null} group @param {string | null} [unitAttribute] @param {boolean} [say] */
  select(group, unitAttribute = null, say = true) {
    this.selected = group;
    this.board.mark(group ? {unit: unitAttribute || group.unit, place: baseOf(group.location ?? "")} : null);
    if (group && say) this.say(`${group.unit || group.location} selected: click where it goes.`);
  }

  /** @param {string} attribute  the unit clicked, its data-unit @param {MouseEvent} event */
  clickUnit(attribute, event) {
    const possible = this.possible();
    if (!possible || this.shown()) return;
    const place = unitPlace(attribute);
    const own = possible.menu.filter((g) => g.kind === "unit" && (g.unit === attribute || baseOf(g.location ?? "") === place));
    if (this.selected && own.includes(this.selected)) {  // the selected unit clicked again: its own orders
      this.choose(ordersToward(this.selected, place), place, event);
      return;
    }
    if (this.selected && !own.includes(this.selected)) {
      const choices = ordersToward(this.selected, place);
      if (choices.length && own.length) {  // a support for one's own unit, or that unit's own orders
        const group = this.selected;
        /** @type {MenuItem[]} */
        const items = [...choices.map((o) => menuItem(choiceLabel(o), () => { this.select(null); this.send([o.text]); })),
          ...own.map((g) => menuItem(`Order ${g.unit} instead…`, () => this.select(g, attribute)))];
        this.openMenu(`${group.unit} toward ${place}`, items, event);
        return;
      }
      if (choices.length || !own.length) {
        this.choose(choices, place, event);
        return;
      }
    }
    if (own.length === 1) this.select(own[0], attribute);
    else if (own.length > 1) this.openMenu(`Which of your units at ${place}?`, own.map((g) => menuItem(g.unit || g.location || "", () => this.select(g))), event);
  }

  /** The viewer's own groups standing at ``attribute``'s place (the unit itself first).
   *  @param {string} attribute  a unit's data-unit */
  ownAt(attribute) {
    const place = unitPlace(attribute);
    const own = (this.possible()?.menu || []).filter((g) => g.kind === "unit" && (g.unit === attribute || baseOf(g.location ?? "") === place));
    return own.sort((a, b) => Number(b.unit === attribute) - Number(a.unit === attribute));
  }

  /** Whether ``attribute``'s unit may be dragged to order it: one's own, on the board now.
   *  @param {string} attribute */
  canDrag(attribute) {
    return !this.shown() && this.ownAt(attribute).length > 0;
  }

  /** A unit dragged and let go over ``place`` (null: off the board): the same as selecting it
   *  and clicking there; let go over its own place, nothing. @param {string} attribute
   *  @param {string | null} place @param {MouseEvent} event */
  dropUnit(attribute, place, event) {
    const [group] = this.ownAt(attribute);
    if (!group || this.shown()) return;
    this.closeMenu();
    const name = group.unit || group.location;
    if (place === null || place === unitPlace(attribute)) {
      this.select(null);
      this.say(place === null ? `${name} was let go off the board: no order.` : `${name} was let go where it stands: no order.`);
      return;
    }
    this.select(group, attribute, false);
    this.choose(ordersToward(group, place), place, event);
  }

  /** @param {string} place  the place clicked, its data-province @param {MouseEvent} event */
  clickProvince(place, event) {
    if (!this.possible() || this.shown()) return;
    if (this.selected) {
      this.choose(ordersToward(this.selected, place), place, event);
      return;
    }
    const units = this.groupsAt(place);
    const sites = this.groupsAt(place, ["site"]);
    if (units.length === 1 && !sites.length) {
      this.select(units[0]);
      return;
    }
    const items = [...units.map((g) => menuItem(`Order ${g.unit}…`, () => this.select(g))),
      ...sites.flatMap((g) => g.orders).map((o) => menuItem(choiceLabel(o), () => this.send([o.text])))];
    if (items.length) this.openMenu(`Orders at ${place}`, items, event);
  }

  /** The selected group's orders toward ``place``: none said, one sent, several a menu.
   *  @param {PossibleOrder[]} choices @param {string} place @param {MouseEvent} event */
  choose(choices, place, event) {
    const group = this.selected;
    if (!group) return;
    if (!choices.length) {
      this.say(`${group.unit || group.location} has no order toward ${place}.`);
      this.select(null);
      return;
    }
    if (choices.length === 1 && !destructive(choices[0])) {
      this.select(null);
      this.send([choices[0].text]);
      return;
    }
    this.openMenu(`${group.unit || group.location} toward ${place}`,
      choices.map((o) => menuItem(choiceLabel(o), () => { this.select(null); this.send([o.text]); })), event);
  }

  /** The short menu of buttons beside the click. @param {string} title @param {MenuItem[]} items @param {MouseEvent} event */
  openMenu(title, items, event) {
    const menu = ui.clickMenu;
    this.menuOpener = this.board.focusedKey();  // opened by the keyboard: the focus goes back there
    ui.clickMenuTitle.textContent = title;
    ui.clickMenuItems.replaceChildren(...items.map(([label, act]) =>
      element("button", {type: "button", text: label, onclick: () => { this.closeMenu(); act(); }})));
    const area = (menu.parentElement || document.body).getBoundingClientRect();
    const x = Math.min(Math.max(event.clientX - area.left, 8), Math.max(area.width - 260, 8));
    menu.style.left = `${x}px`;
    menu.style.top = `${Math.max(event.clientY - area.top + 12, 8)}px`;
    menu.hidden = false;
    menu.querySelector("button")?.focus();
  }

  closeMenu() {
    const menu = ui.clickMenu;
    if (menu.hidden) return;
    menu.hidden = true;
    if (this.menuOpener) this.board.focusItem(this.menuOpener);
    this.menuOpener = null;
  }
}
