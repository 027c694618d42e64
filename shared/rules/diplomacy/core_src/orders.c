/* The document read onto the board, and every order checked as movement.py checks it (an order
 * the core is not sure of, or that the engine would void or write back otherwise, leaves the
 * whole document to the engine), then supports and convoys matched with what they serve. */
#include "core.h"

/* --- the document ------------------------------------------------------------------------ */

/* Calls `each(context, power, item)` for every item of an object keyed by power whose values
 * are lists ("units", "centers", "orders"); FALLBACK at the first that is not as the engine
 * writes it (a power's name, a list, an item `each` refuses). */
static int for_each_listed(PyObject *by_power, int (*each)(void *, int, PyObject *), void *context)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    if (!PyDict_CheckExact(by_power))
        return FALLBACK;
    while (PyDict_Next(by_power, &pos, &key, &value)) {
        int power = power_of(key);
        if (power < 0 || !PyList_CheckExact(value))
            return FALLBACK;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++)
            if (each(context, power, PyList_GET_ITEM(value, i)))
                return FALLBACK;
    }
    return 0;
}

/* A unit written as the map writes it, in a province no other unit stands in. */
static int place_unit(void *context, int power, PyObject *text)
{
    Phase *ph = context;
    Py_ssize_t len;
    int type, loc, province;
    const char *s = ascii_of(text, &len);
    if (s == NULL || unit_at(s, len, &type, &loc) < 0)
        return FALLBACK;
    province = loc_province[loc];
    if (ph->e[province].power >= 0)
        return FALLBACK;
    ph->e[province].power = power;
    ph->e[province].type = type;
    ph->e[province].loc = loc;
    return 0;
}

/* A supply centre written as the map writes it, owned by no other power. */
static int own_centre(void *context, int power, PyObject *text)
{
    int *owner = context;
    Py_ssize_t len;
    const char *s = ascii_of(text, &len);
    int p = (s != NULL && len == 3) ? province_code(s) : -1;
    if (p < 0 || !is_supply[p] || owner[p] >= 0)
        return FALLBACK;
    owner[p] = power;
    return 0;
}

int read_units(Phase *ph, PyObject *units)
{
    return for_each_listed(units, place_unit, ph);
}

int read_centres(int *owner, PyObject *centres)
{
    return for_each_listed(centres, own_centre, owner);
}

/* --- legality (movement.py, "legality") ------------------------------------------------- */

/* Whether fleets at sea (but the one in `without`) could chain an army from origin to destination. */
static int convoy_possible(Phase *ph, int origin, int destination, int without)
{
    uint64_t fleets, reached, last, grown;
    if (!is_coastal[origin] || !is_coastal[destination])
        return 0;
    fleets = ph->fleet_bits;
    if (without >= 0 && sea_number[without] >= 0)
        fleets &= ~((uint64_t)1 << sea_number[without]);
    reached = seas_beside[origin] & fleets;
    last = seas_beside[destination];
    while (reached) {
        if (reached & last)
            return 1;
        grown = reached;
        for (int sea = 0; sea < MAXSEA; sea++)
            if ((reached >> sea) & 1)
                grown |= sea_links[sea] & fleets;
        if (grown == reached)
            return 0;
        reached = grown;
    }
    return 0;
}

/* convoys.py, fleets_on_some_route: whether `fleet` lies on a necessary route. */
static int extend_route(Phase *ph, int *path, int n, int origin, int destination, int fleet)
{
    int last = path[n - 1];
    if (bits_has(&fleet_reach[ph->e[last].loc], destination)) {
        for (int i = 0; i < n; i++)
            if (path[i] == fleet)
                return 1;
        return 0;
    }
    for (int k = 0; k < ph->n_sea_fleets; k++) {
        int next = ph->sea_fleets[k], skip = 0;
        for (int i = 0; i < n; i++)
            if (path[i] == next)
                skip = 1;
        if (skip || !bits_has(&fleet_reach[ph->e[last].loc], next))
            continue;
        if (bits_has(&fleet_reach[ph->e[next].loc], origin))
            continue;
        for (int i = 0; i < n - 1; i++)
            if (bits_has(&fleet_reach[ph->e[path[i]].loc], next))
                skip = 1;
        if (skip || n >= MAXSEA)
            continue;
        path[n] = next;
        if (extend_route(ph, path, n + 1, origin, destination, fleet))
            return 1;
    }
    return 0;
}

static int on_some_route(Phase *ph, int fleet, int origin, int destination)
{
    int path[MAXSEA];
    for (int k = 0; k < ph->n_sea_fleets; k++) {
        int first = ph->sea_fleets[k];
        if (bits_has(&fleet_reach[ph->e[first].loc], origin) && first != destination) {
            path[0] = first;
            if (extend_route(ph, path, 1, origin, destination, fleet))
                return 1;
        }
    }
    return 0;
}

