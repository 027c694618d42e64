// The lobby page: sign in, your games (this browser's and, signed in, your account's on every
// device), the games forming, being played and finished, create a game (docs/web.md).
import {api, element, forgetSession, keepSeat, keepSession, localTime, phaseName, seats, session} from "./api.js";

const LIMITS = {standard: [2, 7], dirigible: [7, 7], ekonia: [2, 6]};
const PAGE = 20;
const IDLE_DAYS = 14;  // a forming game nobody joined for this long is no longer listed
const LISTS = {
  forming: {list: "forming-games", status: "forming-status", more: "forming-more", empty: "No game is waiting for players."},
  active: {list: "active-games", status: "active-status", more: "active-more", empty: "No game is being played."},
  finished: {list: "finished-games", status: "finished-status", more: "finished-more", empty: "No game has finished yet."},
};
const cursors = {};

function playerLimits(variant) {
  return LIMITS[variant] || [2, 7];
}

async function fillVariants() {
  const select = document.getElementById("variant");
  const filter = document.getElementById("variant-filter");
  const {variants} = await api("/variants");
  select.replaceChildren(...variants.map((v) => element("option", {value: v.name, text: v.name})));
  filter.replaceChildren(element("option", {value: "", text: "every variant"}),
    ...variants.map((v) => element("option", {value: v.name, text: v.name})));
  select.addEventListener("change", () => fitPlayerCount(select.value));
  fitPlayerCount(select.value);
}

function fitPlayerCount(variant) {
  const [low, high] = playerLimits(variant);
  const input = document.getElementById("player-count");
  input.min = low;
  input.max = high;
  input.value = high;
}

// Signing in -----------------------------------------------------------------------------

/** The sign-in's way back: the callback sends the browser here with ``#session=…`` (or
 *  ``#sign_in_error=…``); the token is kept and taken out of the address bar (docs/web.md). */
function takeSessionFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("session")) keepSession({token: fragment.get("session"), name: ""});
  if (fragment.get("sign_in_error")) document.getElementById("account-status").textContent = `Not signed in: ${fragment.get("sign_in_error")}`;
  if (location.hash) history.replaceState(null, "", location.pathname);
}

/** Whether this server offers sign-in (GET /auth/options). */
async function signInOffered() {
  try {
    return (await api("/auth/options")).sign_in;
  } catch {
    return false;
  }
}

