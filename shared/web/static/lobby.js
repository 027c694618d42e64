// The lobby page: sign in, your games (this browser's and, signed in, your account's on every
// device), the games forming, being played and finished, create a game (docs/web.md).
import {api, failure, forgetSession, keepSeat, keepSession, localTime, phaseName, powerName, seats, session} from "./api.js";
import {byId, element, first} from "./dom.js";
import {clockMinutes, settingsPhrases} from "./settings.js";
import {authOptionsPath, gamesPath, logoutPath, mePath, myGamesPath, playPage, playersPath, variantsPath, viewPath} from "./endpoints.js";

/** @typedef {import("./shapes.js").GameSummary} GameSummary */
/** @typedef {"forming" | "active" | "finished"} ListName */

const ui = {
  accountName: byId("account-name", HTMLElement),
  accountStatus: byId("account-status", HTMLElement),
  signIn: byId("sign-in", HTMLAnchorElement),
  signOut: byId("sign-out", HTMLButtonElement),
  myGames: byId("my-games", HTMLUListElement),
  variantFilter: byId("variant-filter", HTMLSelectElement),
  refreshOpen: byId("refresh-open", HTMLButtonElement),
  createForm: byId("create-form", HTMLFormElement),
  createStatus: byId("create-status", HTMLElement),
  createButton: first("#create-form button[type=submit]", HTMLButtonElement),
  variant: byId("variant", HTMLSelectElement),
  playerCount: byId("player-count", HTMLInputElement),
};

/** @type {Record<string, [number, number]>} */
const LIMITS = {standard: [2, 7], dirigible: [7, 7], ekonia: [2, 6]};
const PAGE = 20;
const IDLE_DAYS = 14;  // a forming game nobody joined for this long is no longer listed
/** @type {Record<ListName, {list: HTMLUListElement, status: HTMLElement, more: HTMLButtonElement, empty: string}>} */
const LISTS = {
  forming: {list: byId("forming-games", HTMLUListElement), status: byId("forming-status", HTMLElement),
    more: byId("forming-more", HTMLButtonElement), empty: "No game is waiting for players."},
  active: {list: byId("active-games", HTMLUListElement), status: byId("active-status", HTMLElement),
    more: byId("active-more", HTMLButtonElement), empty: "No game is being played."},
  finished: {list: byId("finished-games", HTMLUListElement), status: byId("finished-status", HTMLElement),
    more: byId("finished-more", HTMLButtonElement), empty: "No game has finished yet."},
};
/** @type {Record<string, string | null>} */
const cursors = {};

/** @param {string} variant */
function playerLimits(variant) {
  return LIMITS[variant] || [2, 7];
}

/** The variants into the form's menu and the lists' filter. **Create game** comes disabled with
 *  the page, and is enabled once they are in: sent before, the form would name no variant. */
async function fillVariants() {
  const select = ui.variant;
  const filter = ui.variantFilter;
  /** @type {{name: string}[]} */
  let variants;
  try {
    variants = (await api(variantsPath())).variants;
  } catch (thrown) {
    ui.createStatus.textContent = `The variants could not be read: ${failure(thrown).message}`;
    return;
  }
  select.replaceChildren(...variants.map((v) => element("option", {value: v.name, text: v.name})));
  filter.replaceChildren(element("option", {value: "", text: "every variant"}),
    ...variants.map((v) => element("option", {value: v.name, text: v.name})));
  select.addEventListener("change", () => fitPlayerCount(select.value));
  fitPlayerCount(select.value);
  ui.createButton.disabled = false;
}

/** @param {string} variant */
function fitPlayerCount(variant) {
  const [low, high] = playerLimits(variant);
  const input = ui.playerCount;
  input.min = String(low);
  input.max = String(high);
  input.value = String(high);
}

// Signing in -----------------------------------------------------------------------------

/** The sign-in's way back: the callback sends the browser here with ``#session=…`` (or
 *  ``#sign_in_error=…``); the token is kept and taken out of the address bar (docs/web.md). */
function takeSessionFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("session");
  if (token) keepSession({token, name: ""});
  if (fragment.get("sign_in_error")) ui.accountStatus.textContent = `Not signed in: ${fragment.get("sign_in_error")}`;
  if (location.hash) history.replaceState(null, "", location.pathname);
}

/** Whether this server offers sign-in (GET /auth/options). */
async function signInOffered() {
  try {
    return Boolean((await api(authOptionsPath())).sign_in);
  } catch {
    return false;
  }
}

async function showAccount() {
  const who = ui.accountName;
  const signIn = ui.signIn;
  const signOut = ui.signOut;
  const mine = session();
  if (mine) {
    try {
      const me = await api(mePath(), {token: mine.token});
      keepSession({name: me.name});
      who.textContent = `Signed in as ${me.name}. Your games follow you to every device where you sign in.`;
      signIn.hidden = true;
      signOut.hidden = false;
      return;
    } catch (thrown) {
      const error = failure(thrown);
      if (error.status === 401) forgetSession();  // logged out elsewhere, or expired
      else who.textContent = `Your account could not be read: ${error.message}`;
    }
  }
  signOut.hidden = true;
  const offered = await signInOffered();
  signIn.hidden = !offered;
  who.textContent = offered ? "Sign in to find your games on every device; without it, this browser keeps them."
    : "This server offers no sign-in: this browser keeps your games, and each game's private link opens it elsewhere.";
}