static int split_words(const char *s, Py_ssize_t len, Word *words, int most)
{
    int n = 0;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i <= len; i++) {
        if (i == len || s[i] == ' ') {
            if (i == start || n == most)
                return -1; /* two spaces, a leading or trailing one, or too many words */
            words[n].s = s + start;
            words[n].len = i - start;
            n++;
            start = i + 1;
        }
    }
    return n;
}

static int word_is(const Word *w, const char *text)
{
    size_t len = strlen(text);
    return (size_t)w->len == len && memcmp(w->s, text, len) == 0;
}

/* The unit two words name ("A" "PAR"), if it is exactly the unit standing there: its slot. */
static int standing_unit(Phase *ph, const Word *kind, const Word *where)
{
    int type, loc, province;
    if (kind->len != 1 || (kind->s[0] != 'A' && kind->s[0] != 'F'))
        return -1;
    type = kind->s[0] == 'A' ? ARMY : FLEET;
    loc = location_at(where->s, where->len);
    if (loc < 0)
        return -1;
    province = loc_province[loc];
    if (ph->e[province].power < 0 || ph->e[province].type != type || ph->e[province].loc != loc)
        return -1;
    return province;
}

static int fleet_steps_to(int from_loc, int to_loc)
{
    for (int i = 0; i < fleet_n[from_loc]; i++)
        if (fleet_adj[from_loc][i] == to_loc)
            return 1;
    return 0;
}

/* A move: legal as written and unchanged by normalising (else FALLBACK). */
static int check_move(Phase *ph, Entry *entry, int origin, const Word *to, int via)
{
    int loc = location_at(to->s, to->len), target;
    if (loc < 0)
        return FALLBACK;
    target = loc_province[loc];
    if (target == origin)
        return FALLBACK;
    if (entry->type == FLEET) {
        /* written with its coast where the province has coasts, and a step of the fleet */
        if (via || (is_split[target] && loc == target) || !fleet_steps_to(entry->loc, loc))
            return FALLBACK;
        entry->location = loc;
    } else {
        if (loc != target)
            return FALLBACK; /* an army's coast: normalising drops it */
        if (via || !bits_has(&army_borders[origin], target)) {
            if (!convoy_possible(ph, origin, target, -1))
                return FALLBACK;
            entry->by_convoy = 1;
        }
        entry->location = target;
    }
    entry->kind = MOVE;
    entry->destination = target;
    entry->has_decision = 1;
    return 0;
}

static int reaches(const Entry *entry, int province)
{
    return entry->type == ARMY ? bits_has(&army_borders[loc_province[entry->loc]], province)
                               : bits_has(&fleet_reach[entry->loc], province);
}

static int check_support(Phase *ph, Entry *entry, int origin, const Word *words, int n)
{
    int supported = standing_unit(ph, &words[3], &words[4]);
    Entry *mover;
    if (supported < 0 || supported == origin)
        return FALLBACK;
    mover = &ph->e[supported];
    if (n == 5) {
        if (!reaches(entry, supported))
            return FALLBACK;
        entry->kind = SUPPORT_HOLD;
        entry->destination = supported;
    } else {
        int loc, target;
        if (!word_is(&words[5], "-"))
            return FALLBACK;
        loc = location_at(words[6].s, words[6].len);
        if (loc < 0)
            return FALLBACK;
        target = loc_province[loc];
        if (target == origin || target == supported || !reaches(entry, target))
            return FALLBACK;
        if (mover->type == ARMY) {
            if (loc != target)
                return FALLBACK; /* an army's coast: normalising drops it */
            if (!bits_has(&army_borders[supported], target) && !convoy_possible(ph, supported, target, origin))
                return FALLBACK;
        } else if (loc != target ? !fleet_steps_to(mover->loc, loc) : !bits_has(&fleet_reach[mover->loc], target)) {
            return FALLBACK;
        }
        entry->kind = SUPPORT_MOVE;
        entry->destination = target;
        entry->written = loc; /* with its coast, for a fleet (DATC 6.B.9: a support to the wrong coast is void) */
    }
    entry->target = supported;
    return 0;
}

static int check_convoy(Phase *ph, Entry *entry, int origin, const Word *words)
{
    int army, destination;
    if (entry->type != FLEET || !is_sea[origin] || !word_is(&words[3], "A") || !word_is(&words[5], "-"))
        return FALLBACK;
    army = standing_unit(ph, &words[3], &words[4]);
    destination = location_at(words[6].s, words[6].len);
    if (army < 0 || destination < 0 || destination != loc_province[destination] || destination == army)
        return FALLBACK;
    if (!is_coastal[army] || !is_coastal[destination] || !on_some_route(ph, origin, army, destination))
        return FALLBACK;
    entry->kind = CONVOY;
    entry->destination = destination;
    entry->target = army;
    return 0;
}

