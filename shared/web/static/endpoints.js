// Every path the pages ask the server for, built in one place from ids (docs/api.md; docs/web.md,
// "How it is built"): the API's routes, and the pages' own addresses the links carry. Each id is
// encoded as a path segment; a token never goes into a path or a query (docs/web.md, "Tokens").

const segment = encodeURIComponent;

/** @param {URLSearchParams} query */
function withQuery(query) {
  const text = query.toString();
  return text ? `?${text}` : "";
}

// The variants ---------------------------------------------------------------------------

export const variantsPath = () => "/variants";
/** @param {string} variant */
export const variantPath = (variant) => `/variants/${segment(variant)}`;
/** The variant's empty board. @param {string} variant */
export const variantMapPath = (variant) => `/variants/${segment(variant)}/map.svg`;

// Accounts -------------------------------------------------------------------------------

export const authOptionsPath = () => "/auth/options";
export const logoutPath = () => "/auth/logout";
export const mePath = () => "/me";
export const myGamesPath = () => "/me/games";

// Games ----------------------------------------------------------------------------------

/** The games' list (GET), or where a game is created (POST).
 *  @param {{status?: string, limit?: number, variant?: string, cursor?: string | null}} [filter] */
export function gamesPath(filter = {}) {
  const query = new URLSearchParams();
  if (filter.status) query.set("status", filter.status);
  if (filter.limit !== undefined) query.set("limit", String(filter.limit));
  if (filter.variant) query.set("variant", filter.variant);
  if (filter.cursor) query.set("cursor", filter.cursor);
  return `/games${withQuery(query)}`;
}

/** The game's public summary. @param {string} gameId */
export const gamePath = (gameId) => `/games/${segment(gameId)}`;

/** The caller's view, or the page of history before ``historyBefore`` (docs/api.md, "History pages").
 *  @param {string} gameId
 *  @param {string | null} [historyBefore] */
export function viewPath(gameId, historyBefore = null) {
  const query = new URLSearchParams();
  if (historyBefore) query.set("history_before", historyBefore);
  return `${gamePath(gameId)}/view${withQuery(query)}`;
}

/** The board as the caller may see it, now or at a resolved ``phase``, for one ``power`` of a seat of several.
 *  @param {string} gameId
 *  @param {{phase?: string | null, power?: string | null}} [which] */
export function mapPath(gameId, {phase = null, power = null} = {}) {
  const query = new URLSearchParams();
  if (phase) query.set("phase", phase);
  if (power) query.set("power", power);
  return `${gamePath(gameId)}/map.svg${withQuery(query)}`;
}

/** The same picture as PNG (the page's download).
 *  @param {string} gameId @param {{phase?: string | null, power?: string | null}} [which] */
export function pngPath(gameId, {phase = null, power = null} = {}) {
  return mapPath(gameId, {phase, power}).replace("/map.svg", "/map.png");
}

/** @param {string} gameId @param {string} power */
export const possibleOrdersPath = (gameId, power) => `${gamePath(gameId)}/possible-orders?power=${segment(power)}`;
/** PUT (the whole set) and PATCH (some orders). @param {string} gameId */
export const ordersPath = (gameId) => `${gamePath(gameId)}/orders`;
/** POST and DELETE: the ready flag. @param {string} gameId */
export const readyPath = (gameId) => `${gamePath(gameId)}/ready`;
/** @param {string} gameId */
export const playersPath = (gameId) => `${gamePath(gameId)}/players`;
/** A seat, by its codename (the host frees it before the start). @param {string} gameId @param {string} seat */
export const seatPath = (gameId, seat) => `${playersPath(gameId)}/${segment(seat)}`;
/** @param {string} gameId */
export const extendPath = (gameId) => `${gamePath(gameId)}/extend`;
/** @param {string} gameId */
export const pausePath = (gameId) => `${gamePath(gameId)}/pause`;
/** @param {string} gameId */
export const resumePath = (gameId) => `${gamePath(gameId)}/resume`;
/** @param {string} gameId */
export const startPath = (gameId) => `${gamePath(gameId)}/start`;
/** @param {string} gameId */
export const resolvePath = (gameId) => `${gamePath(gameId)}/resolve`;
/** @param {string} gameId */
export const messagesPath = (gameId) => `${gamePath(gameId)}/messages`;
/** @param {string} gameId */
export const drawPath = (gameId) => `${gamePath(gameId)}/draw`;
/** Where a seat concedes the game to a power (games with concessions). @param {string} gameId */
export const concedePath = (gameId) => `${gamePath(gameId)}/concede`;
/** The seat's conversations (docs/api.md, "Press"). @param {string} gameId */
export const conversationsPath = (gameId) => `${gamePath(gameId)}/conversations`;
/** Where a seat marks a conversation read. @param {string} gameId @param {string} conversation */
export const conversationReadPath = (gameId, conversation) => `${conversationsPath(gameId)}/${segment(conversation)}/read`;
/** @param {string} gameId */
export const identitiesPath = (gameId) => `${gamePath(gameId)}/identities`;
/** @param {string} gameId */
export const streamTicketPath = (gameId) => `${gamePath(gameId)}/stream-ticket`;
/** The server's Web Push key (docs/social.md, "Web Push"). */
export const pushKeyPath = () => "/push/key";
/** A seat's subscribed browsers; with ``endpoint``, one of them (to forget it).
 *  @param {string} gameId @param {string | null} [endpoint] */
export function pushPath(gameId, endpoint = null) {
  return `${gamePath(gameId)}/push` + (endpoint ? `?${new URLSearchParams({endpoint})}` : "");
}
/** A seat's e-mail address for its deadline reminders. @param {string} gameId */
export const emailPath = (gameId) => `${gamePath(gameId)}/email`;
/** @param {string} gameId */
export const emailConfirmPath = (gameId) => `${gamePath(gameId)}/email/confirm`;

/** The live stream, opened with a one-time ticket (an EventSource sends no header), resumed
 *  after the event ``lastEventId``.
 *  @param {string} gameId @param {string} ticket @param {string} lastEventId */
export function streamPath(gameId, ticket, lastEventId) {
  const query = new URLSearchParams({ticket, last_event_id: lastEventId});
  return `${gamePath(gameId)}/stream?${query}`;
}

// The pages ------------------------------------------------------------------------------

/** The game page. @param {string} gameId */
export const playPage = (gameId) => `/play/${segment(gameId)}`;
