// Absent players and the house bot, in words (docs/web.md, "Absent players"): the view's
// powers say who missed phases (NMR), who is in civil disorder and since when the house bot
// plays a power; every part of the page that names a power's player says it the same way.
import {phaseName} from "./api.js";

/** @typedef {import("./shapes.js").PowerSeat} PowerSeat */

/** The marks of a power whose player is away, shortest first: [] when the player is at the table.
 *  @param {PowerSeat | undefined} seat
 *  @returns {string[]} */
export function absenceNotes(seat) {
  if (!seat) return [];
  if (seat.house_bot && !seat.house_bot_since) return ["house bot"];  // a seat nobody joined
  const notes = [];
  if (seat.house_bot) notes.push(`house bot since ${phaseName(seat.house_bot_since).split(",")[0]}`);
  if (seat.civil_disorder) notes.push("civil disorder");
  if (seat.missed) notes.push(`NMR: ${seat.missed} phase${seat.missed === 1 ? "" : "s"} missed`);
  return notes;
}

/** What the player of ``seat`` reads about their own absence, in sentences ("" when none).
 *  @param {PowerSeat | undefined} seat */
export function ownAbsence(seat) {
  if (!seat || (seat.house_bot && !seat.house_bot_since)) return "";
  const missed = seat.missed ? `You missed ${seat.missed} phase${seat.missed === 1 ? "" : "s"} in a row (no orders).` : "";
  if (seat.house_bot) {
    return `${missed} The house bot has played your power since ${phaseName(seat.house_bot_since)}:`
      + " send your own orders to take it back.";
  }
  if (seat.civil_disorder) return `${missed} Your power is in civil disorder: its units held and nothing was built.`;
  return missed;
}
