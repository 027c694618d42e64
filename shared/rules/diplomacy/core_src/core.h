/* The contract's movement phase in C: a document in, its output document out, or None.
 *
 * docs/rules/c_core.md says why it exists and what it takes. In short: `adjudicate_document`
 * (document.py) hands every document here first. A movement phase on a map set up by
 * `setup` (the standard map: c_core.py), written the way the engine writes documents (canonical
 * order texts for the units standing there, every order legal, no civil disorder and no other
 * rule switch), is read, checked, resolved and written here with the board, the orders and
 * the decisions in C arrays. Anything else comes back as None and the Python engine, which
 * stays the reference, takes the document. This file mirrors movement.py, resolver.py,
 * convoys.py and movement_outcome.py rule for rule and reason for reason; the equality tests
 * (tests/rules/diplomacy/test_c_core.py) hold the two to the same output.
 *
 * The files: core.h (the map's tables and a phase's state), map.c (the tables, set by `setup`,
 * and reading names), orders.c (the document read and every order checked, as movement.py's
 * legality, then matched), resolve.c (resolver.py and convoys.py), outcome.c (movement_outcome.py
 * and the output written), module.c (the entry point, `movement_document`).
 */
#ifndef ENTENTE_CORE_H
#define ENTENTE_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <assert.h>
#include <stdint.h>
#include <string.h>

/* Nothing here is seen outside the extension (the module's init function says otherwise for
 * itself): the generic names below cannot clash with another library's. */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

#define MAXP 128     /* provinces */
#define MAXL 192     /* locations: provinces and their coasts */
#define MAXPOW 16    /* powers */
#define MAXADJ 24    /* neighbours of one location */
#define MAXSEA 64    /* sea provinces (a bit each) */
#define MAXGIVEN 160 /* orders in one document */
#define MAXDEPS 2048 /* the resolver's open guesses */

enum { ARMY = 0, FLEET = 1 };
enum { HOLD = 0, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY };
enum { UNRESOLVED = 0, GUESSING = 1, RESOLVED = 2 };
enum { FALLBACK = 1 }; /* a helper's answer: leave this document to the Python engine */

typedef struct { uint64_t w[2]; } Bits; /* a set of provinces */

static inline int bits_has(const Bits *b, int p) { return (int)((b->w[p >> 6] >> (p & 63)) & 1u); }
static inline void bits_add(Bits *b, int p) { b->w[p >> 6] |= (uint64_t)1 << (p & 63); }


/* --- the map (set once by `setup`) ------------------------------------------------------- */

extern int map_ready;
extern int n_prov, n_loc, n_pow;
extern int loc_province[MAXL];
extern int loc_rank[MAXL];                  /* the place of the location's text in sorted order */
extern int rank_loc[MAXL];                  /* ... and the location in each place */
extern int army_adj[MAXP][MAXADJ], army_n[MAXP];   /* provinces, in name order */
extern int fleet_adj[MAXL][MAXADJ], fleet_n[MAXL]; /* locations, in text order */
extern Bits army_borders[MAXP];             /* the provinces an army here borders */
extern Bits fleet_reach[MAXL];              /* the provinces a fleet here borders */
extern unsigned char army_ok[MAXP], fleet_ok[MAXL];
extern unsigned char is_sea[MAXP], is_coastal[MAXP], is_split[MAXP], is_supply[MAXP];
extern int sea_number[MAXP];                /* sea province -> its bit, else -1 */
extern uint64_t sea_links[MAXSEA];          /* sea -> the seas a fleet there borders */
extern uint64_t seas_beside[MAXP];          /* province -> the seas whose fleets border it */
extern int homes[MAXPOW][MAXP], homes_n[MAXPOW];
extern int16_t code_table[26 * 26 * 26];    /* a three-letter code -> province, else -1 */
extern int coast_location[MAXP][4];         /* NC, SC, EC, WC -> location, else -1 */

extern PyObject *unit_texts[2][MAXL];       /* "A PAR", "F STP/NC" */
extern PyObject *province_texts[MAXP], *location_texts[MAXL], *power_texts[MAXPOW];
extern PyObject *moved_to[MAXP], *bounced_at[MAXP];
extern PyObject *s_variant, *s_phase, *s_units, *s_centers, *s_dislodged, *s_orders, *s_next_phase,
    *s_winners, *s_adjustments, *s_standard, *s_order, *s_result, *s_reason, *s_unit, *s_attacker_from,
    *s_retreats, *s_succeeds, *s_fails, *s_held, *s_support_given, *s_convoyed, *s_support_cut,
    *s_no_convoy, *s_disrupted, *s_paradox;


/* --- one phase ---------------------------------------------------------------------------- */

typedef struct {
    int power;       /* -1: no unit in this slot */
    int type, loc;   /* the unit standing here */
    int kind;
    int destination; /* the province a move, support or convoy is aimed at */
    int target;      /* supports: the supported unit's province; convoys: the army's */
    int location;    /* moves: where the unit ends if it moves */
    int written;     /* supports of a move: the destination as written (a coast kept for a fleet) */
    int by_convoy, has_decision, occupant, arrival;
    int supporters[MAXADJ], n_supporters;
    int convoyers[MAXSEA], n_convoyers;
} Entry;

typedef struct {
    Entry e[MAXP];
    int present[MAXP], n_present;
    int state[MAXP];
    unsigned char resolution[MAXP];
    int deps[MAXDEPS], n_deps;
    int movers[MAXP][MAXP], n_movers[MAXP]; /* every unit on the board may move into one province */
    int arrivals[MAXP], n_arrivals;
    int opponent[MAXP];
    int failed; /* a bound was reached (the resolver's, or a match's): leave the document to Python */
    uint64_t fleet_bits;
    int sea_fleets[MAXSEA], n_sea_fleets; /* the fleets at sea, in province order */
    /* orders as given */
    int n_given;
    int given_slot[MAXGIVEN], given_power[MAXGIVEN];
    PyObject *given_text[MAXGIVEN]; /* borrowed from the document */
    /* after the moves */
    int after_power[MAXP], after_type[MAXP], after_loc[MAXP]; /* -1 power: empty */
    int dislodged_by[MAXP];
    Bits standoffs;
} Phase;

typedef struct { const char *s; Py_ssize_t len; } Word; /* a word of an order's text */

/* map.c */
int province_code(const char *s);
int location_at(const char *s, Py_ssize_t len);
const char *ascii_of(PyObject *text, Py_ssize_t *len);
int unit_at(const char *s, Py_ssize_t len, int *type, int *loc);
int power_of(PyObject *key);
PyObject *setup(PyObject *self, PyObject *args);

/* orders.c */
int read_units(Phase *ph, PyObject *units);
int read_centres(int *owner, PyObject *centres);
int read_orders(Phase *ph, PyObject *orders);
void match_orders(Phase *ph);

/* resolve.c */
void prepare_resolver(Phase *ph);
int resolve(Phase *ph, int index);
int path(Phase *ph, int index);
int prevent_strength(Phase *ph, int index);
int moved(Phase *ph, int index);

/* outcome.c */
void board_after(Phase *ph);
PyObject *orders_written(Phase *ph);
PyObject *units_written(Phase *ph);
PyObject *centres_written(const int *owner);
PyObject *dislodged_written(Phase *ph, int *any_retreat);
int end_of_year(Phase *ph, int *owner);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
