// A resolved phase's orders and results, as the viewer's history shows them (docs/api.md,
// "Views"): every order in the standard and Dirigible games, one's own in Tale of Ekonia.
import {describe, phaseName, powerName} from "./api.js";
import {byId, element} from "./dom.js";
import {eventText, ledgerAmount, ledgerTerm, missionText} from "./reports.js";

/** @typedef {import("./shapes.js").View} View */

const ui = {
  panel: byId("results-panel", HTMLElement),
  title: byId("results-title", HTMLElement),
  results: byId("results", HTMLElement),
};

/** @type {Record<string, string>} */
const RESULT_WORDS = {succeeds: "succeeds", ok: "done", fails: "fails", failed: "failed", invalid: "invalid"};

/** @param {View} view @param {string | null} shown */
function entryFor(view, shown) {
  if (shown) return view.history.find((entry) => entry.phase === shown) || null;
  return view.history[view.history.length - 1] || null;
}

/** The results of the phase ``shown``, or of the last one resolved; the latest ones with a
 *  button that shows them on the board (``onBoard``).
 *  @param {View} view @param {string | null} shown @param {(phase: string) => void} onBoard */
export function showResults(view, shown, onBoard) {
  const panel = ui.panel;
  const entry = entryFor(view, shown);
  panel.hidden = !entry;
  if (!entry) return;
  ui.title.textContent = `Results: ${phaseName(entry.phase, view.game.variant)}`;
  /** @type {HTMLElement[]} */
  const blocks = Object.entries(entry.orders || {}).filter(([, list]) => list.length).sort().map(([power, list]) =>
    element("div", {class: "result-block"},
      element("h3", {text: powerName(power)}),
      element("ul", {class: "result-list"}, list.map((o) => element("li", {class: `result ${o.result}`},
        element("span", {class: "order", text: o.order}),
        element("span", {class: "outcome", text: RESULT_WORDS[o.result || ""] || o.result || ""}),
        o.reason ? element("span", {class: "reason muted", text: o.reason}) : null)))));
  if (!blocks.length) blocks.push(element("p", {class: "muted", text: "No order was given."}));
  const dislodged = (entry.dislodged || []).map((d) =>
    element("li", {text: `${powerName(d.power)} ${d.unit} dislodged by the attack from ${d.attacker_from}: `
      + (d.retreats?.length ? `may retreat to ${d.retreats.join(", ")}` : "no retreat")}));
  if (dislodged.length) blocks.push(element("h3", {text: "Dislodged"}), element("ul", {}, dislodged));
  blocks.push(...battleReports(entry.details));
  if (!shown) {
    blocks.unshift(element("button", {type: "button", class: "secondary", "data-phase": entry.phase,
      id: "results-on-board", text: "Show these results on the board", onclick: () => onBoard(entry.phase)}));
  }
  ui.results.replaceChildren(...blocks);
}

/** Tale of Ekonia's reports of the turn (its history's ``details``, as the policy shows them
 *  to this state: docs/rules/ekonia.md): battles, missions, spending, events.
 *  @param {Record<string, any> | null | undefined} details
 *  @returns {HTMLElement[]} */
function battleReports(details) {
  if (!details || typeof details !== "object") return [];
  const out = [];
  for (const battle of details.battles || []) {
    const sides = (battle.sides || []).map((/** @type {Record<string, any>} */ side) =>
      `${(side.powers || []).map(powerName).join(" and ") || "privateers"}${side.role ? ` (${side.role})` : ""}`
      + `${side.roll !== undefined ? `, roll ${side.roll}` : ""}${side.total !== undefined ? `, total ${side.total}` : ""}`
      + `${side.outcome ? `: ${side.outcome}` : ""}`);
    const winner = battle.winner?.length ? ` Won by ${battle.winner.map(powerName).join(" and ")}.` : "";
    out.push(element("li", {text: `Battle at ${battle.territory}: ${sides.join("; ") || "fought by others"}.${winner}`}));
  }
  for (const mission of details.missions || []) out.push(element("li", {text: `Mission: ${missionText(mission, true)}`}));
  for (const event of details.events || []) out.push(element("li", {text: capitalised(eventText(event))}));
  const spending = Object.entries(details.spending || {}).map(([power, spent]) => `${powerName(power)} ${spent.total ?? describe(spent)}`);
  if (spending.length) out.push(element("li", {text: `Gold spent: ${spending.join(", ")}`}));
  for (const [power, ledger] of Object.entries(details.ledgers || {})) {
    const terms = Object.entries(ledger).filter(([term, amount]) => term !== "turn" && amount && (typeof amount !== "object" || Object.keys(amount).length));
    out.push(element("li", {text: `${powerName(power)}'s ledger: ${terms.map(([term, amount]) => `${ledgerTerm(term)} ${ledgerAmount(amount)}`).join(", ")}`}));
  }
  for (const [key, value] of Object.entries(details)) {
    if (["battles", "missions", "spending", "rolls", "ledgers", "events"].includes(key) || value === null) continue;
    if (typeof value === "object" && !Object.keys(value).length) continue;
    const name = key === "destroyed_states" ? "States destroyed" : key === "sea_lanes" ? "Sea lanes" : capitalised(key.replaceAll("_", " "));
    out.push(element("li", {text: `${name}: ${Array.isArray(value) ? value.map((v) => (typeof v === "object" ? describe(v) : powerName(String(v)))).join(", ") : describe(value)}`}));
  }
  return out.length ? [element("h3", {text: "Reports"}), element("ul", {class: "reports"}, out)] : [];
}

/** @param {string} text */
function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
