// Press (public and private messages, as the game's press setting allows) and the draw vote.
import {Intent, api, element, phaseName, powerName} from "./api.js";

export class Press {
  constructor(game) {
    this.game = game;
    this.seen = new Set();
    this.drawVote = new Intent();
    document.getElementById("press-form").addEventListener("submit", (event) => this.send(event));
    document.getElementById("draw-vote").addEventListener("change", (event) => this.vote(event.target.checked));
  }

  /** Shows the panels that this viewer may use, with the recipients the setting allows. */
  render() {
    const view = this.game.view;
    const setting = view.game.settings.press;
    const playing = view.viewer.kind === "power" && view.game.status === "active";
    const panel = document.getElementById("press-panel");
    panel.hidden = setting === "none" || view.game.status === "forming";
    document.getElementById("press-form").hidden = !playing;
    const to = document.getElementById("press-to");
    const others = Object.keys(view.powers).filter((p) => !view.viewer.powers.includes(p));
    const wanted = ["all", ...(setting === "full" ? others : [])];
    if (to.dataset.options !== wanted.join()) {
      const chosen = to.value;  // kept while it may still be written to
      to.replaceChildren(...wanted.map((p) => element("option", {value: p, text: p === "all" ? "Everyone (public)" : powerName(p)})));
      to.dataset.options = wanted.join();
      if (wanted.includes(chosen)) to.value = chosen;
    }
    const draw = document.getElementById("draw-panel");
    draw.hidden = !playing;
    document.getElementById("draw-vote").checked = this.drawVote.shown(Boolean(view.draw?.your_vote));
    const votes = view.draw?.votes;
    document.getElementById("draw-status").textContent = view.draw?.passed ? "The draw passed."
      : votes ? `Votes for a draw: ${Object.entries(votes).filter(([, v]) => v).map(([p]) => powerName(p)).join(", ") || "none"}`
        : view.draw?.your_vote ? "You vote for a draw."
          : "Votes are secret; the draw passes when every surviving power votes for it.";
  }

  /** Adds a message to the list; whether it was new to this page. */
  add(message) {
    if (this.seen.has(message.id)) return false;
    this.seen.add(message.id);
    const from = message.from ? `${powerName(message.from.power)} (${message.from.codename})` : "?";
    const to = message.to === "all" ? "everyone" : message.to.map(powerName).join(", ");
    const item = element("li", {class: message.to === "all" ? "public" : "private"},
      element("div", {class: "meta", text: `${from} to ${to} · ${phaseName(message.phase)}`}),
      element("div", {class: "text", text: message.text}));
    const list = document.getElementById("messages");
    list.append(item);
    list.scrollTop = list.scrollHeight;
    return true;
  }

  async send(event) {
    event.preventDefault();
    const text = document.getElementById("press-text");
    const status = document.getElementById("press-status");
    const to = document.getElementById("press-to").value;
    if (!text.value.trim()) {
      status.textContent = "Write a message first.";
      return;
    }
    try {
      const message = await api(`/games/${this.game.id}/messages`, {method: "POST", token: this.game.token,
        body: {to: to === "all" ? "all" : [to], text: text.value}});
      this.add(message);
      text.value = "";
      status.textContent = "Sent.";
    } catch (error) {
      status.textContent = `Not sent: ${error.message}`;
    }
  }

  async vote(vote) {
    const status = document.getElementById("draw-status");
    this.drawVote.want(vote);
    try {
      const answer = await api(`/games/${this.game.id}/draw`, {method: "POST", token: this.game.token, body: {vote}});
      status.textContent = answer.passed ? "The draw passed." : vote ? "You vote for a draw." : "You withdrew your vote.";
    } catch (error) {
      this.drawVote.forget();
      document.getElementById("draw-vote").checked = !vote;
      status.textContent = `Refused: ${error.message}`;
    }
  }
}
