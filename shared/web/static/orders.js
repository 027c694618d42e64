// The orders panel: possible orders as menus, orders by clicking the board, orders typed in
// any notation, and Done (the ready flag) (docs/web.md, "Orders").
// The possible orders and the power ordered for are the page's state (state.js); what the player
// has picked and not sent yet is the panel's own.
import {ApiError, Intent, api, failure, phaseName, tokenFor} from "./api.js";
import {BoardClicks} from "./clicks.js";
import {byId, element} from "./dom.js";
import {mergeDraft} from "./draft.js";
import {ordersPath, possibleOrdersPath, readyPath} from "./endpoints.js";
import {optionLabel, storedFor, unorderedWarning} from "./wording.js";

/** @typedef {import("./state.js").GameStore} GameStore */
/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").PossibleOrders} PossibleOrders */
/** @typedef {import("./shapes.js").MenuGroup} MenuGroup */
/** @typedef {import("./shapes.js").PossibleOrder} PossibleOrder */
/** @typedef {import("./shapes.js").OrderResult} OrderResult */

const ui = {
  done: byId("done", HTMLButtonElement),
  doneStatus: byId("done-status", HTMLElement),
  lacking: byId("lacking", HTMLElement),
  help: byId("order-help", HTMLElement),
  menus: byId("order-menus", HTMLElement),
  power: byId("order-power", HTMLSelectElement),
  powerRow: byId("order-power-row", HTMLElement),
  results: byId("order-results", HTMLUListElement),
  status: byId("order-status", HTMLElement),
  box: byId("orders", HTMLTextAreaElement),
  panel: byId("orders-panel", HTMLElement),
  title: byId("orders-title", HTMLElement),
  submit: byId("submit-orders", HTMLButtonElement),
  submitNote: byId("orders-note", HTMLElement),
  undoDone: byId("undo-done", HTMLButtonElement),
};

// Keys that walk a closed menu: each one changes its choice, none of them chooses.
const WALKING_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

/** @param {MenuGroup} group */
function groupTitle(group) {
  if (group.kind === "unit") return `Order for ${group.unit}`;
  if (group.kind === "site") {
    return group.orders.some((o) => o.type === "build") ? `Build at ${group.location}` : `Buy or improve at ${group.location}`;
  }
  return group.orders.some((o) => o.type === "waive") ? "Waive a build" : "Orders of the state";
}

/** "1 order stored", "3 orders stored".
 *  @param {string[]} current */
function ordersStored(current) {
  return `${current.length} order${current.length === 1 ? "" : "s"} stored`;
}

export class OrdersPanel {
  /** @param {GameStore} store @param {Board} board */
  constructor(store, board) {
    this.store = store;
    this.board = board;
    this.dirty = false;  // the textarea holds text not sent yet
    /** @type {string[]} */
    this.boxShows = [];  // the stored orders the box last showed: what a typed draft started from
    // What the player has picked and not yet sent, kept across the redraws a view causes while
    // it is valid: menu group key -> the order picked in its menu ("" for "no order").
    /** @type {Map<string, string>} */
    this.picks = new Map();
    /** @type {MenuGroup[] | null} */
    this.menusFor = null;  // the menu of the possible orders the menus on the page were built from
    /** @type {Intent<boolean>} */
    this.done = new Intent();  // Done or a change just sent, shown until a view agrees
    this.busy = false;  // a Done or Undo done on its way: a second press waits for its answer
    this.submitting = false;  // the box's orders on their way
    /** @type {OrderResult[]} */
    this.shownResults = [];  // the answers listed under the box
    /** @type {OrderResult[]} */
    this.refusals = [];  // lines the last whole set had refused, listed until fixed or removed
    this.textarea = ui.box;
    this.status = ui.status;
    this.textarea.addEventListener("input", () => {
      this.dirty = true;
      if (this.refusals.length && this.pruneRefusals()) this.render();
    });
    ui.submit.addEventListener("click", () => this.submitTyped());
    ui.done.addEventListener("click", () => this.setDone(true));
    ui.undoDone.addEventListener("click", () => this.setDone(false));
    ui.power.addEventListener("change", () => {
      this.dirty = false;
      this.store.update({chosenPower: ui.power.value});
      this.reload();  // the new answer redraws the own panel and the board (game.js)
    });
    this.clicks = new BoardClicks(board, {
      possible: () => this.possible,
      shown: () => Boolean(this.store.get().shown),
      send: (texts) => this.send(texts),
      say: (text) => { this.status.textContent = text; },
    });
  }

