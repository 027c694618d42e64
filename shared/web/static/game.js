// The game page, /play/{game_id}: the board, the orders, the results, who has ordered, the
// countdown, press and the draw, kept live by the stream (docs/web.md).
// Its state is one store (state.js); each part of the page reads it and changes it with
// store.update (docs/web.md, "The state store").
import {api, apiBlob, failure, forgetToken, onConnection, keepSeat, localTime, phaseName, powerName, seatOf, timeLeft, tokenFor} from "./api.js";
import {absenceNotes} from "./absence.js";
import {Attention} from "./attention.js";
import {OffPage} from "./offpage.js";
import {Board} from "./board.js";
import {BoardDrag} from "./drag.js";
import {byId, element, first} from "./dom.js";
import {identitiesPath, pngPath, variantPath, viewPath} from "./endpoints.js";
import {watch} from "./live.js";
import {OrdersPanel} from "./orders.js";
import {showOwn} from "./own.js";
import {Endgame} from "./endgame.js";
import {Press} from "./press.js";
import {showResults} from "./results.js";
import {SeatPanel} from "./seats.js";
import {settingsPhrases} from "./settings.js";
import {gameStore} from "./state.js";

/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").HistoryEntry} HistoryEntry */

const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const store = gameStore(gameId);
const token = () => tokenFor(gameId);

const ui = {
  gameName: byId("game-name", HTMLElement),
  phase: byId("phase", HTMLElement),
  countdown: byId("countdown", HTMLElement),
  deadline: byId("deadline", HTMLElement),
  me: byId("me", HTMLElement),
  banner: byId("banner", HTMLElement),
  connection: byId("connection", HTMLElement),
  boardArea: first(".board-area", HTMLElement),
  board: byId("board", HTMLDivElement),
  lastMoves: byId("last-moves", HTMLInputElement),
  zoom: byId("zoom", HTMLButtonElement),
  historyArea: first(".history", HTMLElement),
  history: byId("history", HTMLInputElement),
  historyLabel: byId("history-label", HTMLOutputElement),
  earlier: byId("earlier", HTMLButtonElement),
  newResults: byId("new-results", HTMLElement),
  newResultsText: byId("new-results-text", HTMLElement),
  newResultsNow: byId("new-results-now", HTMLButtonElement),
  powersPanel: byId("powers-panel", HTMLElement),
  powers: byId("powers", HTMLTableSectionElement),
  waiting: byId("waiting", HTMLElement),
  unitsPanel: byId("units-panel", HTMLElement),
  unitsText: byId("units-text", HTMLUListElement),
  unitsDislodged: byId("units-dislodged", HTMLElement),
  settings: byId("game-settings", HTMLElement),
  skipUnits: byId("skip-units", HTMLAnchorElement),
  downloadPng: byId("download-png", HTMLButtonElement),
};

const board = new Board(ui.board, {
  onUnit: (unit, event) => orders.clicks.clickUnit(unit, event),
  onProvince: (place, event) => orders.clicks.clickProvince(place, event),
});
const orders = new OrdersPanel(store, board);
const drag = new BoardDrag(ui.board, {
  canDrag: (unit) => orders.clicks.canDrag(unit),
  onDrop: (unit, place, event) => orders.clicks.dropUnit(unit, place, event),
});
const press = new Press(store);
const endgame = new Endgame(store);
const attention = new Attention(store, press.panel);
const offPage = new OffPage(gameId, token);
const seats = new SeatPanel(store, async () => {
  await onView(await readView());
  restartStream();
});

// The orders panel read new possible orders, or stored some: the own panel counts the builds or
// purchases they spend, and the board draws them.
store.subscribe((state, changed) => {
  if (!state.view || !changed.has("possible")) return;
  showOwn(state.view, orders.power || state.view.viewer.power || null, state.possible);
  drag.markDraggable();
  refreshBoard();
});

