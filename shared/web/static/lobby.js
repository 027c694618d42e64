// The lobby page: create a game, list the open ones, join one (docs/web.md).
import {api, element, keepSeat, seats} from "./api.js";

const LIMITS = {standard: [2, 7], dirigible: [7, 7], ekonia: [2, 6]};

function playerLimits(variant) {
  return LIMITS[variant] || [2, 7];
}

async function fillVariants() {
  const select = document.getElementById("variant");
  const {variants} = await api("/variants");
  select.replaceChildren(...variants.map((v) => element("option", {value: v.name, text: v.name})));
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

function listMine() {
  const list = document.getElementById("my-games");
  const mine = Object.entries(seats());
  if (!mine.length) return;
  list.replaceChildren(...mine.map(([id, seat]) => element("li", {},
    element("a", {href: `/play/${id}`, text: seat.name || id}),
    element("span", {class: "muted", text: [seat.codename, seat.host ? "host" : null].filter(Boolean).join(" · ")}))));
}

async function listOpen() {
  const status = document.getElementById("open-status");
  const list = document.getElementById("open-games");
  try {
    const {games} = await api("/games?status=forming&limit=50");
    status.textContent = games.length ? "" : "No game is waiting for players.";
    list.replaceChildren(...games.map(openGameItem));
  } catch (error) {
    status.textContent = `Could not list the games: ${error.message}`;
  }
}

function openGameItem(game) {
  const seat = seats()[game.id] || {};
  const action = seat.token
    ? element("a", {href: `/play/${game.id}`, class: "button", text: `Open ${game.name}`})
    : element("button", {type: "button", text: `Join ${game.name}`, onclick: () => join(game)});
  return element("li", {},
    element("span", {class: "game-title", text: game.name}),
    element("span", {class: "muted", text: `${game.variant} · ${game.players}/${game.settings.player_count} players`}),
    action);
}

async function join(game) {
  const status = document.getElementById("open-status");
  try {
    const seat = await api(`/games/${game.id}/players`, {method: "POST", token: seats()[game.id]?.token});
    keepSeat(game.id, {token: seat.token, codename: seat.codename, name: game.name});
    location.assign(`/play/${game.id}`);
  } catch (error) {
    status.textContent = `Could not join ${game.name}: ${error.message}`;
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
    },
  };
  try {
    const game = await api("/games", {method: "POST", body});
    keepSeat(game.id, {host: game.host_token, name: game.name});
    location.assign(`/play/${game.id}`);
  } catch (error) {
    status.textContent = `Not created: ${error.message}`;
  }
}

document.getElementById("create-form").addEventListener("submit", create);
document.getElementById("refresh-open").addEventListener("click", listOpen);
listMine();
fillVariants();
listOpen();
