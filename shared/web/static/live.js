// The live stream through a stream ticket: an EventSource cannot send an Authorization
// header, so each connection asks for a one-time ticket first (docs/api.md, stream-ticket).

/** The whole view (as GET /view shows it) from a `view` event, every one of which has the same
shape: `history_added` holds the whole history page when `history_reset` is true (the first of a
connection), else only the entries added since the one before, appended to the page held; the
page starts at `history_before` when earlier phases exist (docs/social.md, "Frames that send
only what is new"). */
export function wholeView(data, page) {
  const {history_added: added, history_reset: reset, ...view} = data;
  const joined = reset ? [...added] : [...page, ...added];
  const first = view.history_before === null ? 0 : joined.findIndex((entry) => entry.phase === view.history_before);
  return {...view, history: joined.slice(Math.max(0, first))};
}

/** Follows the game's stream until the returned function is called; resumes where it stopped. */
export function watch(gameId, token, {onView, onMessage}) {
  let lastId = "0";  // the first connection sends every message, then the view
  let source = null;
  let page = [];  // the history page of the last view
  let stopped = false;
  let retry = null;

  async function connect() {
    if (stopped) return;
    try {
      const headers = token() ? {authorization: `Bearer ${token()}`} : {};
      const answer = await fetch(`/games/${gameId}/stream-ticket`, {method: "POST", headers});
      if (!answer.ok) throw new Error(`stream ticket: ${answer.status}`);
      const {ticket} = await answer.json();
      if (stopped) return;
      source = new EventSource(`/games/${gameId}/stream?ticket=${encodeURIComponent(ticket)}&last_event_id=${encodeURIComponent(lastId)}`);
      source.addEventListener("view", (event) => {
        lastId = event.lastEventId || lastId;
        const view = wholeView(JSON.parse(event.data), page);
        page = view.history.slice();
        onView(view);
      });
      source.addEventListener("message", (event) => { lastId = event.lastEventId || lastId; onMessage(JSON.parse(event.data)); });
      source.addEventListener("closed", (event) => {
        source.close();
        if (JSON.parse(event.data).reason !== "credential_revoked") connect();
      });
      source.onerror = () => {  // the server ended the stream or went away: a new ticket, later
        source.close();
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
