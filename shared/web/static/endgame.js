// The game's end beyond the draw of every survivor, where the game's settings allow them
// (docs/hosting.md, "Victory and draws"): a vote for the draw of some surviving powers, and
// conceding the game to one power. The draw vote itself is press.js's.
import {api, failure, powerName, tokenFor} from "./api.js";
import {byId, element} from "./dom.js";
import {concedePath, drawPath} from "./endpoints.js";

/** @typedef {import("./state.js").GameStore} GameStore */
/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").DrawStatus} DrawStatus */

const ui = {
  partial: byId("draw-partial", HTMLFieldSetElement),
  powers: byId("draw-powers", HTMLElement),
  partialVote: byId("draw-partial-vote", HTMLButtonElement),
  concedeRow: byId("concede-row", HTMLElement),
  concedeTo: byId("concede-to", HTMLSelectElement),
  concede: byId("concede", HTMLButtonElement),
  status: byId("endgame-status", HTMLElement),
};

/** The powers still in the game as the view shows them: a unit or a centre left. @param {View} view */
export function survivors(view) {
  const position = view.position;
  return Object.keys(view.powers).filter((p) => (position?.units?.[p]?.length ?? 0) > 0
    || (position?.centres?.[p]?.length ?? 0) > 0).sort();
}

export class Endgame {
  /** @param {GameStore} store */
  constructor(store) {
    this.store = store;
    ui.partialVote.addEventListener("click", () => this.votePartial());
    ui.concede.addEventListener("click", () => this.concede());
  }

  get id() {
    return this.store.get().id;
  }

  render() {
    const view = this.store.get().view;
    if (!view) return;
    const settings = /** @type {{partial_draws?: boolean, concessions?: boolean}} */ (view.game.settings);
    const playing = view.viewer.kind === "power" && view.game.status === "active";
    const alive = survivors(view);
    ui.partial.hidden = !playing || !settings.partial_draws;
    if (ui.powers.dataset.options !== alive.join()) {
      const mine = view.draw?.your_powers ?? [];
      ui.powers.replaceChildren(...alive.map((p) => element("label", {class: "check"},
        element("input", {type: "checkbox", value: p, ...(mine.includes(p) ? {checked: ""} : {})}), ` ${powerName(p)}`)));
      ui.powers.dataset.options = alive.join();
    }
    const others = alive.filter((p) => !view.viewer.powers.includes(p));
    ui.concedeRow.hidden = !playing || !settings.concessions;
    const wanted = ["", ...others];
    if (ui.concedeTo.dataset.options !== wanted.join()) {
      ui.concedeTo.replaceChildren(...wanted.map((p) => element("option", {value: p, text: p ? powerName(p) : "Nobody (withdraw)"})));
      ui.concedeTo.dataset.options = wanted.join();
      ui.concedeTo.value = view.draw?.your_concession ?? "";
    }
  }

  async votePartial() {
    const powers = [...ui.powers.querySelectorAll("input:checked")].map((box) => /** @type {HTMLInputElement} */ (box).value);
    if (powers.length < 2) {
      ui.status.textContent = "Tick two powers at least: a single winner is a concession.";
      return;
    }
    await this.ask(drawPath(this.id), {vote: true, powers},
      (answer) => answer.passed ? "The draw passed." : `You vote for the draw of ${powers.map(powerName).join(", ")}.`);
  }

  async concede() {
    const to = ui.concedeTo.value || null;
    await this.ask(concedePath(this.id), {to},
      () => to ? `You concede the game to ${powerName(to)}.` : "You withdrew your concession.");
  }

  /** @param {string} path @param {object} body @param {(answer: DrawStatus) => string} said */
  async ask(path, body, said) {
    try {
      /** @type {DrawStatus} */
      const answer = await api(path, {method: "POST", token: tokenFor(this.id), body});
      ui.status.textContent = said(answer);
    } catch (thrown) {
      ui.status.textContent = `Refused: ${failure(thrown).message}`;
    }
  }
}