  get id() {
    return this.store.get().id;
  }

  get token() {
    return tokenFor(this.id);
  }

  /** The possible orders the panel shows (the page's state), with the orders stored since. */
  get possible() {
    return this.store.get().possible;
  }

  /** A problem of the panel's, said on its status line. @param {string} text */
  problem(text) {
    this.status.textContent = text;
  }

  /** The powers of this seat that must act now: a seat of a game for fewer than seven may
   *  play several, and orders for one at a time (the API's ``power``). */
  actingPowers() {
    const view = this.store.get().view;
    return view ? view.viewer.powers.filter((p) => view.must_act.includes(p)) : [];
  }

  /** The power whose orders the panel shows. */
  get power() {
    const acting = this.actingPowers();
    const chosen = this.store.get().chosenPower;
    return chosen && acting.includes(chosen) ? chosen : acting[0] || null;
  }

  showPowerChoice() {
    const acting = this.actingPowers();
    ui.powerRow.hidden = acting.length < 2;
    const select = ui.power;
    if (select.dataset.options !== acting.join()) {
      select.replaceChildren(...acting.map((p) => element("option", {value: p, text: p.charAt(0) + p.slice(1).toLowerCase()})));
      select.dataset.options = acting.join();
    }
    select.value = this.power || "";
  }

  /** Whether this viewer orders now: a power that must act, looking at the current board. */
  get active() {
    const view = this.store.get().view;
    return Boolean(view && view.game.status === "active" && view.viewer.kind === "power"
      && view.must_act.some((p) => view.viewer.powers.includes(p)));
  }

  async reload() {
    const panel = ui.panel;
    panel.hidden = !this.active;
    const view = this.store.get().view;
    if (this.possible?.phase !== view?.game.phase) {  // a new phase: last phase's answers go
      ui.results.replaceChildren();
      this.shownResults = [];
      this.refusals = [];
      this.status.textContent = "";
      this.dirty = false;
    }
    const same = this.active && this.possible?.phase === view?.game.phase && this.possible?.power === this.power;
    if (!same) this.dropPicks();  // what was picked belongs to another phase or power
    if (!this.active) {
      this.store.update({possible: null});
      return;
    }
    this.showPowerChoice();
    /** @type {PossibleOrders} */
    const possible = await api(possibleOrdersPath(this.id, this.power || ""), {token: this.token});
    this.store.update({possible});  // the own panel counts the stored builds or purchases (game.js)
    if (!this.dirty) this.showInBox(possible.submitted);
    this.keepSelection();
    this.render();
  }

  /** Forgets what the player picked and has not sent: the unit selected on the board, the
   *  click menu, the menus' choices. */
  dropPicks() {
    this.clicks.closeMenu();
    this.clicks.select(null);
    this.picks.clear();
    this.done.forget();
  }

  /** The unit selected on the board, as the new possible orders have it (or none if it is gone). */
  keepSelection() {
    const key = this.clicks.selected?.key;
    const group = key === undefined ? null : this.possible?.menu.find((g) => g.key === key);
    if (group) this.clicks.select(group, this.board.selected?.unit, false);
    else if (this.clicks.selected) {
      this.clicks.closeMenu();
      this.clicks.select(null);
    }
  }

  /** The order a group's menu shows: the one picked and not yet sent if it is still possible,
   *  else the stored one, also in a form the options do not list (a move typed with VIA).
   *  @param {MenuGroup} group @param {Set<string>} stored */
  shownIn(group, stored) {
    const picked = this.picks.get(group.key);
    if (picked !== undefined && (picked === "" || group.orders.some((o) => o.text === picked))) return picked;
    this.picks.delete(group.key);
    return group.orders.find((o) => stored.has(o.text))?.text ?? storedFor(group, stored) ?? "";
  }

