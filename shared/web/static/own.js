// What the viewer's power holds: supply centres and builds, Dirigible points, and in Tale of
// Ekonia the state's gold, ledger and what its missions found (position.own).
import {describe, element, powerName} from "./api.js";

/** The panel of ``power``: the viewer's, or the one of its seat that the orders panel shows. */
export function showOwn(view, power) {
  const panel = document.getElementById("own-panel");
  const position = view.position;
  panel.hidden = !power || !position || view.game.status === "forming";
  if (panel.hidden) return;
  const out = position.own ? ekonia(position.own) : board(view, power);
  document.getElementById("own-title").textContent = position.own ? `Your state: ${powerName(power)}` : `Your power: ${powerName(power)}`;
  document.getElementById("own").replaceChildren(...out);
}

function row(label, value) {
  return [element("dt", {text: label}), element("dd", {text: value})];
}

function board(view, power) {
  const position = view.position;
  const centres = position.centres?.[power] || [];
  const units = position.units?.[power] || [];
  const items = [...row("Supply centres", `${centres.length}: ${centres.join(", ") || "none"}`),
    ...row("Units", `${units.length}: ${units.join(", ") || "none"}`)];
  const adjustment = position.adjustments?.[power];
  if (adjustment) items.push(...row("Builds", adjustment > 0 ? `${adjustment} to build` : `${-adjustment} to remove`));
  if (position.points?.[power] !== undefined) items.push(...row("Points", String(position.points[power])));
  if (position.balance?.[power] !== undefined) items.push(...row("Balance", JSON.stringify(position.balance[power])));
  if (position.devastated?.length) items.push(...row("Devastated", position.devastated.join(", ")));
  return [element("dl", {class: "facts"}, items)];
}

function ekonia(own) {
  const facts = [...row("Gold", String(own.gold)), ...row("Units", String((own.units || []).length))];
  const improvements = Object.entries(own.improvements || {})
    .flatMap(([place, built]) => Object.entries(built).filter(([, yes]) => yes).map(([kind]) => `${kind.replace("_", " ")} at ${place}`));
  if (improvements.length) facts.push(...row("Improvements", improvements.join(", ")));
  if (own.converting?.length) facts.push(...row("Converting", own.converting.map((c) => c.territory || JSON.stringify(c)).join(", ")));
  const out = [element("dl", {class: "facts"}, facts)];
  if (own.ledger) out.push(element("h3", {text: "Ledger"}), ledger(own.ledger));
  out.push(element("h3", {text: "Missions and what they found"}));
  out.push(own.knowledge?.length
    ? element("ul", {class: "knowledge"}, own.knowledge.map((k) => element("li", {text: mission(k)})))
    : element("p", {class: "muted", text: "No mission yet."}));
  return out;
}

function ledger(entries) {
  const list = Array.isArray(entries) ? entries.map((e) => [e.term ?? e.kind ?? "", e.amount ?? e])
    : Object.entries(entries);
  return element("table", {class: "ledger"}, element("tbody", {}, list.map(([term, amount]) =>
    element("tr", {}, element("th", {scope: "row", text: String(term).replaceAll("_", " ")}),
      element("td", {text: describe(amount)})))));
}

function mission(found) {
  const head = [found.turn ? `Turn ${found.turn}:` : null, found.mission, found.target].filter(Boolean).join(" ");
  const result = found.success === undefined ? "" : found.success ? "succeeded" : "failed";
  const what = found.found ?? found.result ?? found.findings;
  return `${head} ${result}${what !== undefined ? `: ${describe(what)}` : ""}`.trim();
}
