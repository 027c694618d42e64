// A small program on the client openapi-typescript generates from /openapi.json, type-checked by
// tsc --strict with no hand edits (tests/clients/test_typescript_client.py; docs/api.md, "The
// OpenAPI document"). Each line leans on one promise of the document.
import type { components, paths, webhooks } from "./api";

type S = components["schemas"];
type CreateGame = paths["/games"]["post"]["requestBody"]["content"]["application/json"];
type View = paths["/games/{game_id}/view"]["get"]["responses"]["200"]["content"]["application/json"];

// every game setting may be left out; each variant's body has its own
export const onlyAName: CreateGame = { name: "Only a name" };
export const small: CreateGame = { name: "Three", settings: { player_count: 3, press: "none" } };
export const ekonia: CreateGame = { name: "E", variant: "ekonia", settings: { player_count: 4, max_turns: 20 } };
// @ts-expect-error: the Dirigible game is played by seven
export const dirigibleOfThree: CreateGame = { name: "D", variant: "dirigible", settings: { player_count: 3 } };
// @ts-expect-error: max_turns is for Tale of Ekonia only
export const standardByTurns: CreateGame = { name: "S", settings: { max_turns: 30 } };

// the board position is tagged by its variant
export function held(view: View): number {
  const position = view.position;
  if (position === null) return 0;
  switch (position.variant) {
    case "ekonia": return position.surviving.length;
    case "dirigible": return position.devastated.length + Object.keys(position.points).length;
    case "standard": return Object.keys(position.centres).length;
  }
}

// orders are a union by type, per board
export function said(order: S["StructuredOrder"]): string {
  switch (order.type) {
    case "support_move": return `${order.unit} S ${order.supported} - ${order.to}`;
    case "convoy": return order.convoyed;
    case "build": return order.location;
    case "buy": return `${order.count} ${order.unit_type} at ${order.location}`;
    case "diplomacy": return `${order.stance} ${order.power}`;
    case "move": return "via_convoy" in order ? String(order.via_convoy) : order.path.join(" ");
    default: return order.text;
  }
}

// what an answer always carries is not optional
export const minutes = (view: View): number => (view.clock === null ? 0 : view.clock.phase_minutes);
export const waiting = (view: View): string[] => view.waiting_for;
export const history = (view: View): string[] => view.history.map((entry) => entry.phase);

// the stream's events by their name, the webhooks by their kind
export function streamed(event: S["StreamEvent"]): string {
  switch (event.event) {
    case "view": return event.id;
    case "message": return event.id;
    case "closed": return event.data;
  }
}
type Resolved = webhooks["phase_resolved"]["post"]["requestBody"]["content"]["application/json"];
export const next = (payload: Resolved): string => payload.entente.next_phase;
export const code = (error: S["Error"]): string => error.error.code;
