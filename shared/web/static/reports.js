// Tale of Ekonia's reports in words (docs/web.md, "The variants"): what a mission found, the
// turn's events and the ledger, as sentences rather than raw keys and values. The shapes are
// the rules' (docs/rules/ekonia.md, "Espionage"); an unknown shape falls back to describe().
import {describe, powerName} from "./api.js";

/** @param {string[]} items */
function list(items) {
  return items.length ? items.join(", ") : "none";
}

/** "2 infantry of Arelton", "1 trireme (privateers)".
 *  @param {{type?: string, count?: number, owner?: string, privateer?: boolean}} unit */
function unitCount(unit) {
  const type = String(unit.type || "unit").toLowerCase();
  const whose = unit.privateer || unit.owner === "PRIVATEERS" ? " (privateers)" : unit.owner ? ` of ${powerName(unit.owner)}` : "";
  return `${unit.count ?? 1} ${type}${whose}`;
}

/** @param {unknown} found */
function units(found) {
  return Array.isArray(found) && found.length ? found.map(unitCount).join(", ") : "no units";
}

/** What a mission found, in words. @param {string} mission @param {any} found */
export function findingText(mission, found) {
  if (found === null || found === undefined) return "";
  switch (mission) {
    case "INVESTIGATE":
      return `found ${units(found)}`;
    case "INVESTIGATE FLEET":
      return `found ${units(found.units)}; stored ships: ${units(found.fleet).replace("no units", "none")}`;
    case "MAP":
      return `ship yards: ${list(found.shipyards || [])}; gas vents: ${list(found.gas_vents || [])}`;
    case "RECORDS": {
      const spent = Object.entries(found || {}).map(([where, gold]) => `${gold} gold at ${where}`);
      return spent.length ? `spent ${spent.join(", ")}` : "no gold spent in its cities or forts";
    }
    case "COUNTER":
    case "COUNTER ALL": {
      const caught = (Array.isArray(found) ? found : []).map((m) => `${powerName(m.by)} spied on you (${String(m.mission).toLowerCase()}${m.target ? ` of ${powerName(m.target)}` : ""})`);
      return caught.length ? caught.join("; ") : "no mission against you";
    }
    default:
      return describe(found);
  }
}

/** A mission as a sentence: "Turn 1: map of Arelton succeeded: ship yards: none; gas vents: none".
 *  @param {Record<string, any>} entry @param {boolean} [withPower] */
export function missionText(entry, withPower = false) {
  const who = withPower && entry.power ? `${powerName(entry.power)}: ` : "";
  const turn = entry.turn ? `Turn ${entry.turn}: ` : "";
  const target = entry.target ? ` of ${/^[A-Z]+$/.test(entry.target) ? powerName(entry.target) : entry.target}` : "";
  const result = entry.success === undefined ? "" : entry.success ? " succeeded" : " failed";
  const found = entry.success ? findingText(entry.mission, entry.found ?? entry.result ?? entry.findings) : "";
  return `${turn}${who}${String(entry.mission || "mission").toLowerCase()}${target}${result}${found ? `: ${found}` : ""}`;
}

/** One of the turn's events: "Arelton took vieren", "fort razed at anesia by Thornpire".
 *  @param {any} event */
export function eventText(event) {
  if (!event || typeof event !== "object" || !event.event) return describe(event);
  const by = event.by ? powerName(event.by) : "";
  const at = event.territory || "";
  switch (event.event) {
    case "taken": return `${by} took ${at}`;
    case "neutralised": return `${at} of ${powerName(event.from)} was turned neutral by ${by}`;
    case "fort razed": return `the fort at ${at} was razed${by ? ` by ${by}` : ""}`;
    case "too weak to take": return `${by} was too weak to take ${at}`;
    case "capital moved": return `${powerName(event.power)}'s capital moved to ${event.to || "nowhere"}`;
    case "stored units lost": return `${powerName(event.owner)} lost the units stored at ${at}`;
    case "improvements razed": return `${powerName(event.owner)}'s improvements at ${at} were razed`;
    case "built": return `${by} built a ${String(event.what).toLowerCase().replace("_", " ")} at ${at}`;
    default: {
      const {event: kind, ...rest} = event;
      return `${kind}: ${describe(rest)}`;
    }
  }
}

/** @type {Record<string, string>} */
const LEDGER_TERMS = {
  start_gold: "gold at the start", costs: "spent", given: "given", bti: "income (BTI)", upkeep: "upkeep",
  trade: "trade", sea_lanes: "sea lanes", sea_lane_income: "sea lane income", received: "received",
  bounty: "privateer bounties", refund: "refunds", end_gold: "gold at the end", turn: "turn",
};

/** A ledger's term in words. @param {string} term */
export function ledgerTerm(term) {
  return LEDGER_TERMS[term] || String(term).replaceAll("_", " ");
}

/** A ledger's amount in words: a number, or gold per state ("Arelton 5"). @param {unknown} amount */
export function ledgerAmount(amount) {
  if (amount && typeof amount === "object" && !Array.isArray(amount)) {
    const parts = Object.entries(amount).map(([who, gold]) => `${/^[A-Z]+$/.test(who) ? powerName(who) : who} ${describe(gold)}`);
    return parts.length ? parts.join(", ") : "none";
  }
  return describe(amount);
}
