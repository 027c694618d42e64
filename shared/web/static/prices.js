// What orders cost, as docs/rules/dirigible.md (R5, R8) and docs/rules/ekonia.md (R9, R23 to
// R26, R31 to R40, R63) price them: the menus' prices and the own panel's preview of what is
// left (docs/web.md, "The variants"). A preview: the server's check of the orders is the rule.
// No DOM here, so that Node runs it as the browser does (tests/web/test_js_checks.py).

/** @typedef {import("./shapes.js").PossibleOrder} PossibleOrder */
/** @typedef {{amount: number, unit: "SP" | "gold", each?: string}} Price  ``each``: a price per unit held */

/** @type {Record<string, number>} */
export const DIRIGIBLE_BUILD = {A: 4, F: 4, D: 3};
/** @type {Record<string, number>} */
const EKONIA_UNIT = {INFANTRY: 10, CAVALRY: 25, TRIREME: 20, TRANSPORT: 15, AIRSHIP: 20};
/** @type {Record<string, number>} */
const EKONIA_IMPROVEMENT = {FORT: 40, SHIPYARD: 20, GASVENT: 20};
/** @type {Record<string, number>} */
const MISSION = {MAP: 40, RECORDS: 25, COUNTER: 25, "COUNTER ALL": 70};
/** @type {Record<string, number>} */
const INVESTIGATE = {fort: 30, capital: 20, city: 15, tile: 10, sea: 10};
/** @type {Record<number, number>} */
const MORALE = {1: 5, 2: 10, 3: 15};  // gold a unit
/** @type {Record<number, number>} */
const HIDE_CITIES = {3: 20, 5: 40};

/** What one order costs, or null when it costs nothing. ``position``: the view's position (Tale
 *  of Ekonia's public map names what an investigated territory is; its own units price morale).
 *  @param {PossibleOrder} order @param {Record<string, any> | null | undefined} position
 *  @returns {Price | null} */
export function priceOf(order, position) {
  if (position?.variant === "dirigible") {
    const cost = order.type === "build" ? DIRIGIBLE_BUILD[String(order.unit || order.text)[0]] : undefined;
    return cost ? {amount: cost, unit: "SP"} : null;
  }
  if (position?.variant !== "ekonia") return null;
  const count = Number(("count" in order && order.count) || 1);
  /** @type {number | undefined} */
  let gold;
  switch (order.type) {
    case "buy": gold = (EKONIA_UNIT[String(order.unit_type).toUpperCase()] || 0) * count; break;
    case "improve": gold = EKONIA_IMPROVEMENT[String(order.improvement).toUpperCase()]; break;
    case "give": gold = Number(order.amount || 0); break;
    case "hide_cities": gold = HIDE_CITIES[Number(order.level)]; break;
    case "hide_units": gold = 10 * count; break;
    case "privateer": gold = 5 * count; break;
    case "spy": gold = missionCost(String(order.mission), order.target ? String(order.target) : null, position); break;
    case "morale": {
      const each = MORALE[Number(order.level)];
      return each ? {amount: each * (position.own?.units?.length || 0), unit: "gold", each: `${each} gold a unit`} : null;
    }
    default: gold = undefined;
  }
  return gold ? {amount: gold, unit: "gold"} : null;
}

/** An espionage mission's price: a named mission's own, an investigation by what the public
 *  map shows of its target (a fort 30, a capital 20, a city 15, plain land or a sea 10; a
 *  fleet's 10 more). @param {string} mission @param {string | null} target @param {Record<string, any>} position */
function missionCost(mission, target, position) {
  if (!mission.startsWith("INVESTIGATE")) return MISSION[mission];
  const land = target ? position.public?.territories?.[target] : undefined;
  const capitals = Object.values(position.public?.powers || {}).map((p) => /** @type {any} */ (p).capital);
  const kind = !land ? "sea" : land.fort ? "fort" : capitals.includes(target) ? "capital" : land.city ? "city" : "tile";
  return INVESTIGATE[kind] + (mission === "INVESTIGATE FLEET" ? 10 : 0);
}

/** A menu's words for a price: " (20 gold)", " (4 SP)", " (5 gold a unit: 15 gold)"; "" when free.
 *  @param {PossibleOrder} order @param {Record<string, any> | null | undefined} position */
export function priceLabel(order, position) {
  const price = priceOf(order, position);
  if (!price) return "";
  return price.each ? ` (${price.each}: ${price.amount} ${price.unit})` : ` (${price.amount} ${price.unit})`;
}

/** What the stored orders spend, in the variant's money (SP of builds, or gold); morale priced
 *  on the units held once the purchases and disbands stored are made (R63).
 *  @param {PossibleOrder[]} orders @param {Record<string, any> | null | undefined} position */
export function spentBy(orders, position) {
  const bought = orders.filter((o) => o.type === "buy").reduce((n, o) => n + Number(("count" in o && o.count) || 1), 0);
  const disbanded = orders.filter((o) => o.type === "disband")
    .reduce((n, o) => n + Number(("count" in o && o.count) || 1), 0);
  return orders.reduce((sum, order) => {
    const price = priceOf(order, position);
    if (!price) return sum;
    if (order.type === "morale") {
      const held = (position?.own?.units?.length || 0) + bought - disbanded;
      return sum + MORALE[Number(order.level)] * Math.max(0, held);
    }
    return sum + price.amount;
  }, 0);
}

/** Dirigible's removals in words (docs/rules/dirigible.md, R13): ``owed`` the fewest units to
 *  remove (the view's adjustments, negative), ``balance`` the points less the upkeep.
 *  @param {number} owed @param {number | undefined} balance */
export function removalsText(owed, balance) {
  const units = owed === 1 ? "1 unit" : `${owed} units`;
  return balance !== undefined && balance < 0
    ? `at least ${units}: the upkeep is ${-balance} SP over the points`
    : `at least ${units}`;
}
