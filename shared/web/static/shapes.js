// The API's answers as the pages read them (docs/api.md): JSDoc types only, checked by tsc
// (docs/web.md, "Checks"); no page loads this module, the types are imported with
// `@typedef {import("./shapes.js").View} View`. Only the fields the pages read are named; the
// variants' own reports stay loosely typed (`Record<string, any>`).
export {};

/**
 * @typedef {object} GameSettings
 * @property {number} player_count
 * @property {string} press  "full", "public" or "none"
 * @property {boolean} [require_ready]
 * @property {boolean} [reveal_identities]
 * @property {boolean} [host_may_resolve]
 * @property {boolean} [private]
 * @property {number} [movement_minutes]
 * @property {number} [retreat_minutes]
 * @property {boolean} [public_votes]
 * @property {string | null} [house_bot]  "holding" or "heuristic"; null: none
 * @property {boolean} [bots_fill_empty_seats]
 * @property {number | null} [bot_after_missed_phases]
 * @property {boolean} [bots_may_join]
 * @property {boolean} [daide_open]
 * @property {number | null} [max_turns]
 */

/**
 * @typedef {object} GameHeader
 * @property {string} id
 * @property {string} name
 * @property {string} variant
 * @property {string} status  "forming", "active" or "finished"
 * @property {string | null} phase
 * @property {GameSettings} settings
 */

/**
 * @typedef {object} Viewer
 * @property {string} kind  "power", "player" or "public"
 * @property {string[]} powers
 * @property {string | null} [power]
 * @property {string | null} [codename]
 */

/**
 * @typedef {object} Dislodged
 * @property {string} power
 * @property {string} unit
 * @property {string} attacker_from
 * @property {string[]} retreats
 */

/**
 * @typedef {object} Position
 * @property {Record<string, string[]>} [units]
 * @property {Record<string, string[]>} [centres]
 * @property {Dislodged[]} [dislodged]
 * @property {string[]} [devastated]
 * @property {Record<string, number>} [adjustments]
 * @property {Record<string, number>} [points]
 * @property {Record<string, number>} [balance]
 * @property {Record<string, any>} [own]  Tale of Ekonia: the state's gold, ledger, missions
 */

/**
 * @typedef {object} ResultOrder
 * @property {string} order
 * @property {string} [result]
 * @property {string} [reason]
 */

/**
 * @typedef {object} HistoryEntry
 * @property {string} phase
 * @property {Record<string, ResultOrder[]>} [orders]
 * @property {Dislodged[]} [dislodged]
 * @property {Record<string, any> | null} [details]
 */

/**
 * @typedef {object} GameResult
 * @property {string} reason  "victory", "draw" or another ending
 * @property {string[]} [winners]
 * @property {string[]} [drawn]
 */

/**
 * @typedef {object} Clock
 * @property {string | null} [deadline]
 * @property {string | null} [paused_until]
 */

/**
 * @typedef {object} DrawState
 * @property {boolean} [your_vote]
 * @property {boolean} [passed]
 * @property {Record<string, boolean>} [votes]
 */

/**
 * A power's seat as the view and the summary show it (docs/bots.md, "Absent players, shown").
 * @typedef {object} PowerSeat
 * @property {string} [codename]
 * @property {boolean} [house_bot]  the house bot plays the power now
 * @property {string | null} [house_bot_since]  since which phase (null: a seat nobody joined)
 * @property {number} [missed]  phases in a row its player missed
 * @property {boolean} [civil_disorder]
 */

/**
 * What GET /games/{id}/view answers, and every `view` event once made whole (live.js).
 * @typedef {object} View
 * @property {GameHeader} game
 * @property {Viewer} viewer
 * @property {Record<string, PowerSeat>} powers
 * @property {Position | null} position
 * @property {HistoryEntry[]} history
 * @property {string | null} history_before
 * @property {string[]} must_act
 * @property {string[] | null} [waiting_for]
 * @property {string[]} [submitted]
 * @property {string[]} [ready]
 * @property {string[]} [ordering]
 * @property {Record<string, string[]>} [orders]  the caller's own stored orders of the phase
 * @property {GameResult | null} [result]
 * @property {Clock | null} [clock]
 * @property {DrawState | null} [draw]
 */

/**
 * @typedef {object} PossibleOrder
 * @property {string} text
 * @property {string} type
 * @property {string} [to]
 * @property {string} [supported]
 * @property {string} [convoyed]
 * @property {boolean} [via_convoy]  a move by convoy (VIA)
 * @property {string} [unit]
 * @property {string} [unit_type]
 * @property {string} [improvement]
 * @property {number} [count]
 * @property {number} [amount]
 * @property {number} [level]  Tale of Ekonia's morale and hidden cities
 * @property {string} [mission]  Tale of Ekonia's espionage
 * @property {string | null} [target]
 */

/**
 * @typedef {object} MenuGroup
 * @property {string} key
 * @property {string} kind  "unit", "site" or "power"
 * @property {string} location
 * @property {string} [unit]
 * @property {PossibleOrder[]} orders
 */

/**
 * What GET /games/{id}/possible-orders answers, for one power.
 * @typedef {object} PossibleOrders
 * @property {string} phase
 * @property {string} power
 * @property {MenuGroup[]} menu
 * @property {string[]} submitted
 * @property {boolean} [submitted_by_house_bot]  the stored orders are the house bot's
 * @property {PossibleOrder[]} [submitted_structured]  the stored orders, structured
 * @property {string[]} lacking
 * @property {number} adjustment
 */

/**
 * One line of an orders answer (PUT or PATCH /orders, or 422 orders_rejected's details).
 * @typedef {object} OrderResult
 * @property {string} text
 * @property {string} status  "accepted" or a refusal
 * @property {string} [order]
 * @property {string} [reason]
 */

/**
 * @typedef {object} GameSummary  GET /games/{id}, and each game of GET /games
 * @property {string} id
 * @property {string[]} [codenames]  the seats taken, sorted
 * @property {string} name
 * @property {string} variant
 * @property {string} status
 * @property {string | null} phase
 * @property {number} players
 * @property {GameSettings} settings
 * @property {string | null} [updated_at]
 * @property {GameResult | null} [result]
 */

/**
 * @typedef {object} Identity
 * @property {string[]} powers
 * @property {string} codename
 * @property {string | null} [name]
 */

/**
 * @typedef {object} Message
 * @property {string} id
 * @property {{power: string, codename: string} | null} from
 * @property {"all" | string[]} to
 * @property {string} phase
 * @property {string} text
 */
