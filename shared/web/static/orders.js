// The orders panel: possible orders as menus, orders by clicking the board, orders typed in
// any notation, and Done (the ready flag) (docs/web.md, "Orders").
import {ApiError, Intent, api, element, phaseName} from "./api.js";
import {baseOf, unitPlace} from "./board.js";
import {mergeDraft} from "./draft.js";

// Keys that walk a closed menu: each one changes its choice, none of them chooses.
const WALKING_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

const MOVES = new Set(["move", "retreat", "rebase", "load", "unload", "drop", "bombard"]);

/** The orders of ``group`` that a click on ``place`` can mean, moves first. */
export function ordersToward(group, place) {
  const home = baseOf(group.location);
  const found = group.orders.filter((order) => {
    if (order.type === "support_hold") return order.supported && unitPlace(order.supported) === place;
    if (order.to) return baseOf(order.to) === place;
    return place === home && !order.supported && !order.convoyed;
  });
  return found.sort((a, b) => Number(MOVES.has(b.type)) - Number(MOVES.has(a.type)));
}

function groupTitle(group) {
  if (group.kind === "unit") return `Order for ${group.unit}`;
  if (group.kind === "site") {
    return group.orders.some((o) => o.type === "build") ? `Build at ${group.location}` : `Buy or improve at ${group.location}`;
  }
  return group.orders.some((o) => o.type === "waive") ? "Waive a build" : "Orders of the state";
}

/** "1 order stored", "3 orders stored". */
function ordersStored(current) {
  return `${current.length} order${current.length === 1 ? "" : "s"} stored`;
}

export class OrdersPanel {
  constructor(game, board) {
    this.game = game;
    this.board = board;
    this.possible = null;
    this.selected = null;  // the menu group picked on the board
    this.dirty = false;  // the textarea holds text not sent yet
    this.boxShows = [];  // the stored orders the box last showed: what a typed draft started from
    // What the player has picked and not yet sent, kept across the redraws a view causes while
    // it is valid: menu group key -> the order picked in its menu ("" for "no order").
    this.picks = new Map();
    this.menusFor = null;  // the possible orders the menus on the page were built from
    this.done = new Intent();  // Done or a change just sent, shown until a view agrees
    this.busy = false;  // a Done or Undo done on its way: a second press waits for its answer
    this.textarea = document.getElementById("orders");
    this.status = document.getElementById("order-status");
    this.textarea.addEventListener("input", () => { this.dirty = true; });
    document.getElementById("submit-orders").addEventListener("click", () => this.submitTyped());
    document.getElementById("done").addEventListener("click", () => this.setDone(true));
    document.getElementById("undo-done").addEventListener("click", () => this.setDone(false));
    document.getElementById("order-power").addEventListener("change", (event) => {
      this.chosen = event.target.value;
      this.dirty = false;
      this.reload().then(() => this.game.powerChanged());
    });
    document.getElementById("click-menu-close").addEventListener("click", () => this.closeMenu());
    document.addEventListener("keydown", (event) => { if (event.key === "Escape") this.closeMenu(); });
  }

  /** The powers of this seat that must act now: a seat of a game for fewer than seven may
   *  play several, and orders for one at a time (the API's ``power``). */
  actingPowers() {
    const view = this.game.view;
    return view ? view.viewer.powers.filter((p) => view.must_act.includes(p)) : [];
  }

  /** The power whose orders the panel shows. */
  get power() {
    const acting = this.actingPowers();
    return acting.includes(this.chosen) ? this.chosen : acting[0] || null;
  }

  showPowerChoice() {
    const acting = this.actingPowers();
    document.getElementById("order-power-row").hidden = acting.length < 2;
    const select = document.getElementById("order-power");
    if (select.dataset.options !== acting.join()) {
      select.replaceChildren(...acting.map((p) => element("option", {value: p, text: p.charAt(0) + p.slice(1).toLowerCase()})));
      select.dataset.options = acting.join();
    }
    select.value = this.power || "";
  }

  /** Whether this viewer orders now: a power that must act, looking at the current board. */
  get active() {
    const view = this.game.view;
    return Boolean(view && view.game.status === "active" && view.viewer.kind === "power"
      && view.must_act.some((p) => view.viewer.powers.includes(p)));
  }

