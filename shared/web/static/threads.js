// Press as conversations (docs/web.md, "Press"): a thread per set of correspondents and the
// public one, each with the unread count the server keeps for the seat (so every device and
// every reload says the same), and a mark of the unread total that a phone shows, where the
// tab's title is out of sight. A thread opened while the page is in view is marked read.
import {api, failure, powerName, tokenFor} from "./api.js";
import {byId, element} from "./dom.js";
import {conversationReadPath, conversationsPath} from "./endpoints.js";

/** @typedef {import("./state.js").GameStore} GameStore */
/** @typedef {import("./shapes.js").Message} Message */
/** @typedef {import("./shapes.js").Conversation} Conversation */
/** @typedef {import("./shapes.js").ConversationList} ConversationList */

const ui = {
  threads: byId("threads", HTMLUListElement),
  messages: byId("messages", HTMLOListElement),
  mark: byId("unread-mark", HTMLAnchorElement),
  status: byId("press-status", HTMLElement),
};

const EVERYTHING = "";  // the pseudo-thread of every message, as the list was before threads
const REFRESH_MS = 300;  // messages that come together are counted with one read

/** The conversation a message belongs to as a seat playing ``own`` names it: the server's rule
 *  (shared/game/conversations.py), so a message that arrives live joins the right thread.
 *  @param {Message} message @param {readonly string[]} own */
export function conversationOf(message, own) {
  if (message.to === "all") return "all";
  const participants = new Set([message.from.power, ...message.to]);
  const others = [...participants].filter((p) => !own.includes(p)).sort();
  return (others.length ? others : [...participants].sort()).join(",");
}

/** A thread's name in words. @param {string} id */
export function threadName(id) {
  if (id === EVERYTHING) return "All messages";
  return id === "all" ? "Everyone" : id.split(",").map(powerName).join(", ");
}

export class Threads {
  /** @param {GameStore} store @param {(id: string) => void} onSelect  called with the thread chosen */
  constructor(store, onSelect) {
    this.store = store;
    this.onSelect = onSelect;
    this.selected = EVERYTHING;
    /** @type {Conversation[]} */
    this.listed = [];
    this.timer = 0;
    ui.mark.addEventListener("click", () => {
      const unread = this.listed.find((c) => c.unread > 0);
      if (unread) this.select(unread.id);
    });
  }

  get id() {
    return this.store.get().id;
  }

  get own() {
    return this.store.get().view?.viewer.powers ?? [];
  }

  get seated() {
    return this.store.get().view?.viewer.kind === "power";
  }

  /** Reads the seat's conversations again soon (several messages at once: one read). */
  refreshSoon() {
    if (!this.seated) return;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => { void this.refresh(); }, REFRESH_MS);
  }

  async refresh() {
    if (!this.seated) return;
    try {
      /** @type {ConversationList} */
      const answer = await api(conversationsPath(this.id), {token: tokenFor(this.id)});
      this.listed = answer.conversations;
      this.render(answer.unread);
    } catch (thrown) {
      ui.status.textContent = `The conversations could not be read: ${failure(thrown).message}`;
    }
  }

  /** The thread buttons, each with its unread count, and the unread mark. @param {number} total */
  render(total) {
    ui.threads.hidden = !this.seated;
    const ids = [EVERYTHING, ...this.listed.map((c) => c.id)];
    if (this.selected !== EVERYTHING && !ids.includes(this.selected)) ids.push(this.selected);
    ui.threads.replaceChildren(...ids.map((id) => {
      const unread = this.listed.find((c) => c.id === id)?.unread ?? 0;
      // the count is read out as "England, 2 unread"; seen, it is the badge alone
      const button = element("button", {type: "button", class: "thread", "aria-pressed": String(id === this.selected),
        "data-thread": id, "aria-label": unread ? `${threadName(id)}, ${unread} unread` : threadName(id)},
      element("span", {text: threadName(id)}),
      element("span", {class: "unread", text: unread ? String(unread) : ""}));
      button.addEventListener("click", () => this.select(id));
      return element("li", {}, button);
    }));
    ui.mark.hidden = !total;
    ui.mark.textContent = total ? `✉ ${total} unread` : "";
    ui.mark.setAttribute("aria-label", `${total} unread message${total === 1 ? "" : "s"}: go to the press`);
  }

  /** Shows one thread's messages (or all of them) and marks it read. @param {string} id */
  select(id) {
    this.selected = id;
    this.showSelected();
    this.onSelect(id);
    this.render(this.total());
    if (id !== EVERYTHING) void this.markRead(id);
  }

  total() {
    return this.listed.reduce((sum, c) => sum + c.unread, 0);
  }

  /** Hides the messages of other threads. */
  showSelected() {
    for (const item of ui.messages.children) {
      if (item instanceof HTMLElement) {
        item.hidden = this.selected !== EVERYTHING && item.dataset.conversation !== this.selected;
      }
    }
    ui.messages.scrollTop = ui.messages.scrollHeight;
  }

  /** A message listed: in its thread, and counted (read at once if its thread is open in view).
   *  @param {HTMLElement} item @param {Message} message */
  added(item, message) {
    const id = conversationOf(message, this.own);
    item.dataset.conversation = id;
    item.hidden = this.selected !== EVERYTHING && id !== this.selected;
    if (id === this.selected && document.visibilityState === "visible") void this.markRead(id);
    else this.refreshSoon();
  }

  /** @param {string} id */
  async markRead(id) {
    if (!this.seated) return;
    try {
      await api(conversationReadPath(this.id, id), {method: "POST", token: tokenFor(this.id), body: {}});
    } catch {
      // a thread nobody wrote in yet, or the connection: the count is read again below
    }
    await this.refresh();
  }
}
