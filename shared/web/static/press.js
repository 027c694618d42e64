// Press (public and private messages, as the game's press setting allows, in threads:
// threads.js) and the draw vote.
import {Intent, api, failure, phaseName, powerName, tokenFor} from "./api.js";
import {byId, element} from "./dom.js";
import {drawPath, messagesPath} from "./endpoints.js";
import {Threads, threadName} from "./threads.js";

/** @typedef {import("./state.js").GameStore} GameStore */
/** @typedef {import("./shapes.js").Message} Message */

const ui = {
  form: byId("press-form", HTMLFormElement),
  drawVote: byId("draw-vote", HTMLInputElement),
  panel: byId("press-panel", HTMLElement),
  to: byId("press-to", HTMLSelectElement),
  group: byId("press-group", HTMLDetailsElement),
  groupPowers: byId("press-group-powers", HTMLElement),
  groupOpen: byId("press-group-open", HTMLButtonElement),
  drawPanel: byId("draw-panel", HTMLElement),
  drawStatus: byId("draw-status", HTMLElement),
  messages: byId("messages", HTMLOListElement),
  text: byId("press-text", HTMLTextAreaElement),
  status: byId("press-status", HTMLElement),
};

export class Press {
  /** @param {GameStore} store */
  constructor(store) {
    this.store = store;
    this.panel = ui.panel;  // the press card, which attention.js watches come into view
    /** @type {Set<string>} */
    this.seen = new Set();  // the ids of the messages listed
    /** @type {Intent<boolean>} */
    this.drawVote = new Intent();
    this.threads = new Threads(store, (id) => this.toThread(id));
    this.conversationsRead = false;
    ui.form.addEventListener("submit", (event) => this.send(event));
    ui.to.addEventListener("change", () => this.threads.select(ui.to.value));
    ui.groupOpen.addEventListener("click", () => this.openGroup());
    ui.drawVote.addEventListener("change", () => this.vote(ui.drawVote.checked));
  }

  get id() {
    return this.store.get().id;
  }

  /** Shows the panels that this viewer may use, with the recipients the setting allows. */
  render() {
    const view = this.store.get().view;
    if (!view) return;
    const setting = view.game.settings.press;
    const playing = view.viewer.kind === "power" && view.game.status === "active";
    const panel = ui.panel;
    panel.hidden = setting === "none" || view.game.status === "forming";
    ui.form.hidden = !playing;
    const to = ui.to;
    const others = Object.keys(view.powers).filter((p) => !view.viewer.powers.includes(p));
    const group = this.threads.selected.includes(",") ? [this.threads.selected] : [];
    const wanted = ["all", ...(setting === "full" ? [...others, ...group] : [])];
    if (to.dataset.options !== wanted.join("|")) {
      const chosen = to.value;  // kept while it may still be written to
      to.replaceChildren(...wanted.map((p) => element("option", {value: p, text: p === "all" ? "Everyone (public)" : threadName(p)})));
      to.dataset.options = wanted.join("|");
      if (wanted.includes(chosen)) to.value = chosen;
    }
    ui.group.hidden = !playing || setting !== "full" || others.length < 2;
    if (ui.groupPowers.dataset.options !== others.join()) {
      ui.groupPowers.replaceChildren(...others.map((p) => element("label", {class: "check"},
        element("input", {type: "checkbox", value: p}), ` ${powerName(p)}`)));
      ui.groupPowers.dataset.options = others.join();
    }
    if (view.viewer.kind === "power" && !this.conversationsRead) {
      this.conversationsRead = true;
      void this.threads.refresh();
    }
    const draw = ui.drawPanel;
    draw.hidden = !playing;
    ui.drawVote.checked = this.drawVote.shown(Boolean(view.draw?.your_vote));
    const votes = view.draw?.votes;
    ui.drawStatus.textContent = view.draw?.passed ? "The draw passed."
      : votes ? `Votes for a draw: ${Object.entries(votes).filter(([, v]) => v).map(([p]) => powerName(p)).join(", ") || "none"}`
        : view.draw?.your_vote ? "You vote for a draw."
          : "Votes are secret; the draw passes when every surviving power votes for it.";
  }

  /** Adds a message to the list; whether it was new to this page. @param {Message} message */
  add(message) {
    if (this.seen.has(message.id)) return false;
    this.seen.add(message.id);
    const from = message.from ? `${powerName(message.from.power)} (${message.from.codename})` : "?";
    const to = message.to === "all" ? "everyone" : message.to.map(powerName).join(", ");
    const item = element("li", {class: message.to === "all" ? "public" : "private"},
      element("div", {class: "meta", text: `${from} to ${to} · ${phaseName(message.phase)}`}),
      element("div", {class: "text", text: message.text}));
    const list = ui.messages;
    list.append(item);
    this.threads.added(item, message);
    list.scrollTop = list.scrollHeight;
    return true;
  }

  /** The thread chosen: the form writes to it. @param {string} id */
  toThread(id) {
    if (!id) return;
    this.render();
    if ([...ui.to.options].some((o) => o.value === id)) ui.to.value = id;
  }

  /** Opens the thread of the powers ticked in "New group". */
  openGroup() {
    const ticked = [...ui.groupPowers.querySelectorAll("input:checked")]
      .map((box) => /** @type {HTMLInputElement} */ (box).value).sort();
    if (!ticked.length) {
      ui.status.textContent = "Tick the powers of the group first.";
      return;
    }
    ui.group.open = false;
    this.threads.select(ticked.join(","));
  }

  /** @param {SubmitEvent} event */
  async send(event) {
    event.preventDefault();
    const text = ui.text;
    const status = ui.status;
    const to = ui.to.value;
    if (!text.value.trim()) {
      status.textContent = "Write a message first.";
      return;
    }
    try {
      const message = await api(messagesPath(this.id), {method: "POST", token: tokenFor(this.id),
        body: {to: to === "all" ? "all" : to.split(","), text: text.value}});
      this.add(message);
      void this.threads.refresh();
      text.value = "";
      status.textContent = "Sent.";
    } catch (thrown) {
      const error = failure(thrown);
      status.textContent = `Not sent: ${error.message}`;
    }
  }

  /** @param {boolean} vote */
  async vote(vote) {
    const status = ui.drawStatus;
    this.drawVote.want(vote);
    try {
      const answer = await api(drawPath(this.id), {method: "POST", token: tokenFor(this.id), body: {vote}});
      status.textContent = answer.passed ? "The draw passed." : vote ? "You vote for a draw." : "You withdrew your vote.";
    } catch (thrown) {
      const error = failure(thrown);
      this.drawVote.forget();
      ui.drawVote.checked = !vote;
      status.textContent = `Refused: ${error.message}`;
    }
  }
}