  render() {
    const {possible, view} = this.store.get();
    if (!possible || !view) return;
    ui.title.textContent = `Your orders: ${phaseName(possible.phase, view.game.variant)}`;
    // where the game asks for ready flags, a whole set sent is not yet done (docs/web.md, "Done")
    const asksReady = Boolean(view.game.settings.require_ready);
    ui.submit.textContent = asksReady ? "Submit all these orders" : "Submit all these orders: done";
    ui.submitNote.textContent = "The box holds all your orders. Sending it replaces your stored orders with its lines"
      + (asksReady ? "; this game also asks you to say Done." : " and marks you done.");
    this.showDone(view, possible);
    const help = [];
    const position = view.position;
    if (position?.variant === "dirigible") {  // Dirigible: builds are paid in supply points (docs/rules/dirigible.md)
      if (possible.adjustment > 0) help.push(`You have ${possible.adjustment} SP to build with.`);
    } else if (possible.adjustment > 0) help.push(`You may build ${possible.adjustment}.`);
    if (possible.adjustment < 0) help.push(`You must remove ${-possible.adjustment}.`);
    const building = possible.menu.some((g) => g.kind === "site") && !possible.menu.some((g) => g.kind === "unit");
    help.push(building ? "Click a centre on the board to build there; or pick from the menus; or type."
      : "Click one of your units on the board, then where it goes; or pick from the menus; or type.");
    for (const dislodged of position && position.variant !== "ekonia" ? position.dislodged : []) {
      if (dislodged.power !== possible.power) continue;
      const where = dislodged.retreats.length ? `retreat to ${dislodged.retreats.join(", ")} or disband` : "disband";
      help.push(`${dislodged.unit} was dislodged by the attack from ${dislodged.attacker_from}: ${where}.`);
    }
    ui.help.textContent = help.join(" ");
    this.showMenus(possible);
  }

  /** The units still without an order (possible-orders' ``lacking``, kept up to date here).
   *  @param {PossibleOrders} possible @returns {string[]} */
  lackingUnits(possible) {
    const units = new Map(possible.menu.filter((g) => g.kind === "unit").map((g) => [g.key, g.unit]));
    return possible.lacking.map((key) => units.get(key) || "").filter(Boolean);
  }

  /** Whether the phase no longer waits for the power: it is done (its whole set sent, or its
   *  ready flag set: the view's ``submitted``), and ready where the game asks for ready flags
   *  (docs/web.md, "Done").
   *  @param {View} view @param {string} power */
  isDone(view, power) {
    if (view.waiting_for) return !view.waiting_for.includes(power);
    return Boolean(view.submitted?.includes(power)) && (!view.game.settings.require_ready || Boolean(view.ready?.includes(power)));
  }

  /** Done and Undo done, the warning about units left without orders, and what is waited for.
   *  @param {View} view @param {PossibleOrders} possible */
  showDone(view, possible) {
    // the house bot's orders, stored while the player was away, are not the player's "done"
    const byBot = Boolean(possible.submitted_by_house_bot);
    const done = this.done.shown(this.isDone(view, possible.power) && !byBot);
    const warning = ui.lacking;
    warning.textContent = unorderedWarning(view, possible, this.lackingUnits(possible));
    warning.hidden = !warning.textContent;
    // the ready flag can be taken back; a whole set sent stays done until an order is changed
    const flagged = this.done.value === true || Boolean(view.ready?.includes(possible.power));
    ui.done.hidden = done;
    ui.done.disabled = this.busy;
    ui.undoDone.hidden = !(done && flagged);
    ui.undoDone.disabled = this.busy;
    const others = (view.waiting_for || []).filter((p) => p !== possible.power).map((p) => p.charAt(0) + p.slice(1).toLowerCase());
    const waiting = others.length ? ` The phase waits for ${others.join(", ")}.` : "";
    const refused = this.refusals.length;
    ui.doneStatus.textContent = byBot && !done
      ? "The orders stored are the house bot's, given while you were away; they count unless you send your own."
        + " Change them, or press Done to keep them as yours."
      : !done && refused
      ? `Not done: ${refused === 1 ? "1 line was" : `${refused} lines were`} refused (listed under the box).`
        + ` Fix or remove ${refused === 1 ? "it" : "them"} and submit again, or press Done to keep only the orders stored.`
      : !done ? "Not done: the phase waits for you until the deadline."
      : flagged ? `You are done.${waiting} Undo done, or change an order, to go on ordering.`
        : `You are done: your whole set was sent.${waiting} Change an order to go on ordering.`;
  }