/** @returns {Promise<View>} */
async function readView() {
  try {
    return await api(viewPath(gameId), {token: token()});
  } catch (thrown) {
    const error = failure(thrown);
    if (error.code !== "invalid_token") throw error;
    forgetToken(gameId);  // a token this game does not know: read the public view
    return api(viewPath(gameId));
  }
}

/** The view's history page merged into what this page already read, and the view made to hold
it all: views send the latest 20 phases, a resolved phase never changes, earlier pages are read
on demand (docs/api.md, "History pages"; docs/web.md).
@param {View} fresh
@returns {{view: View, known: HistoryEntry[], older: boolean}} */
function withKnownHistory(fresh) {
  const state = store.get();
  const older = state.known.length === 0 ? Boolean(fresh.history_before) : state.older;
  const phases = new Set(fresh.history.map((entry) => entry.phase));
  const known = [...state.known.filter((entry) => !phases.has(entry.phase)), ...fresh.history];
  return {view: {...fresh, history: known.slice()}, known, older};
}

async function loadEarlier() {
  const {older, known} = store.get();
  if (!older || known.length === 0) return;
  ui.earlier.disabled = true;
  try {
    const page = await api(viewPath(gameId, known[0].phase), {token: token()});
    const now = store.get();
    const seen = new Set(now.known.map((entry) => entry.phase));
    const all = [...page.history.filter((/** @type {HistoryEntry} */ entry) => !seen.has(entry.phase)), ...now.known];
    store.update({known: all, older: Boolean(page.history_before), view: now.view && {...now.view, history: all.slice()}});
    render();
  } catch (thrown) {
    const error = failure(thrown);
    ui.historyLabel.textContent = `Earlier phases could not be read: ${error.message}`;
  } finally {
    ui.earlier.disabled = false;
  }
}

/** @param {View} view */
function drawnKey(view) {
  return JSON.stringify([view.game.phase, view.game.status, view.history.length, view.orders]);
}

async function refreshBoard(force = false) {
  const {view, shown, drawn} = store.get();
  if (!view) return;
  const key = shown || `${drawnKey(view)}:${orders.power}`;
  if (!force && key === drawn) return;
  store.update({drawn: key});
  try {
    if (view.game.status === "forming") await board.showEmpty(view.game.variant);
    else await board.show(gameId, token(), shown, view.viewer.powers.length > 1 ? orders.power : null);
  } catch (thrown) {
    const error = failure(thrown);
    store.update({drawn: null});  // drawn again with the next view
    ui.historyLabel.textContent = `The board could not be drawn: ${error.message}`;
  }
}

function render() {
  const {view, shown, possible} = store.get();
  if (!view) return;
  ui.gameName.textContent = view.game.name;
  const status = view.game.status === "forming" ? "waiting for players" : view.game.status === "finished" ? "finished" : "";
  ui.phase.textContent = [view.game.variant, phaseName(view.game.phase, view.game.variant), status].filter(Boolean).join(" · ");
  ui.settings.textContent = `Settings: ${settingsPhrases(view.game.settings).join(" · ")}.`;
  showMe(view);
  showBanner(view);
  seats.render(view);
  showPowers(view);
  showWaiting(view);
  showUnits(view);
  showHistoryControl(view);
  showResults(view, shown, showOnBoard);
  showOwn(view, orders.power || view.viewer.power || null, possible);
  press.render();
  endgame.render();
  tick();
}

/** @param {View} view */
function showMe(view) {
  const {colours} = store.get();
  const viewer = view.viewer;
  if (viewer.kind === "power") {
    ui.me.replaceChildren(...viewer.powers.map((p) => element("span", {class: "power-chip",
      style: `--power:${colours[p] || "#888"}; --power-ink:${inkOn(colours[p])}`, text: powerName(p)})),
    element("span", {class: "codename", text: viewer.codename}));
  } else if (viewer.kind === "player") {
    // the first view of a new seat may come before its codename: the join's answer has it
    const codename = viewer.codename || seatOf(gameId).codename;
    ui.me.textContent = codename ? `Seated as ${codename}; powers are drawn at the start` : "Seated; powers are drawn at the start";
  } else {
    ui.me.textContent = seatOf(gameId).host ? "Host (public view)" : "Watching (public view)";
  }
}

