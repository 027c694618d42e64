// The game page's seats card (docs/web.md): the seats taken while the game forms, **Join this
// game**, the host's **Start the game** and **Resolve the phase now** (which asks first), a
// private game's invite link, and the link that plays this seat on another device.
import {api, failure, keepSeat, phaseName, seatOf, session} from "./api.js";
import {byId, element} from "./dom.js";
import {extendPath, gamePath, pausePath, playPage, playersPath, resolvePath, resumePath, seatPath, startPath} from "./endpoints.js";

/** @typedef {import("./state.js").GameStore} GameStore */
/** @typedef {import("./shapes.js").View} View */

const ui = {
  panel: byId("seat-panel", HTMLElement),
  title: byId("seat-title", HTMLElement),
  status: byId("seat-status", HTMLElement),
  join: byId("join", HTMLButtonElement),
  start: byId("start", HTMLButtonElement),
  resolve: byId("resolve", HTMLButtonElement),
  resolveConfirm: byId("resolve-confirm", HTMLElement),
  resolveQuestion: byId("resolve-question", HTMLElement),
  resolveYes: byId("resolve-yes", HTMLButtonElement),
  resolveNo: byId("resolve-no", HTMLButtonElement),
  privateInvite: byId("private-invite", HTMLElement),
  inviteLink: byId("invite-link", HTMLInputElement),
  invite: byId("invite", HTMLElement),
  device: byId("device", HTMLElement),
  deviceLink: byId("device-link", HTMLInputElement),
  seatList: byId("seat-list", HTMLUListElement),
  hostClock: byId("host-clock", HTMLElement),
  hostHours: byId("host-hours", HTMLInputElement),
  extend: byId("extend", HTMLButtonElement),
  pause: byId("pause", HTMLButtonElement),
  resume: byId("resume", HTMLButtonElement),
  hostStatus: byId("host-status", HTMLElement),
};

export class SeatPanel {
  /** @param {GameStore} store
   *  @param {() => Promise<void>} joined  reads the view again with the new seat's token */
  constructor(store, joined) {
    this.store = store;
    this.joined = joined;
    ui.join.addEventListener("click", () => this.join());
    ui.start.addEventListener("click", () => this.hostAct(startPath(this.id)));
    ui.resolve.addEventListener("click", () => this.askToResolve());
    ui.resolveYes.addEventListener("click", () => this.resolveNow());
    ui.resolveNo.addEventListener("click", () => this.closeResolveConfirmation());
    /** @type {string | null} the seat whose removal the host is asked to confirm */
    this.removing = null;
    ui.extend.addEventListener("click", () => this.clockAct(extendPath(this.id), "Deadline extended"));
    ui.pause.addEventListener("click", () => this.clockAct(pausePath(this.id), "Game paused"));
    ui.resume.addEventListener("click", () => this.clockAct(resumePath(this.id), "Game resumed", false));
  }

  get id() {
    return this.store.get().id;
  }

  /** The card and the device link, as the view and this browser's seat have them. @param {View} view */
  render(view) {
    const {id, summary, joinProblem} = this.store.get();
    const seat = seatOf(id);
    const forming = view.game.status === "forming";
    ui.panel.hidden = !forming && !(seat.host && view.game.status === "active");
    const count = view.game.settings.player_count;
    const seated = summary ? summary.players : 0;
    ui.title.textContent = forming ? "Seats" : "Host";
    ui.status.textContent = forming
      ? `${seated} of ${count} seats taken${seat.token ? `; you are ${seat.codename || "seated"}` : ""}.`
        + (joinProblem && !seat.token ? ` ${joinProblem}` : "") : "";
    ui.join.hidden = !forming || Boolean(seat.token);
    ui.start.hidden = !forming || !seat.host;
    const inviting = forming && Boolean(seat.host && seat.invite);  // a private game's host
    ui.privateInvite.hidden = !inviting;
    if (inviting) ui.inviteLink.value = `${location.origin}${playPage(id)}#invite=${encodeURIComponent(seat.invite || "")}`;
    const hostResolves = view.game.settings.host_may_resolve !== false;
    ui.resolve.hidden = forming || !seat.host || view.game.status !== "active" || !hostResolves;
    if (ui.resolve.hidden) this.closeResolveConfirmation();
    const hidden = view.game.settings.private;  // joined only with the invite link (docs/hosting.md)
    ui.invite.textContent = !forming || inviting ? ""
      : hidden ? "A private game: players join with the invite link its host was given" : `Invite players with ${location.origin}${playPage(id)}`;
    this.showHostTools(view, forming && Boolean(seat.host));
    this.showDeviceLink();
  }

  /** The host's tools (docs/web.md, "Host tools"): while the game forms, each seat taken with
   *  **Remove** (asked twice: the seat's token stops working, and another player may take the
   *  place); once it runs, the clock: extend the deadline, pause and resume.
   *  @param {View} view @param {boolean} formingHost */
  showHostTools(view, formingHost) {
    const seat = seatOf(this.id);
    const codenames = formingHost ? this.store.get().summary?.codenames || [] : [];
    ui.seatList.hidden = !codenames.length;
    const focusedRemove = ui.seatList.contains(document.activeElement) ? document.activeElement?.textContent : null;
    ui.seatList.replaceChildren(...codenames.map((name) => element("li", {},
      element("span", {text: name}),
      this.removing === name
        ? element("span", {class: "buttons"},
          element("button", {type: "button", text: `Yes, remove ${name}`, onclick: () => this.removeSeat(name)}),
          element("button", {type: "button", class: "secondary", text: "Keep the seat",
            onclick: () => { this.removing = null; this.render(view); }}))
        : element("button", {type: "button", class: "secondary", text: `Remove ${name}`,
          onclick: () => { this.removing = name; this.render(view); this.focusButton(`Yes, remove ${name}`); }}))));
    if (focusedRemove) this.focusButton(focusedRemove);
    const running = Boolean(seat.host) && view.game.status === "active";
    ui.hostClock.hidden = !running;
    const paused = Boolean(view.clock?.paused_until);
    ui.pause.hidden = paused;
    ui.resume.hidden = !paused;
    ui.extend.disabled = paused;  // the API extends no paused deadline (409 game_paused)
  }

