// The public API from the browser (docs/api.md) and the seats kept in local storage (docs/web.md).
// Tokens travel in the Authorization header only; never in a URL's path or query. This is the one
// module that asks the server for anything (`api`, and `openStream` for the live stream); the
// paths come from endpoints.js.

/**
 * What this browser keeps for a game: the seat's token and codename, the host's token, the
 * game's name, a private game's invite code.
 * @typedef {object} Seat
 * @property {string} [token]
 * @property {string} [host]
 * @property {string} [codename]
 * @property {string} [name]
 * @property {string} [invite]
 */

/** @typedef {{token: string, name: string}} Session */

const SEATS_KEY = "entente.seats";

/** Every game this browser holds a token for: {game_id: {token, host, codename, name}}.
 *  @returns {Record<string, Seat>} */
export function seats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "null") || {};
  } catch {
    return {};
  }
}

/** @param {string} gameId @returns {Seat} */
export function seatOf(gameId) {
  return seats()[gameId] || {};
}

/** @param {string} gameId @param {Seat} fields */
export function keepSeat(gameId, fields) {
  const all = seats();
  all[gameId] = {...(all[gameId] || {}), ...fields};
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** @param {string} gameId */
export function forgetToken(gameId) {
  const all = seats();
  if (all[gameId]) {
    delete all[gameId].token;
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  }
}

const SESSION_KEY = "entente.session";

/** The signed-in account of this browser, if any: {token, name} (docs/web.md, "Signing in").
 *  @returns {Session | null} */
export function session() {
  try {
    const kept = JSON.parse(localStorage.getItem(SESSION_KEY) || "null");
    return kept && typeof kept.token === "string" ? kept : null;
  } catch {
    return null;
  }
}

/** @param {Partial<Session>} fields */
export function keepSession(fields) {
  localStorage.setItem(SESSION_KEY, JSON.stringify({...(session() || {}), ...fields}));
}

export function forgetSession() {
  localStorage.removeItem(SESSION_KEY);
}

/** The token a page reads a game with: the seat's own, else the account's session (which
 *  plays the seats it took on any device), else the host's.
 *  @param {string} gameId
 *  @returns {string | null} */
export function tokenFor(gameId) {
  const seat = seatOf(gameId);
  return seat.token || session()?.token || seat.host || null;
}

/** @typedef {{code?: string, message?: string, where?: string, details?: any}} ErrorBody */

/** An answer the API refused: its status and the one error shape's fields. */
export class ApiError extends Error {
  /** @param {number} status @param {ErrorBody} error */
  constructor(status, error) {
    super(error.message || `the server answered ${status}`);
    this.status = status;
    this.code = error.code;
    this.where = error.where;
    this.details = error.details;
  }
}

/** What was thrown, as an ApiError: the API's refusal itself, else (the network, a bug) an
 *  ApiError of status 0 with the error's message.
 *  @param {unknown} thrown
 *  @returns {ApiError} */
export function failure(thrown) {
  if (thrown instanceof ApiError) return thrown;
  return new ApiError(0, {message: thrown instanceof Error ? thrown.message : String(thrown)});
}

/** @type {Set<(lost: boolean) => void>} */
const connectionListeners = new Set();
let connectionLost = false;

/** Hears whether the server can be reached, each time that changes (docs/web.md, "The
 *  connection"). @param {(lost: boolean) => void} listener */
export function onConnection(listener) {
  connectionListeners.add(listener);
}

/** Whether the server was just reached (``false``) or could not be (``true``): every request
 *  says so, and the live stream when a view arrives. @param {boolean} lost */
export function reportConnection(lost) {
  if (lost === connectionLost) return;
  connectionLost = lost;
  for (const listener of connectionListeners) listener(lost);
}

/** Calls the API; resolves to the JSON (or text) answer, rejects with an ApiError. A request
 *  that never reached the server (the network, the server down, or a proxy's 502 or 504 for
 *  it) rejects with ``connection_lost``: nothing was done, and nothing is sent again by itself.
 *  @param {string} path  from endpoints.js
 *  @param {{method?: string, token?: string | null, body?: unknown}} [options]
 *  @returns {Promise<any>} */
export async function api(path, {method = "GET", token = null, body} = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let answer;
  try {
    answer = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch {
    answer = null;
  }
  if (!answer || answer.status === 502 || answer.status === 504) {
    reportConnection(true);
    throw new ApiError(0, {code: "connection_lost", message: "the server cannot be reached; nothing was sent"});
  }
  reportConnection(false);
  if (answer.status === 204) return null;
  const type = answer.headers.get("content-type") || "";
  const data = type.includes("json") ? await answer.json() : await answer.text();
  if (!answer.ok) throw new ApiError(answer.status, (data && data.error) || {message: String(data)});
  return data;
}

/** A picture (map.png) as a Blob, asked like ``api``: the board's download. The same errors.
 *  @param {string} path @param {string | null} token
 *  @returns {Promise<Blob>} */
export async function apiBlob(path, token) {
  let answer;
  try {
    answer = await fetch(path, {headers: token ? {authorization: `Bearer ${token}`} : {}});
  } catch {
    answer = null;
  }
  if (!answer || answer.status === 502 || answer.status === 504) {
    reportConnection(true);
    throw new ApiError(0, {code: "connection_lost", message: "the server cannot be reached; nothing was sent"});
  }
  reportConnection(false);
  if (!answer.ok) {
    const data = await answer.json().catch(() => null);
    throw new ApiError(answer.status, (data && data.error) || {message: answer.statusText});
  }
  return answer.blob();
}

/** The live stream at ``path`` (endpoints.js' streamPath, with its one-time ticket).
 *  @param {string} path */
export function openStream(path) {
  return new EventSource(path);
}

/** @type {Record<string, string>} */
const SEASONS = {S: "Spring", F: "Fall", W: "Winter"};
/** @type {Record<string, string>} */
const KINDS = {M: "movement", R: "retreats", A: "adjustments"};

/** "S1901M" -> "Spring 1901, movement"; "T03" -> "Turn 3"; in Dirigible, whose Summer and Late
 *  Fall are retreats and devastation (docs/rules/dirigible.md, rule 13), "S1901R" -> "Summer
 *  1901, retreats and devastation" and "F1901R" -> "Late Fall 1901, retreats and devastation".
 *  @param {string | null | undefined} phase @param {string | null} [variant] */
export function phaseName(phase, variant = null) {
  if (!phase) return "";
  const board = /^([SFW])(\d{4})([MRA])$/.exec(phase);
  if (board && variant === "dirigible" && board[3] === "R") {
    return `${board[1] === "S" ? "Summer" : "Late Fall"} ${board[2]}, retreats and devastation`;
  }
  if (board) return `${SEASONS[board[1]]} ${board[2]}, ${KINDS[board[3]]}`;
  const turn = /^T(\d+)$/.exec(phase);
  if (turn) return `Turn ${Number(turn[1])}`;
  return phase;
}

/** "FRANCE" -> "France"; "TENSHORES" -> "Tenshores".
 *  @param {string | null | undefined} power */
export function powerName(power) {
  return power ? power.charAt(0) + power.slice(1).toLowerCase() : "";
}

/** How long until ``deadline`` (an ISO time), in words.
 *  @param {string} deadline @param {number} [now] */
export function timeLeft(deadline, now = Date.now()) {
  const seconds = Math.floor((Date.parse(deadline) - now) / 1000);
  if (seconds <= 0) return "deadline passed: resolving";
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return (days ? `${days} d ` : "") + `${pad(hours)}:${pad(minutes)}:${pad(rest)} left`;
}

/** An ISO time as a date and time in the reader's own time zone: "Thu 3 Dec, 14:05 CET".
 *  @param {string} iso @param {boolean} [withYear] */
export function localTime(iso, withYear = false) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return "";
  return new Intl.DateTimeFormat(undefined, {weekday: "short", day: "numeric", month: "short",
    year: withYear ? "numeric" : undefined, hour: "2-digit", minute: "2-digit", timeZoneName: "short"}).format(moment);
}

/** A value of a report in words: {"shipyards": [], "gas_vents": ["x"]} -> "shipyards: none; gas vents: x".
 *  @param {unknown} value
 *  @returns {string} */
export function describe(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.length ? value.map(describe).join(", ") : "none";
  if (typeof value === "object") {
    const parts = Object.entries(value).map(([key, inner]) => `${key.replaceAll("_", " ")}: ${describe(inner)}`);
    return parts.length ? parts.join("; ") : "none";
  }
  return String(value);
}

/** A choice the person made on the page (a checkbox) that the server has not shown back yet:
 *  shown instead of the view's value until a view agrees, so that a view made before the
 *  change does not undo it on the page (docs/web.md, "Live updates").
 *  @template T */
export class Intent {
  constructor() {
    /** @type {T | null} */
    this.value = null;
  }

  /** @param {T} value */
  want(value) {
    this.value = value;
  }

  forget() {
    this.value = null;
  }

  /** What to show, given the view's value.
   *  @param {T} fromView
   *  @returns {T} */
  shown(fromView) {
    if (this.value === fromView) this.value = null;
    return this.value ?? fromView;
  }
}