/** @param {View} view */
function showBanner(view) {
  const result = view.result;
  ui.banner.hidden = !result;
  if (!result) return;
  const names = (/** @type {string[] | undefined} */ list) => (list || []).map(powerName).join(", ");
  ui.banner.textContent = result.reason === "victory" ? `Game over: ${names(result.winners)} won.`
    : result.reason === "draw" ? `Game over: a draw between ${names(result.drawn)}.`
      : `Game over (${result.reason}).`;
  if (view.game.settings.reveal_identities) showIdentities();
}

/** Who played whom, once a game created to reveal it has ended (docs/api.md, identities). */
async function showIdentities() {
  let identities = store.get().identities;
  if (!identities) {
    store.update({identities: []});  // read once
    try {
      identities = /** @type {import("./shapes.js").Identity[]} */ ((await api(identitiesPath(gameId), {token: token()})).identities);
      store.update({identities});
    } catch {
      return;  // shown as the API allows: nothing more here
    }
  }
  const who = identities.map((i) => `${i.powers.map(powerName).join(", ")}: ${i.codename}${i.name ? ` (${i.name})` : ""}`);
  if (who.length && !ui.banner.textContent?.includes(" Played by ")) ui.banner.textContent += ` Played by ${who.join("; ")}.`;
}

/** Black or white, whichever reads better on ``colour`` (#rrggbb): WCAG's relative luminance.
 *  @param {string | undefined} colour */
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

/** A power's state in the phase (docs/web.md, "Done"): "house bot" (the bot's orders, never its
 *  player's "done"), "done" (its ready flag, or its whole set where no ready flag is asked for),
 *  "ordered" (its whole set, the ready flag still to come), "ordering" (orders stored one at a
 *  time, not done), "waiting" (nothing yet), "–" (nothing to do).
 *  @param {View} view @param {string} power */
function statusOf(view, power) {
  if (!view.must_act.includes(power)) return "–";
  if (view.powers[power]?.house_bot) return "house bot";
  if (view.ready?.includes(power)) return "done";
  if (view.submitted?.includes(power)) return view.game.settings.require_ready ? "ordered" : "done";
  if (view.ordering?.includes(power)) return "ordering";
  return "waiting";
}

/** Which powers the phase still waits for (the view's ``waiting_for``). @param {View} view */
function showWaiting(view) {
  const waiting = view.game.status === "active" ? view.waiting_for : null;
  ui.waiting.hidden = !Array.isArray(waiting);
  if (!Array.isArray(waiting)) return;
  // never "resolves now" beside a running countdown: a phase nobody waits for may still wait
  // for its clock (house bots' phases beyond the few resolved in a row; docs/bots.md)
  ui.waiting.textContent = waiting.length ? `Waiting for ${waiting.map(powerName).join(", ")}.`
    : "Nobody is waited for: the phase resolves early or at its deadline.";
}

/** A unit in words: the board games' "A PAR" as it is; a Tale of Ekonia group, an object of the
 *  fields its policy shows, as "INFANTRY at vieren" (never "[object Object]").
 *  @param {unknown} unit */
function unitText(unit) {
  if (typeof unit !== "object" || unit === null) return String(unit);
  const group = /** @type {Record<string, unknown>} */ (unit);
  return `${group.unit || group.type || "unit"}${group.location ? ` at ${group.location}` : ""}`;
}

/** Each power's units as the viewer may know them: the board's, and in Tale of Ekonia the
 *  viewer's own state's every group (the public board leaves out what cities hide, and the
 *  own panel counts them all: docs/web.md, "The variants"). @param {View} view
 *  @returns {Record<string, unknown[]>} */
function knownUnits(view) {
  const position = view.position;
  const units = {...(position?.units || {})};
  const own = position?.variant === "ekonia" ? /** @type {{power?: string, units?: unknown}} */ (position.own) : null;
  if (own?.power && Array.isArray(own.units)) units[own.power] = own.units;
  return units;
}

