// What the viewer's power holds: supply centres and builds, Dirigible points, and in Tale of
// Ekonia the state's gold, ledger and what its missions found (position.own). Builds and
// purchases stored and not yet resolved are counted in the points or gold shown.
import {ownAbsence} from "./absence.js";
import {powerName} from "./api.js";
import {byId, element} from "./dom.js";
import {removalsText, spentBy} from "./prices.js";
import {ledgerAmount, ledgerTerm, missionText} from "./reports.js";

/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").PossibleOrders} PossibleOrders */
/** @typedef {import("./shapes.js").PossibleOrder} PossibleOrder */

const ui = {
  panel: byId("own-panel", HTMLElement),
  title: byId("own-title", HTMLElement),
  own: byId("own", HTMLElement),
};

/** The stored orders of the panel's power, structured (the answer's own, else as its menu
 *  has them). @param {PossibleOrders | null} possible
 *  @returns {PossibleOrder[]} */
function pendingOrders(possible) {
  if (!possible) return [];
  if (possible.submitted_structured?.length === possible.submitted.length) return possible.submitted_structured;
  const byText = new Map(possible.menu.flatMap((group) => group.orders).map((order) => [order.text, order]));
  return possible.submitted.map((text) => {
    const give = /^GIVE (\d+) TO (\S+)/i.exec(text);
    return byText.get(text) || (give ? {text, type: "give", unit: null, to: null, amount: Number(give[1]), power: give[2]}
      : {text, type: "unknown", unit: null, to: null});
  });
}

/** The panel of ``power``: the viewer's, or the one of its seat that the orders panel shows;
 *  ``possible``: the orders panel's possible orders (its stored orders), when it is that power's.
 *  @param {View} view @param {string | null} power @param {PossibleOrders | null} [possible] */
export function showOwn(view, power, possible = null) {
  const panel = ui.panel;
  const position = view.position;
  panel.hidden = !power || !position || view.game.status === "forming";
  if (!power || !position || panel.hidden) return;
  const pending = possible && possible.power === power && possible.phase === view.game.phase ? pendingOrders(possible) : [];
  const state = position.variant === "ekonia" && position.own ? position : null;
  const out = state ? ekonia(state, pending) : board(view, power, pending);
  ui.title.textContent = state ? `Your state: ${powerName(power)}` : `Your power: ${powerName(power)}`;
  const away = ownAbsence(view.powers[power]);  // missed phases, civil disorder, the house bot
  ui.own.replaceChildren(...(away ? [element("p", {class: "away-own", role: "note", text: away.trim()})] : []), ...out);
}

/** @param {string} label @param {string} value */
function row(label, value) {
  return [element("dt", {text: label}), element("dd", {text: value})];
}

/** @param {View} view @param {string} power @param {PossibleOrder[]} pending */
function board(view, power, pending) {
  const position = view.position;
  const dirigible = position?.variant === "dirigible" ? position : null;  // points, balance, devastation
  const centres = position?.centres[power] || [];
  const units = position?.units[power] || [];
  const items = [...row("Supply centres", `${centres.length}: ${centres.join(", ") || "none"}`),
    ...row("Units", `${units.length}: ${units.join(", ") || "none"}`)];
  const adjustment = (position && position.variant !== "ekonia" ? position.adjustments[power] : undefined) ?? 0;
  const points = dirigible?.points[power];
  if (points !== undefined) {
    items.push(...row("Points", String(points)));
    const balance = dirigible?.balance[power];
    if (balance !== undefined) items.push(...row("Balance", String(balance)));
    const spent = spentBy(pending, position);
    if (adjustment > 0) {
      items.push(...row("Left to build with", spent ? `${adjustment - spent} SP (${spent} SP in the builds ordered)` : `${adjustment} SP`));
    } else if (adjustment < 0) items.push(...row("Removals", removalsText(-adjustment, balance)));
  } else if (adjustment) {
    const builds = pending.filter((o) => o.type === "build").length;
    items.push(...row("Builds", adjustment > 0 ? `${adjustment} to build${builds ? ` (${builds} ordered)` : ""}` : `${-adjustment} to remove`));
  }
  // devastation is game-wide (the powers panel lists it once); here only this power's centres
  const devastated = (dirigible?.devastated || []).filter((place) => centres.includes(place));
  if (devastated.length) items.push(...row("Devastated centres", devastated.join(", ")));
  return [element("dl", {class: "facts"}, items)];
}

/** @param {Record<string, any>} position @param {PossibleOrder[]} pending */
function ekonia(position, pending) {
  const own = position.own;
  const spent = spentBy(pending, position);
  const gold = spent ? `${own.gold - spent} left after the ${spent} gold ordered (${own.gold} now)` : String(own.gold);
  const facts = [...row("Gold", gold), ...row("Units", String((own.units || []).length))];
  const improvements = Object.entries(own.improvements || {})
    .flatMap(([place, built]) => Object.entries(built).filter(([, yes]) => yes).map(([kind]) => `${kind.replace("_", " ")} at ${place}`));
  if (improvements.length) facts.push(...row("Improvements", improvements.join(", ")));
  if (own.converting?.length) facts.push(...row("Converting", own.converting.map((/** @type {any} */ c) => c.territory || String(c)).join(", ")));
  /** @type {HTMLElement[]} */
  const out = [element("dl", {class: "facts"}, facts)];
  if (spent) out.push(element("p", {class: "muted note", text: "Purchases, improvements, gifts, missions and morale counted; the turn's upkeep and income come when it resolves."}));
  if (own.ledger) out.push(element("h3", {text: "Ledger"}), ledger(own.ledger));
  out.push(element("h3", {text: "Missions and what they found"}));
  out.push(own.knowledge?.length
    ? element("ul", {class: "knowledge"}, own.knowledge.map((/** @type {Record<string, any>} */ k) => element("li", {text: missionText(k)})))
    : element("p", {class: "muted", text: "No mission yet."}));
  return out;
}

/** @param {any[] | Record<string, any>} entries */
function ledger(entries) {
  const list = Array.isArray(entries) ? entries.map((e) => [e.term ?? e.kind ?? "", e.amount ?? e])
    : Object.entries(entries);
  return element("table", {class: "ledger"}, element("tbody", {}, list.map(([term, amount]) =>
    element("tr", {}, element("th", {scope: "row", text: ledgerTerm(term)}),
      element("td", {text: ledgerAmount(amount)})))));
}