async function signOut() {
  const mine = session();
  forgetSession();
  if (mine) await api(logoutPath(), {method: "POST", token: mine.token}).catch(() => null);
  await showAccount();
  await listMine();
}

// Your games -----------------------------------------------------------------------------

/** @typedef {{name: string, token: string | null, details: (string | null | undefined)[]}} MyGame */

async function listMine() {
  const list = ui.myGames;
  // this browser's seats and host tokens (a game only watched, or played through the account, is not one)
  const held = Object.entries(seats()).filter(([, seat]) => seat.token || seat.host);
  /** @type {Map<string, MyGame>} */
  const games = new Map(held.map(([id, seat]) => [id, {
    name: seat.name || id, token: seat.token || seat.host || null, details: [seat.codename, seat.host && !seat.token ? "host" : null]}]));
  const mine = session();
  if (mine) {
    try {
      /** @type {{game_id: string, name: string, codename: string, powers: string[], status: string, phase: string | null}[]} */
      const accountSeats = (await api(myGamesPath(), {token: mine.token})).games;
      for (const seat of accountSeats) {
        const status = seat.status === "active" ? phaseName(seat.phase) : seat.status;
        games.set(seat.game_id, {name: seat.name, token: games.get(seat.game_id)?.token || mine.token,
          details: [seat.codename, seat.powers.map(powerName).join(", "), status]});
      }
    } catch {
      // the account's list is read again with the next load; this browser's seats still show
    }
  }
  if (!games.size) {
    list.replaceChildren(element("li", {class: "muted", text: "No game yet on this browser."}));
    return;
  }
  const entries = [...games].slice(0, 30);  // each read with its own view: power, phase, deadline, orders needed
  const views = await Promise.all(entries.map(([id, game]) => game.token ? api(viewPath(id), {token: game.token}).catch(() => null) : null));
  list.replaceChildren(...entries.map(([id, game], index) => myGameItem(id, game, views[index])));
}

/** One of "Your games": its name, the seat's powers, the phase, the deadline in the reader's
 *  zone, and **Orders needed** while the phase waits for one of the seat's powers.
 *  @param {string} id @param {MyGame} game @param {import("./shapes.js").View | null} view */
function myGameItem(id, game, view) {
  let details = game.details;
  let needed = false;
  if (view) {
    const powers = view.viewer.powers || [];
    const active = view.game.status === "active";
    needed = active && powers.some((p) => (view.waiting_for || []).includes(p));
    details = [view.viewer.codename || game.details[0], powers.map(powerName).join(", "),
      active ? phaseName(view.game.phase, view.game.variant) : view.game.status === "forming" ? "waiting for players" : "finished",
      active && view.clock?.paused_until ? `paused until ${localTime(view.clock.paused_until)}`
        : active && view.clock?.deadline ? `deadline ${localTime(view.clock.deadline)}` : null,
      view.viewer.kind === "public" ? "host" : null];
  }
  return element("li", {"data-game": id},
    element("a", {href: playPage(id), text: game.name}),
    needed ? element("strong", {class: "needed", text: "Orders needed"}) : null,
    element("span", {class: "muted", text: details.filter(Boolean).join(" · ")}));
}

// The games' lists -----------------------------------------------------------------------

/** @param {GameSummary} game */
function isIdle(game) {
  return game.status === "forming" && game.updated_at && Date.now() - Date.parse(game.updated_at) > IDLE_DAYS * 86400_000;
}

/** @param {ListName} status @param {boolean} [more] */
async function listGames(status, more = false) {
  const {list: items, status: out, more: moreButton, empty} = LISTS[status];
  const variant = ui.variantFilter.value;
  try {
    /** @type {{games: GameSummary[], next_cursor: string | null}} */
    const {games, next_cursor: next} = await api(gamesPath({status, limit: PAGE, variant, cursor: more ? cursors[status] : null}));
    const shown = games.filter((game) => !isIdle(game));
    const reachedIdle = shown.length < games.length;  // the list is latest first: the rest is idle too
    cursors[status] = reachedIdle ? null : next;
    if (more) items.append(...shown.map(gameItem));
    else items.replaceChildren(...shown.map(gameItem));
    out.textContent = items.children.length ? "" : empty;
    if (status === "forming" && reachedIdle) out.textContent += ` Games nobody joined for ${IDLE_DAYS} days are not listed.`;
    moreButton.hidden = !cursors[status];
  } catch (thrown) {
    const error = failure(thrown);
    out.textContent = `Could not list the games: ${error.message}`;
  }
}