/** Every power's units as text, for a reader who does not see the board (docs/web.md, "Accessibility").
 *  @param {View} view */
function showUnits(view) {
  const units = knownUnits(view);
  const powers = Object.keys(units).filter((p) => units[p]?.length).sort();
  ui.unitsPanel.hidden = !powers.length || view.game.status === "forming";
  ui.unitsText.replaceChildren(...powers.map((power) =>
    element("li", {}, element("strong", {text: `${powerName(power)} (${units[power].length}): `}), units[power].map(unitText).join(", "))));
  const position = view.position;  // Tale of Ekonia's has no dislodged units: its battles say who fled
  const dislodged = (position && position.variant !== "ekonia" ? position.dislodged : []).map((d) => `${powerName(d.power)} ${d.unit}`);
  const devastated = position?.variant === "dirigible" ? position.devastated : [];  // Dirigible: game-wide, listed once
  ui.unitsDislodged.textContent = [dislodged.length ? `Dislodged: ${dislodged.join(", ")}.` : "",
    devastated.length ? `Devastated (for every power): ${devastated.join(", ")}.` : ""].filter(Boolean).join(" ");
}

/** @param {View} view */
function showPowers(view) {
  const {colours} = store.get();
  const powers = [...new Set([...Object.keys(colours), ...Object.keys(view.powers)])]
    .filter((p) => view.powers[p] || view.position?.units?.[p]);
  ui.powersPanel.hidden = !powers.length;
  const units = knownUnits(view);
  ui.powers.replaceChildren(...powers.map((power) => {
    const status = statusOf(view, power);
    const away = absenceNotes(view.powers[power]);
    return element("tr", {"data-power": power, class: view.viewer.powers?.includes(power) ? "mine" : null},
      element("th", {scope: "row"}, element("span", {class: "swatch", style: `--power:${colours[power] || "#888"}`}), powerName(power)),
      element("td", {class: "player"}, view.powers[power]?.codename || "",
        away.length ? element("span", {class: "away", text: away.join(" · ")}) : null),
      element("td", {text: String(view.position?.centres?.[power]?.length ?? 0)}),
      element("td", {text: String(units[power]?.length ?? 0)}),
      element("td", {class: `status ${status.replace(" ", "-")}`, text: status}));
  }));
}

/** @param {View} view */
function showHistoryControl(view) {
  const {shown, shownAt, older} = store.get();
  ui.historyArea.hidden = view.game.status === "forming";
  const slider = ui.history;
  const phases = view.history.map((entry) => entry.phase);
  slider.max = String(phases.length);
  slider.disabled = phases.length === 0;
  const index = shown ? phases.indexOf(shown) : phases.length;
  slider.value = String(index);
  const label = shown ? `${phaseName(shown, view.game.variant)} (resolved)` : `Now: ${phaseName(view.game.phase, view.game.variant) || "not started"}`;
  const newer = Boolean(shown && shownAt && (shownAt.phase !== view.game.phase || shownAt.status !== view.game.status));
  ui.newResults.hidden = !newer;
  if (newer) {
    ui.newResultsText.textContent = view.game.status === "finished"
      ? "The game has ended since you opened this phase." : `New results: the game is now at ${phaseName(view.game.phase, view.game.variant)}.`;
  }
  ui.historyLabel.textContent = label;
  slider.setAttribute("aria-valuetext", label);
  ui.earlier.hidden = !older;
}

function tick() {
  const view = store.get().view;
  if (!view || view.game.status !== "active") {  // no clock runs: neither a countdown nor a deadline
    ui.countdown.textContent = "";
    ui.deadline.textContent = "";
    return;
  }
  const pausedUntil = view.clock?.paused_until, deadline = view.clock?.deadline;
  ui.countdown.textContent = pausedUntil ? `Paused until ${localTime(pausedUntil)}` : deadline ? timeLeft(deadline) : "";
  const at = !pausedUntil && deadline ? `Deadline ${localTime(deadline)}` : "";
  if (ui.deadline.textContent !== at) ui.deadline.textContent = at;
}