  /** @param {string} text */
  focusButton(text) {
    const found = [...ui.seatList.querySelectorAll("button")].find((b) => b.textContent === text);
    if (found) found.focus();
  }

  /** @param {string} name */
  async removeSeat(name) {
    try {
      const summary = await api(seatPath(this.id, name), {method: "DELETE", token: seatOf(this.id).host});
      this.removing = null;
      this.store.update({summary});
      ui.hostStatus.textContent = `${name} removed: the seat is free again.`;
    } catch (thrown) {
      ui.hostStatus.textContent = `Not removed: ${failure(thrown).message}`;
    }
    const view = this.store.get().view;
    if (view) this.render(view);
  }

  /** Extend, pause or resume, for the hours in the box. @param {string} path @param {string} done @param {boolean} [timed] */
  async clockAct(path, done, timed = true) {
    const minutes = Math.round(Number(ui.hostHours.value) * 60);
    if (timed && !(minutes >= 1)) {
      ui.hostStatus.textContent = "Give the hours, at least a minute's worth (0.02).";
      return;
    }
    try {
      await api(path, {method: "POST", token: seatOf(this.id).host, body: timed ? {minutes} : undefined});
      ui.hostStatus.textContent = timed ? `${done} by ${ui.hostHours.value} hours.` : `${done}.`;
    } catch (thrown) {
      ui.hostStatus.textContent = `Refused: ${failure(thrown).message}`;
    }
  }

  /** The link that carries this seat's token in its fragment, to play on another device: a
   *  fragment never reaches the server, nor a Referer (docs/web.md, "Tokens"). */
  showDeviceLink() {
    const token = seatOf(this.id).token;
    ui.device.hidden = !token;
    if (token) ui.deviceLink.value = `${location.origin}${playPage(this.id)}#token=${token}`;
  }

  /** While the game forms, the seats taken are read every few seconds (no view changes then). */
  async follow() {
    const view = this.store.get().view;
    if (!view || view.game.status !== "forming") return;
    try {
      this.store.update({summary: await api(gamePath(this.id))});
      const now = this.store.get().view;
      if (now) this.render(now);
    } catch {
      // read again at the next turn
    } finally {
      setTimeout(() => this.follow(), 3000);
    }
  }

  /** @param {string} path  start or resolve @param {unknown} [body] */
  async hostAct(path, body) {
    try {
      await api(path, {method: "POST", token: seatOf(this.id).host, body});
      ui.status.textContent = "";
    } catch (thrown) {
      const error = failure(thrown);
      ui.status.textContent = error.code === "phase_already_resolved" ? "That phase has already resolved." : `Refused: ${error.message}`;
    }
  }

  /** **Resolve the phase now** asks first, naming the phase, and sends once: the confirmation's
   *  button is disabled while its request is on its way, and the phase is named in the request
   *  (a second one could only be 409 phase_already_resolved). */
  askToResolve() {
    const phase = this.store.get().view?.game.phase || "";
    ui.resolveQuestion.textContent = `Resolve ${phaseName(phase, this.store.get().view?.game.variant)} now for everyone? Units without orders hold; it cannot be undone.`;
    ui.resolveConfirm.dataset.phase = phase;
    ui.resolveConfirm.hidden = false;
    ui.resolve.setAttribute("aria-expanded", "true");
    ui.resolveYes.focus();
  }

  closeResolveConfirmation() {
    ui.resolveConfirm.hidden = true;
    ui.resolve.setAttribute("aria-expanded", "false");
  }

  async resolveNow() {
    if (ui.resolveYes.disabled) return;
    ui.resolveYes.disabled = true;
    try {
      await this.hostAct(resolvePath(this.id), {phase: ui.resolveConfirm.dataset.phase});
    } finally {
      ui.resolveYes.disabled = false;
      this.closeResolveConfirmation();
    }
  }

  async join() {
    if (ui.join.disabled) return;
    ui.join.disabled = true;
    try {
      const invite = seatOf(this.id).invite;
      const seat = await api(playersPath(this.id), {method: "POST", token: session()?.token,
                                                    body: invite ? {invite_code: invite} : undefined});
      keepSeat(this.id, {token: seat.token, codename: seat.codename, name: this.store.get().view?.game.name});
      // a player may see more of the past than the public did: the history is read again
      this.store.update({joinProblem: "", known: []});
      this.store.update({summary: await api(gamePath(this.id))});
      await this.joined();
    } catch (thrown) {
      const error = failure(thrown);
      this.store.update({joinProblem: `Could not join: ${error.message}`});
      ui.status.textContent = this.store.get().joinProblem;
    } finally {
      ui.join.disabled = false;
    }
  }
}