  async reload() {
    const panel = document.getElementById("orders-panel");
    panel.hidden = !this.active;
    if (this.possible?.phase !== this.game.view?.game.phase) {  // a new phase: last phase's answers go
      document.getElementById("order-results").replaceChildren();
      this.status.textContent = "";
      this.dirty = false;
    }
    const same = this.active && this.possible?.phase === this.game.view.game.phase && this.possible?.power === this.power;
    if (!same) this.dropPicks();  // what was picked belongs to another phase or power
    if (!this.active) {
      this.possible = null;
      return;
    }
    this.showPowerChoice();
    const power = encodeURIComponent(this.power);
    this.possible = await api(`/games/${this.game.id}/possible-orders?power=${power}`, {token: this.game.token});
    if (!this.dirty) this.showInBox(this.possible.submitted);
    this.keepSelection();
    this.render();
    this.game.ordersChanged();  // the own panel counts the stored builds or purchases
  }

  /** Forgets what the player picked and has not sent: the unit selected on the board, the
   *  click menu, the menus' choices. */
  dropPicks() {
    this.closeMenu();
    this.select(null);
    this.picks.clear();
    this.done.forget();
  }

  /** The unit selected on the board, as the new possible orders have it (or none if it is gone). */
  keepSelection() {
    const key = this.selected?.key;
    const group = key === undefined ? null : this.possible.menu.find((g) => g.key === key);
    if (group) this.select(group, this.board.selected?.unit, false);
    else if (this.selected) {
      this.closeMenu();
      this.select(null);
    }
  }

  /** The order a group's menu shows: the one picked and not yet sent if it is still possible,
   *  else the stored one. */
  shownIn(group, stored) {
    const picked = this.picks.get(group.key);
    if (picked !== undefined && (picked === "" || group.orders.some((o) => o.text === picked))) return picked;
    this.picks.delete(group.key);
    return group.orders.find((o) => stored.has(o.text))?.text ?? "";
  }

  render() {
    const possible = this.possible;
    if (!possible) return;
    const view = this.game.view;
    document.getElementById("orders-title").textContent = `Your orders: ${phaseName(possible.phase)}`;
    this.showDone(view, possible);
    const help = [];
    if (view.position.points) {  // Dirigible: builds are paid in supply points (docs/rules/dirigible.md)
      if (possible.adjustment > 0) help.push(`You have ${possible.adjustment} SP to build with.`);
    } else if (possible.adjustment > 0) help.push(`You may build ${possible.adjustment}.`);
    if (possible.adjustment < 0) help.push(`You must remove ${-possible.adjustment}.`);
    const building = possible.menu.some((g) => g.kind === "site") && !possible.menu.some((g) => g.kind === "unit");
    help.push(building ? "Click a centre on the board to build there; or pick from the menus; or type."
      : "Click one of your units on the board, then where it goes; or pick from the menus; or type.");
    for (const dislodged of view.position.dislodged || []) {
      if (dislodged.power !== possible.power) continue;
      const where = dislodged.retreats.length ? `retreat to ${dislodged.retreats.join(", ")} or disband` : "disband";
      help.push(`${dislodged.unit} was dislodged (from ${dislodged.attacker_from}): ${where}.`);
    }
    document.getElementById("order-help").textContent = help.join(" ");
    this.showMenus(possible);
  }

  /** The units still without an order (possible-orders' ``lacking``, kept up to date here). */
  lackingUnits(possible) {
    const units = new Map(possible.menu.filter((g) => g.kind === "unit").map((g) => [g.key, g.unit]));
    return possible.lacking.filter((key) => units.has(key)).map((key) => units.get(key));
  }

  /** Whether the phase no longer waits for the power: it is done (its whole set sent, or its
   *  ready flag set: the view's ``submitted``), and ready where the game asks for ready flags
   *  (docs/web.md, "Done"). */
  isDone(view, power) {
    if (view.waiting_for) return !view.waiting_for.includes(power);
    return Boolean(view.submitted?.includes(power)) && (!view.game.settings.require_ready || Boolean(view.ready?.includes(power)));
  }