/** A new view (read, or from the stream): the page redrawn, the possible orders read again
 *  when the game moved. @param {View} fresh */
async function onView(fresh) {
  const before = store.get().view;
  const {view, known, older} = withKnownHistory(fresh);
  store.update({view, known, older});
  if (before && (before.game.phase !== view.game.phase || before.game.status !== view.game.status)) attention.newPhase(view);
  const moved = !before || before.game.phase !== view.game.phase || before.game.status !== view.game.status
    || before.history.length !== view.history.length;
  render();
  if (view.viewer.powers?.length && view.game.status !== "finished") offPage.start().catch(() => {});
  if (moved) {
    await orders.reload().catch((error) => orders.problem(`The possible orders could not be read: ${error.message}`));
    if (before && before.game.status === "forming") keepCodename(view);
  } else if (store.get().possible) {
    orders.takeStored(view);  // orders stored from the seat's other device
    orders.render();  // who is ready, the stored orders; what the player is picking stays (orders.js)
  }
  await refreshBoard();
}

/** @param {View} view */
function keepCodename(view) {
  if (view.viewer.codename) keepSeat(gameId, {codename: view.viewer.codename});
}

/** @param {number} index  of the phase in the view's history; its length: now */
function showHistory(index) {
  const view = store.get().view;
  if (!view) return;
  const phases = view.history.map((entry) => entry.phase);
  const shown = (index < phases.length ? phases[index] : null) ?? null;
  store.update({shown, shownAt: shown ? {phase: view.game.phase, status: view.game.status} : null});
  orders.clicks.closeMenu();
  orders.clicks.select(null);
  render();
  refreshBoard(true);
}

/** The results panel's **Show these results on the board**: the slider moves to ``phase``.
 *  @param {string} phase */
function showOnBoard(phase) {
  showHistory(store.get().view?.history.findIndex((entry) => entry.phase === phase) ?? -1);
  // the board comes into view, the slider (whose keys walk the phases) takes the focus in place
  ui.boardArea.scrollIntoView({block: "start", behavior: "instant"});
  ui.history.focus({preventScroll: true});
}

/** The powers' colours, from the variant's map data (90 KiB for the standard board, geometry
 *  included), read once per browser and kept in local storage (docs/web.md, "Figures").
 *  @param {string} variant
 *  @returns {Promise<Record<string, string>>} */
async function powerColours(variant) {
  const key = `entente.colours.${variant}`;
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    if (kept && typeof kept === "object") return kept;
  } catch {
    // read them again
  }
  const data = await api(variantPath(variant));
  const colours = Object.fromEntries(Object.entries(data.powers).map(([p, info]) => [p, /** @type {{colour: string}} */ (info).colour]));
  localStorage.setItem(key, JSON.stringify(colours));
  return colours;
}

let stopStream = () => {};
function restartStream() {
  stopStream();
  let views = 0;  // the messages before a connection's first view are the backlog, already read
  stopStream = watch(gameId, token, {
    onView: (view) => { views += 1; return onView(view); },
    onMessage: (m) => { if (press.add(m) && views > 0) attention.newMessage(m); },
  });
}

/** A link's fragment may carry a token (``#token=…``), a private game's invite code
 *  (``#invite=…``, docs/hosting.md "Private games") or an e-mail's confirmation code
 *  (``#email-code=…``): kept, then taken out of the address. */
function takeTokenFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const seatToken = fragment.get("token");
  const invite = fragment.get("invite");
  if (seatToken) keepSeat(gameId, {token: seatToken});
  if (invite) keepSeat(gameId, {invite});
  offPage.linkCode = fragment.get("email-code");  // a confirmation mail's link (docs/social.md, "E-mail")
  if (location.hash) history.replaceState(null, "", location.pathname);
}

