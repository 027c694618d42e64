// A game's settings in words, for the lobby's lists and the game page (docs/web.md, "Settings in
// sight"), and the clocks as people enter them (days, hours, minutes). No DOM: Node runs it too.

/** @typedef {import("./shapes.js").GameSettings} GameSettings */

/** @type {Record<string, number>} */
export const CLOCK_UNITS = {days: 1440, hours: 60, minutes: 1};

/** A clock in words: 1440 -> "1 day", 90 -> "1 hour 30 minutes", 2 -> "2 minutes".
 *  @param {number} minutes */
export function duration(minutes) {
  const parts = [];
  let left = Math.max(0, Math.round(minutes));
  for (const [unit, size] of Object.entries(CLOCK_UNITS)) {
    const count = Math.floor(left / size);
    left -= count * size;
    if (count) parts.push(`${count} ${count === 1 ? unit.slice(0, -1) : unit}`);
  }
  return parts.join(" ") || "0 minutes";
}

/** The minutes of a clock entered as an amount and a unit ("1.5", "days" -> 2160); NaN when
 *  it is no number. @param {string} amount @param {string} unit */
export function clockMinutes(amount, unit) {
  const value = Number(amount);
  return Number.isFinite(value) && amount.trim() !== "" ? Math.round(value * (CLOCK_UNITS[unit] || 1)) : NaN;
}

/** @type {Record<string, string>} */
const PRESS = {full: "full press (public and private)", public: "public press only", none: "gunboat (no press)"};

/** The settings a player chooses a game by, each a short phrase: the clocks, press, bots, the
 *  draw rule, anonymity, and how the game resolves early. @param {Record<string, unknown>} given
 *  the game's settings as the API gives them @returns {string[]} */
export function settingsPhrases(given) {
  const settings = /** @type {GameSettings} */ (given);
  const press = settings.press ?? "full";
  const phrases = [`movement ${duration(settings.movement_minutes ?? 1440)}`,
    `retreats and builds ${duration(settings.retreat_minutes ?? 360)}`,
    PRESS[press] || `press: ${press}`];
  if (settings.house_bot) {
    const bot = [`house bot (${settings.house_bot})`];
    if (settings.bots_fill_empty_seats) bot.push("fills empty seats");
    if (settings.bot_after_missed_phases) {
      bot.push(`plays for a player after ${settings.bot_after_missed_phases} missed phase${settings.bot_after_missed_phases === 1 ? "" : "s"}`);
    }
    phrases.push(bot.join(", "));
  } else phrases.push("no house bot");
  if (settings.bots_may_join) phrases.push("bots may join");
  if (settings.daide_open) phrases.push("open to DAIDE bots");
  phrases.push(`draw: every surviving power votes${settings.partial_draws ? ", for every survivor or some of them" : ""}, `
    + `votes ${settings.public_votes ? "public" : "secret"}`);
  if (settings.concessions) phrases.push("a player may concede to another's victory");
  phrases.push(settings.reveal_identities ? "anonymous until the end, then who played whom is shown"
    : "anonymous: players known only by codename");
  if (settings.require_ready) phrases.push("resolves early when everyone is ready");
  if (settings.host_may_resolve === false) phrases.push("the host plays (no early resolution by the host)");
  if (settings.private) phrases.push("private");
  if (settings.max_turns) phrases.push(`ends after turn ${settings.max_turns}`);
  return phrases;
}
