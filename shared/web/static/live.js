// The live stream through a stream ticket: an EventSource cannot send an Authorization
// header, so each connection asks for a one-time ticket first (docs/api.md, stream-ticket).
import {api, openStream, reportConnection} from "./api.js";
import {streamPath, streamTicketPath} from "./endpoints.js";

/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").HistoryEntry} HistoryEntry */
/** @typedef {import("./shapes.js").Message} Message */

/** The whole view (as GET /view shows it) from a `view` event, every one of which has the same
shape: `history_added` holds the whole history page when `history_reset` is true (the first of a
connection), else only the entries added since the one before, appended to the page held; the
page starts at `history_before` when earlier phases exist (docs/social.md, "Frames that send
only what is new").
@param {Record<string, any>} data  the event's JSON
@param {HistoryEntry[]} page  the history page of the view before
@returns {View} */
export function wholeView(data, page) {
  const {history_added: added, history_reset: reset, ...view} = data;
  const joined = reset ? [...added] : [...page, ...added];
  const first = view.history_before === null ? 0 : joined.findIndex((/** @type {HistoryEntry} */ entry) => entry.phase === view.history_before);
  return /** @type {View} */ ({...view, history: joined.slice(Math.max(0, first))});
}

/** Follows the game's stream until the returned function is called; resumes where it stopped.
 *  @param {string} gameId
 *  @param {() => string | null} token  the token to ask each ticket with
 *  @param {{onView: (view: View) => unknown, onMessage: (message: Message) => unknown}} handlers
 *  @returns {() => void} */
export function watch(gameId, token, {onView, onMessage}) {
  let lastId = "0";  // the first connection sends every message, then the view
  /** @type {EventSource | null} */
  let source = null;
  /** @type {HistoryEntry[]} */
  let page = [];  // the history page of the last view
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;

  async function connect() {
    if (stopped) return;
    try {
      const {ticket} = await api(streamTicketPath(gameId), {method: "POST", token: token()});
      if (stopped) return;
      const stream = openStream(streamPath(gameId, ticket, lastId));
      source = stream;
      stream.addEventListener("view", (event) => {
        lastId = event.lastEventId || lastId;
        const view = wholeView(JSON.parse(event.data), page);
        page = view.history.slice();
        reportConnection(false);
        onView(view);
      });
      stream.addEventListener("message", (event) => { lastId = event.lastEventId || lastId; onMessage(JSON.parse(event.data)); });
      stream.addEventListener("closed", (event) => {
        stream.close();
        if (JSON.parse(event.data).reason !== "credential_revoked") connect();
      });
      stream.onerror = () => {  // the server ended the stream or went away: a new ticket, later
        stream.close();
        later();
      };
    } catch {
      later();
    }
  }

  function later() {
    if (!stopped) retry = setTimeout(connect, 2000);
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    if (source) source.close();
  };
}