async function boot() {
  takeTokenFromFragment();
  onConnection((lost) => { ui.connection.hidden = !lost; });  // docs/web.md, "The connection"
  let view;
  try {
    view = await readView();
  } catch (thrown) {
    const error = failure(thrown);
    ui.gameName.textContent = error.code === "game_not_found" ? "No such game" : "The game could not be read";
    ui.phase.textContent = error.message;
    return;
  }
  store.update({colours: await powerColours(view.game.variant)});
  keepSeat(gameId, {name: view.game.name});
  if (view.viewer.codename) keepCodename(view);
  ui.newResultsNow.addEventListener("click", () => showHistory(store.get().view?.history.length ?? 0));
  ui.earlier.addEventListener("click", loadEarlier);
  ui.history.addEventListener("input", () => showHistory(Number(ui.history.value)));
  // a phone's board, wider than its frame, opens on the player's own units (docs/web.md)
  const centre = () => {
    if (board.centreOn(store.get().view?.viewer.powers || [])) ui.board.removeEventListener("drawn", centre);
  };
  ui.board.addEventListener("drawn", centre);
  ui.board.addEventListener("drawn", (event) => {
    const label = ui.lastMoves.closest("label");
    if (label) label.hidden = !(/** @type {CustomEvent<{lastMoves: boolean}>} */ (event)).detail.lastMoves;
  });
  ui.lastMoves.addEventListener("change", () => {
    // the board now draws the last phase's moves faint (docs/maps.md); the box hides them
    ui.board.classList.toggle("hide-last", !ui.lastMoves.checked);
  });
  ui.zoom.addEventListener("click", () => {
    board.setZoom(!board.zoomed);  // wider than the frame, scrolled; a finger's targets
    ui.zoom.setAttribute("aria-pressed", String(board.zoomed));
    localStorage.setItem(ZOOM_KEY, board.zoomed ? "1" : "");  // kept across reloads
  });
  if (localStorage.getItem(ZOOM_KEY)) {
    board.setZoom(true);
    ui.zoom.setAttribute("aria-pressed", "true");
  }
  ui.skipUnits.addEventListener("click", skipToOwnUnits);
  ui.downloadPng.addEventListener("click", downloadPng);
  await onView(view);
  seats.follow();
  setInterval(tick, 1000);
  restartStream();
}

const ZOOM_KEY = "entente.zoom";

/** **Skip to your units**: the focus on the viewer's first unit on the board (the board's
 *  own tab stops go on from there), else on the board. @param {MouseEvent} event */
function skipToOwnUnits(event) {
  event.preventDefault();
  const powers = store.get().view?.viewer.powers || [];
  const own = [...ui.board.querySelectorAll("[data-unit]")].find((unit) =>
    powers.includes(unit.getAttribute("data-power") || "") || powers.some((p) => (unit.getAttribute("data-unit") || "").startsWith(`${p} `)));
  const target = own instanceof SVGElement ? own : ui.boardArea;
  target.scrollIntoView({block: "center", inline: "center"});
  target.focus({preventScroll: true});
}

/** **Download the board (PNG)**: the picture the board shows (the phase on the slider, the
 *  power ordered for), as the API draws it (map.png), saved under the game's name and phase. */
async function downloadPng() {
  const {view, shown} = store.get();
  if (!view || view.game.status === "forming") return;
  const power = view.viewer.powers.length > 1 ? orders.power : null;
  ui.downloadPng.disabled = true;
  try {
    const picture = await apiBlob(pngPath(gameId, {phase: shown, power}), token());
    const link = /** @type {HTMLAnchorElement} */ (element("a", {href: URL.createObjectURL(picture),
      download: `${view.game.name.replace(/[^\w-]+/g, "-")}-${shown || view.game.phase || "board"}.png`}));
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  } catch (thrown) {
    ui.historyLabel.textContent = `The picture could not be downloaded: ${failure(thrown).message}`;
  } finally {
    ui.downloadPng.disabled = false;
  }
}

boot();
