// What calls the player back to the page (docs/web.md, "Notifications"): the tab's title with an
// unread count of new messages and a new phase, and, if the player asks for them, the browser's
// own notifications while the page is out of sight.
import {phaseName, powerName} from "./api.js";
import {byId} from "./dom.js";

/** @typedef {import("./state.js").GameStore} GameStore */
/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").Message} Message */

const ui = {
  notify: byId("notify", HTMLInputElement),
  notifyStatus: byId("notify-status", HTMLElement),
  pressUnread: byId("press-unread", HTMLElement),
};

const NOTIFY_KEY = "entente.notify";

export class Attention {
  /** @param {GameStore} store @param {HTMLElement} press  the press card: its messages are read once it is in view */
  constructor(store, press) {
    this.store = store;
    this.messages = 0;  // new messages the player has not had in view
    /** @type {string | null} */
    this.phase = null;  // the new phase the player has not seen, while the page was out of sight
    this.pressInView = false;
    store.subscribe((_, changed) => { if (changed.has("view")) this.showTitle(); });
    new IntersectionObserver((entries) => {
      this.pressInView = entries.some((entry) => entry.isIntersecting);
      this.seen();
    }).observe(press);
    document.addEventListener("visibilitychange", () => this.seen());
    window.addEventListener("focus", () => this.seen());
    const box = ui.notify;
    box.checked = this.wanted() && "Notification" in window && Notification.permission === "granted";
    box.disabled = !("Notification" in window) || Notification.permission === "denied";
    box.addEventListener("change", () => this.askToNotify(box));
  }

  get visible() {
    return document.visibilityState === "visible";
  }

  wanted() {
    return localStorage.getItem(NOTIFY_KEY) === "yes";
  }

  /** The tab's title: the unread count first, then what is new, the game and the phase. */
  showTitle() {
    const view = this.store.get().view;
    if (!view) return;
    const count = this.messages + (this.phase ? 1 : 0);
    const what = [this.phase ? `New phase: ${phaseName(this.phase)}` : null,
      this.messages ? `${this.messages} new message${this.messages === 1 ? "" : "s"}` : null].filter(Boolean);
    const head = count ? `(${count}) ${what.join(", ")} · ` : "";
    const phase = view.game.status === "active" ? ` · ${phaseName(view.game.phase, view.game.variant)}` : "";
    const title = `${head}${view.game.name}${phase}: Entente`;
    if (document.title !== title) document.title = title;
    ui.pressUnread.textContent = this.messages ? `${this.messages} new` : "";
  }

  /** What is in view is read: messages when the press panel is on screen, the phase at once. */
  seen() {
    if (!this.visible) return;
    this.phase = null;
    if (this.pressInView) this.messages = 0;
    this.showTitle();
  }

  /** @param {Message} message */
  newMessage(message) {
    if (this.store.get().view?.viewer.powers?.includes(message.from?.power ?? "")) return;  // one's own
    if (!(this.visible && this.pressInView)) this.messages += 1;
    this.showTitle();
    const from = message.from ? powerName(message.from.power) : "Someone";
    this.notify(`${from} wrote`, message.text.slice(0, 140), `message-${message.id}`);
  }

  /** @param {View} view */
  newPhase(view) {
    if (!this.visible) this.phase = view.game.phase;
    this.showTitle();
    const body = view.game.status === "finished" ? "The game has ended." : `Now: ${phaseName(view.game.phase, view.game.variant)}.`;
    this.notify(`${view.game.name}: a phase resolved`, body, `phase-${view.game.phase}`);
  }

  /** A browser notification, only while the page is out of sight and if the player asked. */
  /** @param {string} title @param {string} body @param {string} tag */
  notify(title, body, tag) {
    if (this.visible || !this.wanted() || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      new Notification(title, {body, tag});
    } catch {
      // some browsers allow notifications from a service worker only: the title still counts
    }
  }

  /** @param {HTMLInputElement} box */
  async askToNotify(box) {
    if (!box.checked) {
      localStorage.setItem(NOTIFY_KEY, "no");
      return;
    }
    const permission = await Notification.requestPermission();
    box.checked = permission === "granted";
    box.disabled = permission === "denied";
    localStorage.setItem(NOTIFY_KEY, box.checked ? "yes" : "no");
    ui.notifyStatus.textContent = permission === "granted"
      ? "This browser will tell you of a new phase or message while the page is out of sight."
      : "The browser did not allow notifications; the tab's title still counts what is new.";
  }
}