  /** The menus, built once for each answer of possible-orders; a redraw for the same answer
   *  only sets the choices that changed, so a menu the player has open, the focus and what
   *  they picked stay as they are.
   *  @param {PossibleOrders} possible */
  showMenus(possible) {
    const stored = new Set(possible.submitted);
    const menus = ui.menus;
    /** @param {string} id */
    const menu = (id) => menus.querySelector(`#${CSS.escape(id)}`);
    if (this.menusFor !== possible.menu) {
      const active = document.activeElement;
      const focused = active && menus.contains(active) ? active.id : null;
      menus.replaceChildren(...possible.menu.map((group, index) => this.menuFor(group, index, stored)));
      menus.dataset.power = possible.power;  // whose menus these are (the page may be between two powers)
      this.menusFor = possible.menu;
      const again = focused ? menu(focused) : null;
      if (again instanceof HTMLElement) again.focus();  // a keyboard user stays where they were
      return;
    }
    possible.menu.forEach((group, index) => {
      const select = menu(`menu-${index}`);
      const shown = this.shownIn(group, stored);
      if (!(select instanceof HTMLSelectElement) || select.value === shown) return;
      if (![...select.options].some((o) => o.value === shown)) select.append(element("option", {value: shown, text: shown}));
      select.value = shown;
    });
  }

  /** @param {MenuGroup} group @param {number} index @param {Set<string>} stored */
  menuFor(group, index, stored) {
    const id = `menu-${index}`;
    const shown = this.shownIn(group, stored);
    const position = this.store.get().view?.position || null;  // the prices (prices.js)
    const select = element("select", {id},
      element("option", {value: "", text: "no order"}),
      group.orders.map((o) => element("option", {value: o.text, text: optionLabel(group, o, position), selected: shown === o.text})),
      shown && !group.orders.some((o) => o.text === shown) ? element("option", {value: shown, text: shown, selected: true}) : null);
    const row = element("div", {class: "order-menu"}, element("label", {for: id, text: groupTitle(group)}), select);
    this.chooseDeliberately(select, group);
    if (group.kind !== "unit") {
      row.append(element("button", {type: "button", class: "secondary", "aria-label": `Add: ${groupTitle(group)}`,
        text: "Add", onclick: () => select.value && this.sendPick(group, select.value)}));
    }
    return row;
  }

  /** A menu stores on a deliberate choice: a pick with the mouse (or the open list's Enter), or
   *  Enter on the closed menu; the arrow keys that walk a closed menu only show a choice, sent
   *  when Enter is pressed (docs/web.md, "Orders"). A site's or the state's menu is sent by its
   *  Add button (or Enter).
   *  @param {HTMLSelectElement} select @param {MenuGroup} group */
  chooseDeliberately(select, group) {
    let walking = false;
    select.addEventListener("keydown", (event) => {
      if (WALKING_KEYS.has(event.key) && !event.altKey) walking = true;
      if (event.key === "Enter") {
        walking = false;
        const picked = this.picks.get(group.key);
        if (picked !== undefined && (picked || group.kind === "unit")) {
          event.preventDefault();
          this.sendPick(group, picked);
        }
      }
    });
    select.addEventListener("pointerdown", () => { walking = false; });
    select.addEventListener("change", () => {
      this.picks.set(group.key, select.value);
      if (group.kind !== "unit") return;
      if (walking) {
        walking = false;
        this.status.textContent = `${select.value || "No order"} for ${group.unit}: press Enter to give it.`;
        return;
      }
      this.sendPick(group, select.value);
    });
  }

  /** Sends a menu's pick (a unit's "no order" takes its stored order back); the pick is kept
   *  until the answer. Refused, or not sent at all (the server out of reach), the menu shows
   *  again what the server has stored, and the status line says why: a menu never shows an
   *  order that is not stored (docs/web.md, "The connection").
   *  @param {MenuGroup} group @param {string} text */
  async sendPick(group, text) {
    const stored = group.orders.find((o) => this.possible?.submitted.includes(o.text));
    await (text ? this.send([text]) : this.clear(stored));
    const possible = this.possible;
    if (possible && this.picks.get(group.key) === text) {
      this.picks.delete(group.key);
      this.showMenus(possible);
    }
  }

  // Sending -----------------------------------------------------------------------------

  /** The body of an orders request: the phase and power the panel shows, and ``extra``. @param {Record<string, unknown>} extra */
  body(extra) {
    const {phase, power} = this.possible || {};
    return {phase, power, ...extra};
  }

  /** One or more orders added (PATCH): each replaces the stored order about its subject; the
   *  power is then "ordering", not done. Whether they were stored.
   *  @param {string[]} texts */
  async send(texts) {
    try {
      const answer = await api(ordersPath(this.id), {method: "PATCH", token: this.token, body: this.body({orders: texts})});
      this.showResults(answer.orders);
      this.stored(answer.current, answer.orders);
      return true;
    } catch (error) {
      this.refused(error);
      return false;
    }
  }