  /** Done and Undo done, the warning about units left without orders, and what is waited for. */
  showDone(view, possible) {
    const done = this.done.shown(this.isDone(view, possible.power));
    const lacking = this.lackingUnits(possible);
    const warning = document.getElementById("lacking");
    warning.hidden = !lacking.length;
    warning.textContent = lacking.length
      ? `${lacking.length === 1 ? "1 unit has" : `${lacking.length} units have`} no order yet: ${lacking.join(", ")}.`
        + " They hold if you are done without ordering them." : "";
    // the ready flag can be taken back; a whole set sent stays done until an order is changed
    const flagged = this.done.value === true || Boolean(view.ready?.includes(possible.power));
    document.getElementById("done").hidden = done;
    document.getElementById("done").disabled = this.busy;
    document.getElementById("undo-done").hidden = !(done && flagged);
    document.getElementById("undo-done").disabled = this.busy;
    const others = (view.waiting_for || []).filter((p) => p !== possible.power).map((p) => p.charAt(0) + p.slice(1).toLowerCase());
    const waiting = others.length ? ` The phase waits for ${others.join(", ")}.` : "";
    document.getElementById("done-status").textContent = !done ? "Not done: the phase waits for you until the deadline."
      : flagged ? `You are done.${waiting} Undo done, or change an order, to go on ordering.`
        : `You are done: your whole set was sent.${waiting} Change an order to go on ordering.`;
  }

  /** The menus, built once for each answer of possible-orders; a redraw for the same answer
   *  only sets the choices that changed, so a menu the player has open, the focus and what
   *  they picked stay as they are. */
  showMenus(possible) {
    const stored = new Set(possible.submitted);
    const menus = document.getElementById("order-menus");
    if (this.menusFor !== possible) {
      const focused = document.activeElement?.closest?.("#order-menus") ? document.activeElement.id : null;
      menus.replaceChildren(...possible.menu.map((group, index) => this.menuFor(group, index, stored)));
      menus.dataset.power = possible.power;  // whose menus these are (the page may be between two powers)
      this.menusFor = possible;
      if (focused) document.getElementById(focused)?.focus();  // a keyboard user stays where they were
      return;
    }
    possible.menu.forEach((group, index) => {
      const select = document.getElementById(`menu-${index}`);
      const shown = this.shownIn(group, stored);
      if (select && select.value !== shown) select.value = shown;
    });
  }

