// The game page's state: one store of a declared shape, changed only by `update(patch)`, which
// tells the subscribers what changed (docs/web.md, "The state store"). The state is frozen: a
// module that wrote a field of it directly, or named a field the shape does not declare, fails
// at once (a TypeError in a module's strict code, an Error from update) rather than silently.

/** @typedef {import("./shapes.js").View} View */
/** @typedef {import("./shapes.js").HistoryEntry} HistoryEntry */
/** @typedef {import("./shapes.js").GameSummary} GameSummary */
/** @typedef {import("./shapes.js").Identity} Identity */
/** @typedef {import("./shapes.js").PossibleOrders} PossibleOrders */

/**
 * Everything the game page's modules share. A module's own widget state (what the orders panel
 * has picked and not sent, the notifications' unread count) stays in that module, declared in
 * its constructor.
 * @typedef {object} GameState
 * @property {string} id  the game's id, from the address
 * @property {View | null} view  the latest view, its history holding every phase in `known`
 * @property {Record<string, string>} colours  power -> #rrggbb, from the variant's map data
 * @property {string | null} shown  a resolved phase the board shows; null: the board now
 * @property {{phase: string | null, status: string} | null} shownAt  where the game was when `shown` was opened
 * @property {string | null} drawn  what the board drawn now shows (phase and own pending orders)
 * @property {GameSummary | null} summary  the public summary, read while the game forms (seats taken)
 * @property {string} joinProblem  why the last Join failed, kept under the seats however often they are redrawn
 * @property {HistoryEntry[]} known  every resolved phase this page has read, oldest first
 * @property {boolean} older  whether the server has resolved phases before the first of `known`
 * @property {Identity[] | null} identities  who played whom, once read (a game that reveals it, ended)
 * @property {PossibleOrders | null} possible  the orders panel's possible orders, with the orders stored since
 * @property {string | null} chosenPower  the power chosen under "Ordering for" (a seat of several)
 */

/**
 * @template {object} S
 * @callback Listener
 * @param {Readonly<S>} state  the state after the change
 * @param {Set<keyof S>} changed  the fields whose value changed
 * @returns {void}
 */

/** @template {object} S */
export class Store {
  /** @type {Readonly<S>} */
  #state;
  /** @type {Set<Listener<S>>} */
  #listeners = new Set();

  /** @param {S} initial  every field of the shape, with its first value */
  constructor(initial) {
    this.#state = Object.freeze(Object.assign({}, initial));
  }

  /** The state now (frozen: read it, change it with update). */
  get() {
    return this.#state;
  }

  /** The one way to change the state: the fields of ``patch`` replace the state's; the
   *  subscribers hear of the change when a value changed (compared with ===). A field the shape
   *  does not declare is refused.
   *  @param {Partial<S>} patch */
  update(patch) {
    /** @type {Set<keyof S>} */
    const changed = new Set();
    for (const key of /** @type {(keyof S)[]} */ (Object.keys(patch))) {
      if (!Object.prototype.hasOwnProperty.call(this.#state, key)) throw new Error(`the state has no field ${String(key)}`);
      if (this.#state[key] !== patch[key]) changed.add(key);
    }
    if (!changed.size) return;
    this.#state = Object.freeze({...this.#state, ...patch});
    for (const listener of [...this.#listeners]) listener(this.#state, changed);
  }

  /** Calls ``listener`` after every change; returns the function that stops it.
   *  @param {Listener<S>} listener
   *  @returns {() => void} */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }
}

/** @typedef {Store<GameState>} GameStore */

/** The game page's store, for the game ``id``, before its first view.
 *  @param {string} id
 *  @returns {GameStore} */
export function gameStore(id) {
  /** @type {GameState} */
  const initial = {
    id, view: null, colours: {}, shown: null, shownAt: null, drawn: null, summary: null, joinProblem: "",
    known: [], older: false, identities: null, possible: null, chosenPower: null,
  };
  return new Store(initial);
}