const LIST_NAMES = /** @type {ListName[]} */ (Object.keys(LISTS));

function listAll() {
  return Promise.all(LIST_NAMES.map((status) => listGames(status)));
}

/** @param {GameSummary} game */
function gameItem(game) {
  const seat = seats()[game.id] || {};
  const count = Number(game.settings.player_count);  // the settings are the variant's, a loose object in the API
  const full = game.players >= count;
  let action;
  if (seat.token || seat.host) action = element("a", {href: playPage(game.id), class: "button", text: `Open ${game.name}`});
  else if (game.status === "forming" && !full) {
    action = element("button", {type: "button", text: `Join ${game.name}`,
      onclick: (/** @type {MouseEvent} */ event) => join(game, /** @type {HTMLButtonElement} */ (event.currentTarget))});
  }
  else if (game.status === "forming") action = element("span", {class: "muted", text: "Full: waiting for the start"});
  else action = element("a", {href: playPage(game.id), class: "button secondary",
    text: game.status === "active" ? `Watch ${game.name}` : `See ${game.name}`});
  const when = game.updated_at ? `${game.status === "forming" ? "changed" : game.status === "active" ? "last move" : "ended"} ${localTime(game.updated_at, true)}` : "";
  const state = game.status === "active" ? phaseName(game.phase) : game.status === "finished" ? resultText(game) : `${game.players}/${count} seats taken`;
  return element("li", {"data-game": game.id},
    element("span", {class: "game-title", text: game.name}),
    element("span", {class: "muted", text: [game.variant, game.status === "forming" ? null : `${count} players`, state].filter(Boolean).join(" · ")}),
    element("span", {class: "muted settings", text: settingsPhrases(game.settings).join(" · ")}),
    element("span", {class: "muted small", text: [when, game.id].filter(Boolean).join(" · ")}),
    action);
}

/** @param {GameSummary} game */
function resultText(game) {
  const result = game.result;
  const names = (/** @type {string[] | undefined} */ list) => (list || []).map((p) => p.charAt(0) + p.slice(1).toLowerCase()).join(", ");
  if (!result) return "finished";
  if (result.reason === "victory") return `won by ${names(result.winners)}`;
  if (result.reason === "draw") return `drawn: ${names(result.drawn)}`;
  return result.reason;
}

/** @param {GameSummary} game @param {HTMLButtonElement} button */
async function join(game, button) {
  const status = LISTS.forming.status;
  if (button.disabled) return;
  button.disabled = true;
  try {
    const seat = await api(playersPath(game.id), {method: "POST", token: session()?.token});
    keepSeat(game.id, {token: seat.token, codename: seat.codename, name: game.name});
    location.assign(playPage(game.id));
  } catch (thrown) {
    const error = failure(thrown);
    status.textContent = `Could not join ${game.name}: ${error.message}`;
    button.disabled = false;
    if (error.code === "game_full" || error.code === "game_started") listGames("forming");
  }
}

/** @param {SubmitEvent} event */
async function create(event) {
  event.preventDefault();
  const form = ui.createForm;
  const status = ui.createStatus;
  /** @param {string} name */
  const field = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
  /** @param {string} name */
  const value = (name) => field(name).value;
  const body = {
    name: value("name"),
    variant: value("variant"),
    settings: {
      player_count: Number(value("player_count")),
      movement_minutes: clockMinutes(value("movement_clock"), value("movement_unit")),
      retreat_minutes: clockMinutes(value("retreat_clock"), value("retreat_unit")),
      press: value("press"),
      reveal_identities: field("reveal_identities").checked,
      require_ready: field("require_ready").checked,
      host_may_resolve: !field("host_plays").checked,
      private: field("private").checked,
      daide_open: field("daide_open").checked,
      partial_draws: field("partial_draws").checked,
      concessions: field("concessions").checked,
      bots_may_join: field("bots_may_join").checked,
      // the house bot's settings only with a house bot (the API refuses them alone)
      ...(value("house_bot") ? {house_bot: value("house_bot"), bots_fill_empty_seats: field("bots_fill_empty_seats").checked,
        bot_after_missed_phases: Number(value("bot_after_missed_phases")) || null} : {}),
    },
  };
  const button = ui.createButton;
  button.disabled = true;
  try {
    const game = await api(gamesPath(), {method: "POST", body});
    keepSeat(game.id, {host: game.host_token, name: game.name, invite: game.invite_code});
    location.assign(playPage(game.id));
  } catch (thrown) {
    const error = failure(thrown);
    status.textContent = `Not created: ${error.message}`;
    button.disabled = false;
  }
}

takeSessionFromFragment();
ui.createForm.addEventListener("submit", create);
ui.refreshOpen.addEventListener("click", listAll);
ui.variantFilter.addEventListener("change", listAll);
ui.signOut.addEventListener("click", signOut);
for (const status of LIST_NAMES) LISTS[status].more.addEventListener("click", () => listGames(status, true));
showAccount().then(listMine);
fillVariants().then(listAll);