  menuFor(group, index, stored) {
    const id = `menu-${index}`;
    const shown = this.shownIn(group, stored);
    const select = element("select", {id},
      element("option", {value: "", text: "no order"}),
      group.orders.map((o) => element("option", {value: o.text, text: o.text, selected: shown === o.text})));
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
   *  Add button (or Enter). */
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
   *  until the answer, and after it if it was refused. */
  async sendPick(group, text) {
    const stored = group.orders.find((o) => this.possible.submitted.includes(o.text));
    const sent = text ? await this.send([text]) : await this.clear(stored);
    if (sent && this.picks.get(group.key) === text) {
      this.picks.delete(group.key);
      this.showMenus(this.possible);
    }
  }

  // Clicking the board ------------------------------------------------------------------

  groupsAt(place, kinds = ["unit"]) {
    return (this.possible?.menu || []).filter((g) => kinds.includes(g.kind) && baseOf(g.location) === place);
  }

  select(group, unitAttribute = null, say = true) {
    this.selected = group;
    this.board.mark(group ? {unit: unitAttribute || group.unit, place: baseOf(group.location)} : null);
    if (group && say) this.status.textContent = `${group.unit || group.location} selected: click where it goes.`;
  }

  clickUnit(attribute, event) {
    if (!this.possible || this.game.shown) return;
    const place = unitPlace(attribute);
    const own = this.possible.menu.filter((g) => g.kind === "unit" && (g.unit === attribute || baseOf(g.location) === place));
    if (this.selected && own.includes(this.selected)) {  // the selected unit clicked again: its own orders
      this.choose(ordersToward(this.selected, place), place, event);
      return;
    }
    if (this.selected && !own.includes(this.selected)) {
      const choices = ordersToward(this.selected, place);
      if (choices.length && own.length) {  // a support for one's own unit, or that unit's own orders
        const group = this.selected;
        this.openMenu(`${group.unit} toward ${place}`, [
          ...choices.map((o) => [o.text, () => { this.select(null); this.send([o.text]); }]),
          ...own.map((g) => [`Order ${g.unit} instead…`, () => this.select(g, attribute)])], event);
        return;
      }
      if (choices.length || !own.length) {
        this.choose(choices, place, event);
        return;
      }
    }
    if (own.length === 1) this.select(own[0], attribute);
    else if (own.length > 1) this.openMenu(`Which of your units at ${place}?`, own.map((g) => [g.unit, () => this.select(g)]), event);
  }

  clickProvince(place, event) {
    if (!this.possible || this.game.shown) return;
    if (this.selected) {
      this.choose(ordersToward(this.selected, place), place, event);
      return;
    }
    const units = this.groupsAt(place);
    const sites = this.groupsAt(place, ["site"]);
    if (units.length === 1 && !sites.length) {
      this.select(units[0]);
      return;
    }
    const items = [...units.map((g) => [`Order ${g.unit}…`, () => this.select(g)]),
      ...sites.flatMap((g) => g.orders).map((o) => [o.text, () => this.send([o.text])])];
    if (items.length) this.openMenu(`Orders at ${place}`, items, event);
  }

  choose(choices, place, event) {
    const group = this.selected;
    if (!choices.length) {
      this.status.textContent = `${group.unit || group.location} has no order toward ${place}.`;
      this.select(null);
      return;
    }
    if (choices.length === 1) {
      this.select(null);
      this.send([choices[0].text]);
      return;
    }
    this.openMenu(`${group.unit || group.location} toward ${place}`,
      choices.map((o) => [o.text, () => { this.select(null); this.send([o.text]); }]), event);
  }

  openMenu(title, items, event) {
    const menu = document.getElementById("click-menu");
    this.menuOpener = this.board.focusedKey();  // opened by the keyboard: the focus goes back there
    document.getElementById("click-menu-title").textContent = title;
    document.getElementById("click-menu-items").replaceChildren(...items.map(([label, act]) =>
      element("button", {type: "button", text: label, onclick: () => { this.closeMenu(); act(); }})));
    const area = menu.parentElement.getBoundingClientRect();
    const x = Math.min(Math.max(event.clientX - area.left, 8), Math.max(area.width - 260, 8));
    menu.style.left = `${x}px`;
    menu.style.top = `${Math.max(event.clientY - area.top + 12, 8)}px`;
    menu.hidden = false;
    menu.querySelector("button").focus();
  }

  closeMenu() {
    const menu = document.getElementById("click-menu");
    if (menu.hidden) return;
    menu.hidden = true;
    if (this.menuOpener) this.board.focusItem(this.menuOpener);
    this.menuOpener = null;
  }

  // Sending -----------------------------------------------------------------------------

  body(extra) {
    return {phase: this.possible.phase, power: this.possible.power, ...extra};
  }

  /** One or more orders added (PATCH): each replaces the stored order about its subject; the
   *  power is then "ordering", not done. Whether they were stored. */
  async send(texts) {
    try {
      const answer = await api(`/games/${this.game.id}/orders`, {method: "PATCH", token: this.game.token, body: this.body({orders: texts})});
      this.showResults(answer.orders);
      this.stored(answer.current, answer.orders);
      return true;
    } catch (error) {
      this.refused(error);
      return false;
    }
  }

  async clear(order) {
    if (!order) return true;
    try {
      const answer = await api(`/games/${this.game.id}/orders`, {method: "PATCH", token: this.game.token, body: this.body({clear: [order.text]})});
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
      const answer = await api(`/games/${this.game.id}/orders`, {method: "PUT", token: this.game.token, body: this.body({orders: lines})});
      this.showResults(answer.orders);
      const kept = answer.orders.filter((o) => o.status === "accepted").map((o) => o.order);
      const refused = answer.orders.filter((o) => o.status !== "accepted").map((o) => o.text);
      this.dirty = false;
      this.stored(kept, answer.orders, !refused.length);
      if (refused.length) {
        this.textarea.value = [...kept, ...refused].join("\n");
        this.dirty = true;
      }
    } catch (error) {
      this.refused(error);
    } finally {
      this.submitting = false;
    }
  }

  /** Orders stored for this power from elsewhere (the seat's other device, a bot): the view
   *  lists the power's stored orders of the phase; the panel takes them when they are not the
   *  ones it shows. A box being typed in is left as it is (docs/web.md, "Live updates"). */
  takeStored(view) {
    const possible = this.possible;
    const current = view.orders?.[possible?.power];
    if (!possible || view.game.phase !== possible.phase || !Array.isArray(current)) return;
    if (current.length === possible.submitted.length && current.every((text, i) => text === possible.submitted[i])) return;
    this.noteStored(current);
    if (!this.dirty) this.showInBox(current);
    this.status.textContent = `${ordersStored(current)} (changed elsewhere).`;
  }

  noteStored(current) {
    this.possible.submitted = current;
    this.possible.lacking = this.possible.menu
      .filter((g) => g.kind === "unit" && !g.orders.some((o) => current.includes(o.text))).map((g) => g.key);
  }

  /** The stored orders are now ``current`` (the answer of a PUT, ``whole``, or a PATCH). A box
   *  being typed in takes the change without losing a typed character (draft.js); an untouched
   *  box shows the stored orders. */
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
    this.status.textContent = ordersStored(current)
      + (refused ? `; ${refused} refused.` : whole ? ": done." : ".");
    // a change clears the ready flag (not done); a whole set is done where no ready flag is asked for
    this.done.want(whole && !this.game.view.game.settings.require_ready);
    this.render();
    this.game.ordersChanged();
  }

