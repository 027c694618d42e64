// The game page, /play/{game_id}: the board, the orders, the results, who has ordered, the
// countdown, press and the draw, kept live by the stream (docs/web.md).
import {api, element, forgetToken, keepSeat, localTime, phaseName, powerName, seatOf, session, timeLeft, tokenFor} from "./api.js";
import {Attention} from "./attention.js";
import {Board} from "./board.js";
import {watch} from "./live.js";
import {OrdersPanel} from "./orders.js";
import {showOwn} from "./own.js";
import {Press} from "./press.js";
import {showResults} from "./results.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");

/** A link's fragment may carry a token (``#token=…``) or a private game's invite code
 *  (``#invite=…``, docs/hosting.md "Private games"): kept, then taken out of the address. */
function takeTokenFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) keepSeat(gameId, {token: fragment.get("token")});
  if (fragment.get("invite")) keepSeat(gameId, {invite: fragment.get("invite")});
  if (location.hash) history.replaceState(null, "", location.pathname);
}

const game = {
  id: gameId,
  view: null,
  colours: {},
  shown: null,  // a resolved phase the board shows; null: the board now
  drawn: null,  // what the board drawn now shows (phase and own pending orders)
  summary: null,  // the public summary, read while the game is forming (how many seats are taken)
  joinProblem: "",  // why the last Join failed, kept under the seats however often they are redrawn
  known: [],  // every resolved phase this page has read, oldest first (views send the latest page)
  older: false,  // whether the server has resolved phases before the first of ``known``
  get token() { return tokenFor(gameId); },
  ordersChanged() {
    showOwn(game.view, orders.power || game.view.viewer.power, orders.possible);  // the points or gold the orders spend
    refreshBoard();
  },
  powerChanged() { render(); refreshBoard(); },
};

const board = new Board(document.getElementById("board"), {
  onUnit: (unit, event) => orders.clickUnit(unit, event),
  onProvince: (place, event) => orders.clickProvince(place, event),
});
const orders = new OrdersPanel(game, board);
const press = new Press(game);
const attention = new Attention(game);

async function readView() {
  try {
    return await api(`/games/${gameId}/view`, {token: game.token});
  } catch (error) {
    if (error.code !== "invalid_token") throw error;
    forgetToken(gameId);  // a token this game does not know: read the public view
    return api(`/games/${gameId}/view`);
  }
}

/** The view's history page merged into what this page already read, and the view made to hold
it all: views send the latest 20 phases, a resolved phase never changes, earlier pages are read
on demand (docs/api.md, "History pages"; docs/web.md). */
function withKnownHistory(view) {
  if (game.known.length === 0) game.older = Boolean(view.history_before);
  const fresh = new Set(view.history.map((entry) => entry.phase));
  game.known = [...game.known.filter((entry) => !fresh.has(entry.phase)), ...view.history];
  view.history = game.known.slice();
  return view;
}

