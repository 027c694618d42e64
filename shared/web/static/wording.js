// The orders panel's words about orders (docs/web.md, "Orders", "Done"): what is left unordered
// and what becomes of it, a stored order the menus do not list as such, a menu option's label.

import {priceLabel} from "./prices.js";

/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").PossibleOrders} PossibleOrders */
/** @typedef {import("./shapes.js").MenuGroup} MenuGroup */
/** @typedef {import("./shapes.js").PossibleOrder} PossibleOrder */

/** A stored order of ``group``'s unit that its options do not list as such ("A APU - TUN VIA"
 *  where they list "A APU - TUN"): the unit has an order all the same.
 *  @param {MenuGroup} group @param {Set<string> | string[]} stored */
export function storedFor(group, stored) {
  if (group.kind !== "unit" || !group.unit) return undefined;
  return [...stored].find((text) => text.startsWith(`${group.unit} `));
}

/** Whether ``order`` is a move by convoy (VIA): only the board's moves say so.
 *  @param {PossibleOrder} order */
export function byConvoy(order) {
  return "via_convoy" in order && order.via_convoy;
}

/** A menu's words for ``order``: a move by convoy where the same move goes overland says so;
 *  what it costs, in Dirigible's supply points or Tale of Ekonia's gold ("D LON B (3 SP)").
 *  @param {MenuGroup} group @param {PossibleOrder} order @param {Record<string, any> | null} [position] */
export function optionLabel(group, order, position = null) {
  const overland = byConvoy(order) && group.orders.some((o) => o.type === "move" && !byConvoy(o) && o.to === order.to);
  return (overland ? `${order.text} (by convoy)` : order.text) + priceLabel(order, position);
}

/** What happens to what is left unordered (docs/web.md, "Done"): units without an order hold
 *  (in retreat phases a dislodged unit without an order is disbanded); builds not ordered are
 *  waived; removals not ordered are made by the rules. "" when nothing is left.
 *  @param {View} view @param {PossibleOrders} possible @param {string[]} lacking */
export function unorderedWarning(view, possible, lacking) {
  if (lacking.length) {
    const retreat = /R$/.test(possible.phase);
    return `${lacking.length === 1 ? "1 unit has" : `${lacking.length} units have`} no order yet: ${lacking.join(", ")}.`
      + (retreat ? ` ${lacking.length === 1 ? "It is" : "They are"} disbanded if you are done without ordering ${lacking.length === 1 ? "it" : "them"}.`
        : " They hold if you are done without ordering them.");
  }
  if (!possible.adjustment || view.position?.points) return "";  // Dirigible's builds: the own panel counts the points
  const types = new Map(possible.menu.flatMap((g) => g.orders).map((o) => [o.text, o.type]));
  const given = possible.submitted.filter((text) => ["build", "waive", "remove", "disband"].includes(types.get(text) || "")).length;
  const left = Math.abs(possible.adjustment) - given;
  if (left <= 0) return "";
  return possible.adjustment > 0
    ? `${left === 1 ? "1 build is" : `${left} builds are`} not ordered: ${left === 1 ? "it is" : "they are"} waived if you are done now.`
    : `${left === 1 ? "1 removal is" : `${left} removals are`} not ordered: the rules remove ${left === 1 ? "a unit" : "units"} for you (farthest from home first).`;
}