  /** Takes a stored order back. @param {PossibleOrder | undefined} order */
  async clear(order) {
    if (!order) return true;
    try {
      const answer = await api(ordersPath(this.id), {method: "PATCH", token: this.token, body: this.body({clear: [order.text]})});
      this.stored(answer.current, []);
      this.status.textContent = `${order.text}: taken back.`;
      return true;
    } catch (error) {
      this.refused(error);
      return false;
    }
  }

  /** The textarea's orders, one a line, replace the power's orders (PUT): the whole set, so
   *  the power is done with it. The box holds every order the page stored (a click's answer is
   *  merged into it), so nothing clicked is dropped. */
  async submitTyped() {
    if (!this.possible || this.submitting) return;
    const lines = this.textarea.value.split("\n").map((line) => line.trim()).filter(Boolean);
    this.submitting = true;
    try {
      const answer = await api(ordersPath(this.id), {method: "PUT", token: this.token, body: this.body({orders: lines})});
      /** @type {OrderResult[]} */
      const results = answer.orders;
      this.refusals = results.filter((o) => o.status !== "accepted");
      this.showResults(results);
      const kept = results.filter((o) => o.status === "accepted").map((o) => o.order || o.text);
      const refused = this.refusals.map((o) => o.text);
      this.dirty = false;
      // a set with a refused line leaves the power ordering (docs/api.md, "A refused line")
      this.stored(kept, answer.orders, answer.done !== false && !refused.length);
      if (refused.length) {
        this.textarea.value = [...kept, ...refused].join("\n");
        this.dirty = true;
      }
    } catch (error) {
      this.refused(error, true);
    } finally {
      this.submitting = false;
    }
  }

  /** Orders stored for this power from elsewhere (the seat's other device, a bot): the view
   *  lists the power's stored orders of the phase; the panel takes them when they are not the
   *  ones it shows. A box being typed in is left as it is (docs/web.md, "Live updates").
   *  @param {View} view */
  takeStored(view) {
    const possible = this.possible;
    const current = possible ? view.orders?.[possible.power] : undefined;
    if (!possible || view.game.phase !== possible.phase || !Array.isArray(current)) return;
    if (current.length === possible.submitted.length && current.every((text, i) => text === possible.submitted[i])) return;
    this.noteStored(current);
    if (!this.dirty) this.showInBox(current);
    this.status.textContent = `${ordersStored(current)} (changed elsewhere).`;
  }

  /** The possible orders now with ``current`` stored: a new answer of the page's state (the
   *  same menu, so the menus on the page stay as they are). @param {string[]} current */
  noteStored(current) {
    const possible = this.possible;
    if (!possible) return;
    const lacking = possible.menu
      .filter((g) => g.kind === "unit" && !g.orders.some((o) => current.includes(o.text)) && !storedFor(g, current))
      .map((g) => g.key);
    // orders stored since are the player's (the house bot writes only as a phase begins)
    this.store.update({possible: {...possible, submitted: current, lacking, submitted_by_house_bot: false}});
  }

  /** The stored orders are now ``current`` (the answer of a PUT, ``whole``, or a PATCH). A box
   *  being typed in takes the change without losing a typed character (draft.js); an untouched
   *  box shows the stored orders.
   *  @param {string[]} current @param {OrderResult[]} results @param {boolean} [whole] */
  stored(current, results, whole = false) {
    this.noteStored(current);
    if (!this.dirty) {
      this.showInBox(current);
    } else {
      // from what the box showed when the typing began: a view of this very change may have
      // come first (and left the box alone, the player typing)
      const typing = document.activeElement === this.textarea;
      const merged = mergeDraft(this.textarea.value, this.textarea.selectionStart ?? this.textarea.value.length, this.boxShows, current);
      this.boxShows = current;
      if (merged.text !== this.textarea.value) {
        this.textarea.value = merged.text;
        if (typing) this.textarea.setSelectionRange(merged.caret, merged.caret);
      }
    }
    const refused = results.filter((r) => r.status !== "accepted").length;
    // a change clears the ready flag (not done); a whole set is done where no ready flag is asked for
    const doneNow = whole && !this.store.get().view?.game.settings.require_ready;
    this.status.textContent = ordersStored(current)
      + (refused && this.refusals.length ? `; ${refused} refused: you are not done.` : refused ? `; ${refused} refused.`
        : doneNow ? ": done." : ".");
    this.done.want(doneNow);
    this.render();
  }