  showInBox(orders) {
    this.textarea.value = orders.join("\n");
    this.boxShows = orders;
  }

  showResults(results) {
    const list = document.getElementById("order-results");
    list.replaceChildren(...results.map((r) => r.status === "accepted"
      ? element("li", {class: "accepted"}, element("span", {class: "mark", "aria-hidden": "true", text: "✓"}),
        `${r.text}`, r.order !== r.text ? element("span", {class: "muted", text: ` → ${r.order}`}) : null, " accepted")
      : element("li", {class: "rejected"}, element("span", {class: "mark", "aria-hidden": "true", text: "✗"}),
        `${r.text} refused: ${r.reason}`)));
  }

  refused(error) {
    if (error instanceof ApiError && error.code === "orders_rejected" && Array.isArray(error.details)) {
      this.showResults(error.details);
      this.status.textContent = "No order was accepted; nothing was stored.";
      return;
    }
    this.status.textContent = `Refused: ${error.message}`;
  }

  /** Done (``true``): the ready flag, after an empty whole set when nothing is stored yet (the
   *  API refuses a ready flag on nothing: ``nothing_submitted``); Undo done (``false``) takes the
   *  flag back. One request at a time: a second press waits for the first's answer. */
  async setDone(done) {
    if (!this.possible || this.busy) return;
    const {phase, power} = this.possible;
    const view = this.game.view;
    this.busy = true;
    if (done) this.done.want(true);  // Undo waits for the view: a whole set sent stays done
    this.render();
    try {
      const nothing = !this.possible.submitted.length && !view.submitted?.includes(power) && !view.ordering?.includes(power);
      if (done && nothing) {  // an empty whole set: every unit holds (the API refuses a flag on nothing)
        const answer = await api(`/games/${this.game.id}/orders`, {method: "PUT", token: this.game.token, body: {phase, power, orders: []}});
        if (answer.resolved || !view.game.settings.require_ready) {
          this.status.textContent = answer.resolved ? "Done: the phase resolves." : "Done.";
          return;
        }
      }
      const answer = await api(`/games/${this.game.id}/ready`, {method: done ? "POST" : "DELETE", token: this.game.token,
        body: {phase, power}});
      if (this.possible?.phase === phase) {
        this.status.textContent = done ? (answer?.resolved ? "Done: the phase resolves." : "Done.") : "Not done any more.";
      }
    } catch (error) {
      this.done.forget();
      this.status.textContent = error.code === "wrong_phase" ? "The phase has already resolved." : `Refused: ${error.message}`;
    } finally {
      this.busy = false;
      if (this.possible) this.render();
    }
  }
}