async function loadEarlier() {
  const button = document.getElementById("earlier");
  if (!game.older || game.known.length === 0) return;
  button.disabled = true;
  try {
    const cursor = encodeURIComponent(game.known[0].phase);
    const page = await api(`/games/${gameId}/view?history_before=${cursor}`, {token: game.token});
    const known = new Set(game.known.map((entry) => entry.phase));
    game.known = [...page.history.filter((entry) => !known.has(entry.phase)), ...game.known];
    game.older = Boolean(page.history_before);
    game.view.history = game.known.slice();
    render();
  } catch (error) {
    document.getElementById("history-label").textContent = `Earlier phases could not be read: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

function drawnKey(view) {
  return JSON.stringify([view.game.phase, view.game.status, view.history.length, view.orders]);
}

async function refreshBoard(force = false) {
  const view = game.view;
  const key = game.shown || `${drawnKey(view)}:${orders.power}`;
  if (!force && key === game.drawn) return;
  game.drawn = key;
  try {
    if (view.game.status === "forming") await board.showEmpty(view.game.variant);
    else await board.show(gameId, game.token, game.shown, view.viewer.powers.length > 1 ? orders.power : null);
  } catch (error) {
    game.drawn = null;  // drawn again with the next view
    document.getElementById("history-label").textContent = `The board could not be drawn: ${error.message}`;
  }
}

function render() {
  const view = game.view;
  attention.showTitle();
  document.getElementById("game-name").textContent = view.game.name;
  const status = view.game.status === "forming" ? "waiting for players" : view.game.status === "finished" ? "finished" : "";
  document.getElementById("phase").textContent = [view.game.variant, phaseName(view.game.phase), status].filter(Boolean).join(" · ");
  showMe(view);
  showBanner(view);
  showSeats(view);
  showDeviceLink();
  showPowers(view);
  showWaiting(view);
  showUnits(view);
  showHistoryControl(view);
  showResults(view, game.shown);
  showOwn(view, orders.power || view.viewer.power, orders.possible);
  press.render();
  tick();
}

function showMe(view) {
  const me = document.getElementById("me");
  const viewer = view.viewer;
  if (viewer.kind === "power") {
    me.replaceChildren(...viewer.powers.map((p) => element("span", {class: "power-chip",
      style: `--power:${game.colours[p] || "#888"}; --power-ink:${inkOn(game.colours[p])}`, text: powerName(p)})),
      element("span", {class: "codename", text: viewer.codename}));
  } else if (viewer.kind === "player") {
    // the first view of a new seat may come before its codename: the join's answer has it
    const codename = viewer.codename || seatOf(gameId).codename;
    me.textContent = codename ? `Seated as ${codename}; powers are drawn at the start` : "Seated; powers are drawn at the start";
  } else {
    me.textContent = seatOf(gameId).host ? "Host (public view)" : "Watching (public view)";
  }
}

function showBanner(view) {
  const banner = document.getElementById("banner");
  const result = view.result;
  banner.hidden = !result;
  if (!result) return;
  const names = (list) => (list || []).map(powerName).join(", ");
  banner.textContent = result.reason === "victory" ? `Game over: ${names(result.winners)} won.`
    : result.reason === "draw" ? `Game over: a draw between ${names(result.drawn)}.`
      : `Game over (${result.reason}).`;
  if (view.game.settings.reveal_identities) showIdentities(banner);
}

/** Who played whom, once a game created to reveal it has ended (docs/api.md, identities). */
async function showIdentities(banner) {
  if (!game.identities) {
    game.identities = [];
    try {
      game.identities = (await api(`/games/${gameId}/identities`, {token: game.token})).identities;
    } catch {
      return;  // shown as the API allows: nothing more here
    }
  }
  const who = game.identities.map((i) => `${i.powers.map(powerName).join(", ")}: ${i.codename}${i.name ? ` (${i.name})` : ""}`);
  if (who.length && !banner.textContent.includes(" Played by ")) banner.textContent += ` Played by ${who.join("; ")}.`;
}

/** The link that carries this seat's token in its fragment, to play on another device: a
 *  fragment never reaches the server, nor a Referer (docs/web.md, "Tokens"). */
function showDeviceLink() {
  const token = seatOf(gameId).token;
  document.getElementById("device").hidden = !token;
  if (token) document.getElementById("device-link").value = `${location.origin}/play/${gameId}#token=${token}`;
}

/** Black or white, whichever reads better on ``colour`` (#rrggbb): WCAG's relative luminance. */
function inkOn(colour) {
  const match = /^#([0-9a-f]{6})$/i.exec(colour || "");
  if (!match) return "#111";
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(match[1].slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? "#111" : "#fff";
}

function showSeats(view) {
  const seat = seatOf(gameId);
  const panel = document.getElementById("seat-panel");
  const forming = view.game.status === "forming";
  panel.hidden = !forming && !(seat.host && view.game.status === "active");
  const count = view.game.settings.player_count;
  const seated = game.summary ? game.summary.players : 0;
  document.getElementById("seat-title").textContent = forming ? "Seats" : "Host";
  document.getElementById("seat-status").textContent = forming
    ? `${seated} of ${count} seats taken${seat.token ? `; you are ${seat.codename || "seated"}` : ""}.`
      + (game.joinProblem && !seat.token ? ` ${game.joinProblem}` : "") : "";
  document.getElementById("join").hidden = !forming || Boolean(seat.token);
  document.getElementById("start").hidden = !forming || !seat.host;
  const inviting = forming && Boolean(seat.host && seat.invite);  // a private game's host
  document.getElementById("private-invite").hidden = !inviting;
  if (inviting) {
    document.getElementById("invite-link").value = `${location.origin}/play/${gameId}#invite=${encodeURIComponent(seat.invite)}`;
  }
  const hostResolves = view.game.settings.host_may_resolve !== false;
  document.getElementById("resolve").hidden = forming || !seat.host || view.game.status !== "active" || !hostResolves;
  if (document.getElementById("resolve").hidden) closeResolveConfirmation();
  const invite = `${location.origin}/play/${gameId}`;
  const hidden = view.game.settings.private;  // joined only with the invite link (docs/hosting.md)
  document.getElementById("invite").textContent = !forming || inviting ? ""
    : hidden ? "A private game: players join with the invite link its host was given" : `Invite players with ${invite}`;
}

/** A power's state in the phase (docs/web.md, "Done"): "done" (its ready flag, or its whole set
 *  where no ready flag is asked for), "ordered" (its whole set, the ready flag still to come),
 *  "ordering" (orders stored one at a time, not done), "waiting" (nothing yet), "–" (nothing to do). */
function statusOf(view, power) {
  if (!view.must_act.includes(power)) return "–";
  if (view.ready?.includes(power)) return "done";
  if (view.submitted?.includes(power)) return view.game.settings.require_ready ? "ordered" : "done";
  if (view.ordering?.includes(power)) return "ordering";
  return "waiting";
}

/** Which powers the phase still waits for (the view's ``waiting_for``). */
function showWaiting(view) {
  const out = document.getElementById("waiting");
  const waiting = view.game.status === "active" ? view.waiting_for : null;
  out.hidden = !Array.isArray(waiting);
  if (out.hidden) return;
  out.textContent = waiting.length ? `Waiting for ${waiting.map(powerName).join(", ")}.`
    : "Every power is done: the phase resolves now.";
}

/** Every power's units as text, for a reader who does not see the board (docs/web.md, "Accessibility"). */
function showUnits(view) {
  const units = view.position?.units || {};
  const powers = Object.keys(units).filter((p) => units[p]?.length).sort();
  document.getElementById("units-panel").hidden = !powers.length || view.game.status === "forming";
  document.getElementById("units-text").replaceChildren(...powers.map((power) =>
    element("li", {}, element("strong", {text: `${powerName(power)} (${units[power].length}): `}), units[power].join(", "))));
  const dislodged = (view.position?.dislodged || []).map((d) => `${powerName(d.power)} ${d.unit}`);
  const devastated = view.position?.devastated || [];  // Dirigible: game-wide, listed once
  document.getElementById("units-dislodged").textContent = [dislodged.length ? `Dislodged: ${dislodged.join(", ")}.` : "",
    devastated.length ? `Devastated (for every power): ${devastated.join(", ")}.` : ""].filter(Boolean).join(" ");
}

function showPowers(view) {
  const powers = [...new Set([...Object.keys(game.colours), ...Object.keys(view.powers)])]
    .filter((p) => view.powers[p] || view.position?.units?.[p]);
  document.getElementById("powers-panel").hidden = !powers.length;
  document.getElementById("powers").replaceChildren(...powers.map((power) => {
    const status = statusOf(view, power);
    return element("tr", {"data-power": power, class: view.viewer.powers?.includes(power) ? "mine" : null},
      element("th", {scope: "row"}, element("span", {class: "swatch", style: `--power:${game.colours[power] || "#888"}`}), powerName(power)),
      element("td", {text: view.powers[power]?.codename || ""}),
      element("td", {text: String(view.position?.centres?.[power]?.length ?? 0)}),
      element("td", {text: String(view.position?.units?.[power]?.length ?? 0)}),
      element("td", {class: `status ${status}`, text: status}));
  }));
}

function showHistoryControl(view) {
  document.querySelector(".history").hidden = view.game.status === "forming";
  const slider = document.getElementById("history");
  const phases = view.history.map((entry) => entry.phase);
  slider.max = String(phases.length);
  slider.disabled = phases.length === 0;
  const index = game.shown ? phases.indexOf(game.shown) : phases.length;
  slider.value = String(index);
  const label = game.shown ? `${phaseName(game.shown)} (resolved)` : `Now: ${phaseName(view.game.phase) || "not started"}`;
  const newer = game.shown && game.shownAt && (game.shownAt.phase !== view.game.phase || game.shownAt.status !== view.game.status);
  document.getElementById("new-results").hidden = !newer;
  if (newer) {
    document.getElementById("new-results-text").textContent = view.game.status === "finished"
      ? "The game has ended since you opened this phase." : `New results: the game is now at ${phaseName(view.game.phase)}.`;
  }
  document.getElementById("history-label").textContent = label;
  slider.setAttribute("aria-valuetext", label);
  document.getElementById("earlier").hidden = !game.older;
}

function tick() {
  const view = game.view;
  const out = document.getElementById("countdown");
  if (!view || view.game.status !== "active") {
    out.textContent = "";
    return;
  }
  const clock = view.clock || {};
  out.textContent = clock.paused_until ? `Paused until ${localTime(clock.paused_until)}`
    : clock.deadline ? timeLeft(clock.deadline) : "";
  const deadline = document.getElementById("deadline");
  const at = !clock.paused_until && clock.deadline ? `Deadline ${localTime(clock.deadline)}` : "";
  if (deadline.textContent !== at) deadline.textContent = at;
}

async function onView(view) {
  const before = game.view;
  game.view = withKnownHistory(view);
  if (before && (before.game.phase !== view.game.phase || before.game.status !== view.game.status)) attention.newPhase(view);
  const moved = !before || before.game.phase !== view.game.phase || before.game.status !== view.game.status
    || before.history.length !== view.history.length;
  render();
  if (moved) {
    await orders.reload().catch((error) => {
      document.getElementById("order-status").textContent = `The possible orders could not be read: ${error.message}`;
    });
    if (before && before.game.status === "forming") keepCodename(view);
  } else if (orders.possible) {
    orders.takeStored(view);  // orders stored from the seat's other device
    orders.render();  // who is ready, the stored orders; what the player is picking stays (orders.js)
  }
  await refreshBoard();
}

/** While the game forms, the seats taken are read every few seconds (no view changes then). */
async function followSeats() {
  if (game.view.game.status !== "forming") return;
  try {
    game.summary = await api(`/games/${gameId}`);
    showSeats(game.view);
  } catch {
    // read again at the next turn
  } finally {
    setTimeout(followSeats, 3000);
  }
}

function keepCodename(view) {
  if (view.viewer.codename) keepSeat(gameId, {codename: view.viewer.codename});
}

async function hostAct(path, body) {
  const status = document.getElementById("seat-status");
  try {
    await api(`/games/${gameId}/${path}`, {method: "POST", token: seatOf(gameId).host, body});
    status.textContent = "";
  } catch (error) {
    status.textContent = error.code === "phase_already_resolved" ? "That phase has already resolved." : `Refused: ${error.message}`;
  }
}

/** **Resolve the phase now** asks first, naming the phase, and sends once: the confirmation's
 *  button is disabled while its request is on its way, and the phase is named in the request
 *  (a second one could only be 409 phase_already_resolved). */
function askToResolve() {
  const phase = game.view.game.phase;
  const box = document.getElementById("resolve-confirm");
  document.getElementById("resolve-question").textContent =
    `Resolve ${phaseName(phase)} now for everyone? Units without orders hold; it cannot be undone.`;
  box.dataset.phase = phase;
  box.hidden = false;
  document.getElementById("resolve").setAttribute("aria-expanded", "true");
  document.getElementById("resolve-yes").focus();
}

function closeResolveConfirmation() {
  document.getElementById("resolve-confirm").hidden = true;
  document.getElementById("resolve").setAttribute("aria-expanded", "false");
}

async function resolveNow() {
  const yes = document.getElementById("resolve-yes");
  if (yes.disabled) return;
  yes.disabled = true;
  try {
    await hostAct("resolve", {phase: document.getElementById("resolve-confirm").dataset.phase});
  } finally {
    yes.disabled = false;
    closeResolveConfirmation();
  }
}

async function join() {
  const status = document.getElementById("seat-status");
  const button = document.getElementById("join");
  if (button.disabled) return;
  button.disabled = true;
  try {
    const invite = seatOf(gameId).invite;
    const seat = await api(`/games/${gameId}/players`, {method: "POST", token: session()?.token,
                                                        body: invite ? {invite_code: invite} : undefined});
    keepSeat(gameId, {token: seat.token, codename: seat.codename, name: game.view.game.name});
    game.joinProblem = "";
    game.known = [];  // a player may see more of the past than the public did
    game.summary = await api(`/games/${gameId}`);
    await onView(await readView());
    restartStream();
  } catch (error) {
    game.joinProblem = `Could not join: ${error.message}`;
    status.textContent = game.joinProblem;
  } finally {
    button.disabled = false;
  }
}

function showHistory(index) {
  const phases = game.view.history.map((entry) => entry.phase);
  game.shown = index < phases.length ? phases[index] : null;
  game.shownAt = game.shown ? {phase: game.view.game.phase, status: game.view.game.status} : null;
  orders.closeMenu();
  orders.select(null);
  render();
  refreshBoard(true);
}

/** The powers' colours, from the variant's map data (90 KiB for the standard board, geometry
 *  included), read once per browser and kept in local storage (docs/web.md, "Figures"). */
async function powerColours(variant) {
  const key = `entente.colours.${variant}`;
  try {
    const kept = JSON.parse(localStorage.getItem(key));
    if (kept && typeof kept === "object") return kept;
  } catch {
    // read them again
  }
  const data = await api(`/variants/${encodeURIComponent(variant)}`);
  const colours = Object.fromEntries(Object.entries(data.powers).map(([p, info]) => [p, info.colour]));
  localStorage.setItem(key, JSON.stringify(colours));
  return colours;
}

let stopStream = () => {};
function restartStream() {
  stopStream();
  let views = 0;  // the messages before a connection's first view are the backlog, already read
  stopStream = watch(gameId, () => game.token, {
    onView: (view) => { views += 1; return onView(view); },
    onMessage: (m) => { if (press.add(m) && views > 0) attention.newMessage(m); },
  });
}

async function boot() {
  takeTokenFromFragment();
  let view;
  try {
    view = await readView();
  } catch (error) {
    document.getElementById("game-name").textContent = error.code === "game_not_found" ? "No such game" : "The game could not be read";
    document.getElementById("phase").textContent = error.message;
    return;
  }
  game.colours = await powerColours(view.game.variant);
  keepSeat(gameId, {name: view.game.name});
  if (view.viewer.codename) keepCodename(view);
  document.getElementById("join").addEventListener("click", join);
  document.getElementById("start").addEventListener("click", () => hostAct("start"));
  document.getElementById("resolve").addEventListener("click", askToResolve);
  document.getElementById("resolve-yes").addEventListener("click", resolveNow);
  document.getElementById("resolve-no").addEventListener("click", closeResolveConfirmation);
  document.getElementById("new-results-now").addEventListener("click", () => showHistory(game.view.history.length));
  document.getElementById("earlier").addEventListener("click", loadEarlier);
  document.getElementById("history").addEventListener("input", (event) => showHistory(Number(event.target.value)));
  document.getElementById("results").addEventListener("click", (event) => {
    if (event.target.id !== "results-on-board") return;
    showHistory(game.view.history.findIndex((entry) => entry.phase === event.target.dataset.phase));
    // the board comes into view, the slider (whose keys walk the phases) takes the focus in place
    document.querySelector(".board-area").scrollIntoView({block: "start", behavior: "instant"});
    document.getElementById("history").focus({preventScroll: true});
  });
  document.getElementById("board").addEventListener("drawn", (event) => {
    document.getElementById("last-moves").closest("label").hidden = !event.detail.lastMoves;
  });
  document.getElementById("last-moves").addEventListener("change", (event) => {
    // the board now draws the last phase's moves faint (docs/maps.md); the box hides them
    document.getElementById("board").classList.toggle("hide-last", !event.target.checked);
  });
  document.getElementById("zoom").addEventListener("click", (event) => {
    board.setZoom(!board.zoomed);  // wider than the frame, scrolled; a finger's targets
    event.target.setAttribute("aria-pressed", String(board.zoomed));
  });
  await onView(view);
  followSeats();
  setInterval(tick, 1000);
  restartStream();
}

boot();