async function showAccount() {
  const who = document.getElementById("account-name");
  const signIn = document.getElementById("sign-in");
  const signOut = document.getElementById("sign-out");
  const mine = session();
  if (mine) {
    try {
      const me = await api("/me", {token: mine.token});
      keepSession({name: me.name});
      who.textContent = `Signed in as ${me.name}. Your games follow you to every device where you sign in.`;
      signIn.hidden = true;
      signOut.hidden = false;
      return;
    } catch (error) {
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
  if (mine) await api("/auth/logout", {method: "POST", token: mine.token}).catch(() => null);
  await showAccount();
  await listMine();
}

// Your games -----------------------------------------------------------------------------

async function listMine() {
  const list = document.getElementById("my-games");
  // this browser's seats and host tokens (a game only watched, or played through the account, is not one)
  const held = Object.entries(seats()).filter(([, seat]) => seat.token || seat.host);
  const games = new Map(held.map(([id, seat]) => [id, {
    name: seat.name || id, details: [seat.codename, seat.host ? "host" : null]}]));
  const mine = session();
  if (mine) {
    try {
      for (const seat of (await api("/me/games", {token: mine.token})).games) {
        const status = seat.status === "active" ? phaseName(seat.phase) : seat.status;
        games.set(seat.game_id, {name: seat.name, details: [seat.codename, seat.powers.map((p) => p.charAt(0) + p.slice(1).toLowerCase()).join(", "), status]});
      }
    } catch {
      // the account's list is read again with the next load; this browser's seats still show
    }
  }
  if (!games.size) {
    list.replaceChildren(element("li", {class: "muted", text: "No game yet on this browser."}));
    return;
  }
  list.replaceChildren(...[...games].map(([id, game]) => element("li", {},
    element("a", {href: `/play/${id}`, text: game.name}),
    element("span", {class: "muted", text: game.details.filter(Boolean).join(" · ")}))));
}

// The games' lists -----------------------------------------------------------------------

function isIdle(game) {
  return game.status === "forming" && game.updated_at && Date.now() - Date.parse(game.updated_at) > IDLE_DAYS * 86400_000;
}

async function listGames(status, more = false) {
  const {list, status: statusId, more: moreId, empty} = LISTS[status];
  const out = document.getElementById(statusId);
  const items = document.getElementById(list);
  const variant = document.getElementById("variant-filter").value;
  const query = new URLSearchParams({status, limit: String(PAGE)});
  if (variant) query.set("variant", variant);
  if (more && cursors[status]) query.set("cursor", cursors[status]);
  try {
    const {games, next_cursor: next} = await api(`/games?${query}`);
    const shown = games.filter((game) => !isIdle(game));
    const reachedIdle = shown.length < games.length;  // the list is latest first: the rest is idle too
    cursors[status] = reachedIdle ? null : next;
    if (more) items.append(...shown.map(gameItem));
    else items.replaceChildren(...shown.map(gameItem));
    out.textContent = items.children.length ? "" : empty;
    if (status === "forming" && reachedIdle) out.textContent += ` Games nobody joined for ${IDLE_DAYS} days are not listed.`;
    document.getElementById(moreId).hidden = !cursors[status];
  } catch (error) {
    out.textContent = `Could not list the games: ${error.message}`;
  }
}

function listAll() {
  return Promise.all(Object.keys(LISTS).map((status) => listGames(status)));
}

function gameItem(game) {
  const seat = seats()[game.id] || {};
  const count = game.settings.player_count;
  const full = game.players >= count;
  let action;
  if (seat.token || seat.host) action = element("a", {href: `/play/${game.id}`, class: "button", text: `Open ${game.name}`});
  else if (game.status === "forming" && !full) action = element("button", {type: "button", text: `Join ${game.name}`, onclick: (event) => join(game, event.target)});
  else if (game.status === "forming") action = element("span", {class: "muted", text: "Full: waiting for the start"});
  else action = element("a", {href: `/play/${game.id}`, class: "button secondary",
    text: game.status === "active" ? `Watch ${game.name}` : `See ${game.name}`});
  const when = game.updated_at ? `${game.status === "forming" ? "changed" : game.status === "active" ? "last move" : "ended"} ${localTime(game.updated_at, true)}` : "";
  const state = game.status === "active" ? phaseName(game.phase) : game.status === "finished" ? resultText(game) : `${game.players}/${count} seats taken`;
  return element("li", {"data-game": game.id},
    element("span", {class: "game-title", text: game.name}),
    element("span", {class: "muted", text: [game.variant, game.status === "forming" ? null : `${count} players`, state].filter(Boolean).join(" · ")}),
    element("span", {class: "muted small", text: [when, game.id].filter(Boolean).join(" · ")}),
    action);
}

function resultText(game) {
  const result = game.result;
  const names = (list) => (list || []).map((p) => p.charAt(0) + p.slice(1).toLowerCase()).join(", ");
  if (!result) return "finished";
  if (result.reason === "victory") return `won by ${names(result.winners)}`;
  if (result.reason === "draw") return `drawn: ${names(result.drawn)}`;
  return result.reason;
}

async function join(game, button) {
  const status = document.getElementById("forming-status");
  if (button.disabled) return;
  button.disabled = true;
  try {
    const seat = await api(`/games/${game.id}/players`, {method: "POST", token: session()?.token});
    keepSeat(game.id, {token: seat.token, codename: seat.codename, name: game.name});
    location.assign(`/play/${game.id}`);
  } catch (error) {
    status.textContent = `Could not join ${game.name}: ${error.message}`;
    button.disabled = false;
    if (error.code === "game_full" || error.code === "game_started") listGames("forming");
  }
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const status = document.getElementById("create-status");
  const value = (name) => form.elements[name].value;
  const body = {
    name: value("name"),
    variant: value("variant"),
    settings: {
      player_count: Number(value("player_count")),
      movement_minutes: Number(value("movement_minutes")),
      retreat_minutes: Number(value("retreat_minutes")),
      press: value("press"),
      reveal_identities: form.elements.reveal_identities.checked,
      require_ready: form.elements.require_ready.checked,
      host_may_resolve: !form.elements.host_plays.checked,
      private: form.elements.private.checked,
    },
  };
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const game = await api("/games", {method: "POST", body});
    keepSeat(game.id, {host: game.host_token, name: game.name, invite: game.invite_code});
    location.assign(`/play/${game.id}`);
  } catch (error) {
    status.textContent = `Not created: ${error.message}`;
    button.disabled = false;
  }
}

takeSessionFromFragment();
document.getElementById("create-form").addEventListener("submit", create);
document.getElementById("refresh-open").addEventListener("click", listAll);
document.getElementById("variant-filter").addEventListener("change", listAll);
document.getElementById("sign-out").addEventListener("click", signOut);
for (const status of Object.keys(LISTS)) {
  document.getElementById(LISTS[status].more).addEventListener("click", () => listGames(status, true));
}
showAccount().then(listMine);
fillVariants().then(listAll);