  /** @param {string[]} orders */
  showInBox(orders) {
    this.textarea.value = orders.join("\n");
    this.boxShows = orders;
  }

  /** Lists ``results`` under the box, and with them the refusals of the last whole set whose
   *  lines are still in the box: a refusal stays on screen until the line is fixed or removed.
   *  @param {OrderResult[]} results */
  showResults(results) {
    this.shownResults = results;
    const texts = new Set(results.map((r) => r.text));
    const lines = this.boxLines();
    const shown = [...results, ...this.refusals.filter((r) => !texts.has(r.text) && lines.has(r.text.trim()))];
    const list = ui.results;
    list.replaceChildren(...shown.map((r) => r.status === "accepted"
      ? element("li", {class: "accepted"}, element("span", {class: "mark", "aria-hidden": "true", text: "✓"}),
        `${r.text}`, r.order !== r.text ? element("span", {class: "muted", text: ` → ${r.order}`}) : null, " accepted")
      : element("li", {class: "rejected"}, element("span", {class: "mark", "aria-hidden": "true", text: "✗"}),
        `${r.text} refused: ${r.reason}`)));
  }

  /** The box's lines, trimmed. */
  boxLines() {
    return new Set(this.textarea.value.split("\n").map((line) => line.trim()));
  }

  /** Drops the refusals whose lines are no longer in the box; whether any went. */
  pruneRefusals() {
    const lines = this.boxLines();
    const before = this.refusals.length;
    this.refusals = this.refusals.filter((r) => lines.has(r.text.trim()));
    if (this.refusals.length === before) return false;
    this.showResults(this.shownResults.filter((r) => r.status === "accepted" || lines.has(r.text.trim())));
    return true;
  }

  /** @param {unknown} thrown @param {boolean} [whole]  the box's whole set was sent */
  refused(thrown, whole = false) {
    const error = failure(thrown);
    if (error instanceof ApiError && error.code === "orders_rejected" && Array.isArray(error.details)) {
      if (whole) this.refusals = error.details.filter((/** @type {OrderResult} */ r) => r.status !== "accepted");
      this.showResults(error.details);
      this.status.textContent = "No order was accepted; nothing was stored.";
      this.render();
      return;
    }
    this.status.textContent = error.code === "connection_lost"
      ? "Not sent: the server cannot be reached. Nothing was stored, and nothing will be sent by itself; the menus show what the server has."
      : `Refused: ${error.message}`;
  }

  /** Done (``true``): the ready flag, after an empty whole set when nothing is stored yet (the
   *  API refuses a ready flag on nothing: ``nothing_submitted``); Undo done (``false``) takes the
   *  flag back. One request at a time: a second press waits for the first's answer.
   *  @param {boolean} done */
  async setDone(done) {
    if (!this.possible || this.busy) return;
    const {phase, power, submitted} = this.possible;
    const view = this.store.get().view;
    if (!view) return;
    this.busy = true;
    if (done) this.done.want(true);  // Undo waits for the view: a whole set sent stays done
    this.render();
    try {
      const nothing = !submitted.length && !view.submitted?.includes(power) && !view.ordering?.includes(power);
      const byBot = Boolean(this.possible.submitted_by_house_bot);
      if (done && (nothing || byBot)) {
        // an empty whole set: every unit holds (the API refuses a flag on nothing); or the house
        // bot's orders sent again as the player's own, which gives the power back to its player
        const orders = byBot ? submitted : [];
        const answer = await api(ordersPath(this.id), {method: "PUT", token: this.token, body: {phase, power, orders}});
        if (byBot) this.stored(orders, answer.orders, true);
        if (answer.resolved || !view.game.settings.require_ready) {
          this.status.textContent = answer.resolved ? "Done: the phase resolves." : "Done.";
          return;
        }
      }
      const answer = await api(readyPath(this.id), {method: done ? "POST" : "DELETE", token: this.token,
        body: {phase, power}});
      if (this.possible?.phase === phase) {
        this.status.textContent = done ? (answer?.resolved ? "Done: the phase resolves." : "Done.") : "Not done any more.";
      }
    } catch (thrown) {
      const error = failure(thrown);
      this.done.forget();
      this.status.textContent = error.code === "wrong_phase" ? "The phase has already resolved." : `Refused: ${error.message}`;
    } finally {
      this.busy = false;
      if (this.possible) this.render();
    }
  }
}