/* One order: its unit's slot, the order written into the unit's entry; FALLBACK if the text
 * is not the canonical text of a legal order for a unit of `power` that has no other order. */
static int read_order(Phase *ph, PyObject *text, int power, int *slot)
{
    Word words[8];
    Py_ssize_t len;
    int n, origin;
    Entry *entry;
    const char *s = ascii_of(text, &len);
    if (s == NULL || (n = split_words(s, len, words, 8)) < 3)
        return FALLBACK;
    origin = standing_unit(ph, &words[0], &words[1]);
    if (origin < 0)
        return FALLBACK;
    entry = &ph->e[origin];
    if (entry->power != power || entry->kind != -1)
        return FALLBACK; /* not this power's unit, or a second order for it */
    *slot = origin;
    entry->kind = HOLD;
    if (n == 3 && word_is(&words[2], "H"))
        return 0;
    if ((n == 4 || n == 5) && word_is(&words[2], "-")) {
        if (n == 5 && !word_is(&words[4], "VIA"))
            return FALLBACK;
        return check_move(ph, entry, origin, &words[3], n == 5);
    }
    if ((n == 5 || n == 7) && word_is(&words[2], "S"))
        return check_support(ph, entry, origin, words, n);
    if (n == 7 && word_is(&words[2], "C"))
        return check_convoy(ph, entry, origin, words);
    return FALLBACK;
}

/* An order, checked (read_order), kept with its power and text in the order given. */
static int give_order(void *context, int power, PyObject *text)
{
    Phase *ph = context;
    int slot;
    if (ph->n_given == MAXGIVEN || read_order(ph, text, power, &slot))
        return FALLBACK;
    ph->given_slot[ph->n_given] = slot;
    ph->given_power[ph->n_given] = power;
    ph->given_text[ph->n_given] = text;
    ph->n_given++;
    return 0;
}

int read_orders(Phase *ph, PyObject *orders)
{
    return for_each_listed(orders, give_order, ph);
}

/* --- matching (movement.py, "_match_orders") -------------------------------------------- */

void match_orders(Phase *ph)
{
    int any_convoy = 0;
    for (int k = 0; k < ph->n_present; k++)
        if (ph->e[ph->present[k]].kind == CONVOY)
            any_convoy = 1;
    if (any_convoy) {
        for (int k = 0; k < ph->n_present; k++) {
            Entry *move = &ph->e[ph->present[k]];
            int own = 0, n = 0;
            if (move->kind != MOVE || move->type == FLEET)
                continue;
            for (int j = 0; j < ph->n_present; j++) {
                Entry *c = &ph->e[ph->present[j]];
                if (c->kind == CONVOY && c->target == ph->present[k] && c->destination == move->destination) {
                    /* The one bound the checks before keep without saying so: a convoy is read
                     * only from a fleet in a sea province (check_convoy), one order a unit, and
                     * setup refuses a map of more than MAXSEA seas; so an army has at most MAXSEA
                     * convoyers. Asserted where NDEBUG is not set (the sanitizer build:
                     * tests/rules/diplomacy/sanitize.sh); elsewhere a breach sends the document to
                     * the Python engine rather than writing past the array. */
                    assert(n < MAXSEA);
                    if (n >= MAXSEA) {
                        ph->failed = 1;
                        return;
                    }
                    move->convoyers[n++] = ph->present[j];
                    if (c->power == move->power)
                        own = 1;
                }
            }
            if (own)
                move->by_convoy = 1;
            if (move->by_convoy) {
                move->n_convoyers = n;
                for (int j = 0; j < n; j++)
                    ph->e[move->convoyers[j]].has_decision = 1;
            }
        }
    }
    for (int k = 0; k < ph->n_present; k++) {
        Entry *support = &ph->e[ph->present[k]];
        Entry *supported;
        int matches;
        if (support->kind != SUPPORT_HOLD && support->kind != SUPPORT_MOVE)
            continue;
        supported = &ph->e[support->target];
        if (support->kind == SUPPORT_HOLD)
            matches = supported->kind != MOVE;
        else
            matches = supported->kind == MOVE && supported->destination == support->destination
                      && (support->written == support->destination || supported->location == support->written);
        if (matches) {
            if (supported->n_supporters == MAXADJ) {
                ph->failed = 1;
                return;
            }
            support->has_decision = 1;
            supported->supporters[supported->n_supporters++] = ph->present[k];
        }
    }
}
