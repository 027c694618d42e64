// The API's answers as the pages read them: the schemas of the OpenAPI document (docs/api.md),
// as openapi-typescript writes them into ../openapi.d.ts, generated and checked in (docs/web.md,
// "Types from the OpenAPI document"); tsc checks the pages against them, so that the page and the
// API cannot drift. No page loads this module: the types are imported with
// `@typedef {import("./shapes.js").View} View`.
export {};

/** @typedef {import("../openapi").components["schemas"]} Schemas */

/** What GET /games/{id}/view answers, and every `view` event once made whole (live.js). @typedef {Schemas["GameView"]} View */
/** A resolved phase of a view's history. @typedef {Schemas["ResolvedPhaseView"]} HistoryEntry */
/** A power's seat as the view and the summary show it (docs/bots.md, "Absent players, shown"). @typedef {Schemas["PowerView"]} PowerSeat */
/** What GET /games/{id}/possible-orders answers, for one power. @typedef {Schemas["PossibleOrders"]} PossibleOrders */
/** @typedef {Schemas["MenuGroup"]} MenuGroup */
/** One order of a menu group, structured (docs/api.md, "Structured orders"). @typedef {Schemas["StructuredOrder"]} PossibleOrder */
/** One line of an orders answer (PUT or PATCH /orders, or 422 orders_rejected's details). @typedef {Schemas["OrderFeedback"]} OrderResult */
/** GET /games/{id}, and each game of GET /games. @typedef {Schemas["GameSummary"]} GameSummary */
/** @typedef {Schemas["SeatIdentity"]} Identity */
/** @typedef {Schemas["Message"]} Message */
/** A game's settings, of whichever variant (GET /games/{id} gives them as a free-form object). @typedef {Schemas["StandardSettings"] | Schemas["DirigibleSettings"] | Schemas["EkoniaSettings"]} GameSettings */
/** One of a seat's conversations, with its unread count (GET /games/{id}/conversations). @typedef {Schemas["Conversation"]} Conversation */
/** @typedef {Schemas["ConversationList"]} ConversationList */
/** What POST /games/{id}/draw and /concede answer. @typedef {Schemas["DrawStatus"]} DrawStatus */
