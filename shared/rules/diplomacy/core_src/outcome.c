/* The end of a movement phase, as movement_outcome.py reads it off the resolver: the board
 * after the moves, standoffs, dislodged units and their retreats, every order's result and
 * reason; and the output document's parts, sorted as document_fields.py sorts them. */
#include "core.h"

/* --- the outcome (movement_outcome.py) --------------------------------------------------- */

int moved(Phase *ph, int index)
{
    return ph->e[index].kind == MOVE && ph->resolution[index];
}

/* The board after the moves (after_*: who stands where; dislodged_by: the move that dislodged
 * a unit) and the standoffs: empty provinces a move with some prevent strength tried to enter
 * (DATC 6.H.6, 6.H.9). */
void board_after(Phase *ph)
{
    for (int p = 0; p < n_prov; p++) {
        ph->after_power[p] = -1;
        ph->dislodged_by[p] = -1;
    }
    for (int k = 0; k < ph->n_present; k++) {
        int index = ph->present[k];
        Entry *entry = &ph->e[index];
        if (moved(ph, index) && entry->occupant >= 0 && !moved(ph, entry->occupant))
            ph->dislodged_by[entry->occupant] = index;
    }
    for (int k = 0; k < ph->n_present; k++) {
        int index = ph->present[k];
        if (!moved(ph, index) && ph->dislodged_by[index] < 0) {
            ph->after_power[index] = ph->e[index].power;
            ph->after_type[index] = ph->e[index].type;
            ph->after_loc[index] = ph->e[index].loc;
        }
    }
    for (int k = 0; k < ph->n_present; k++) {
        int index = ph->present[k];
        Entry *entry = &ph->e[index];
        if (moved(ph, index)) {
            ph->after_power[entry->destination] = entry->power;
            ph->after_type[entry->destination] = entry->type;
            ph->after_loc[entry->destination] = entry->location;
        }
    }
    memset(&ph->standoffs, 0, sizeof ph->standoffs);
    for (int a = 0; a < ph->n_arrivals; a++) {
        int province = ph->arrivals[a];
        if (ph->after_power[province] >= 0)
            continue;
        for (int i = 0; i < ph->n_movers[province]; i++)
            if (prevent_strength(ph, ph->movers[province][i]) > 0) {
                bits_add(&ph->standoffs, province);
                break;
            }
    }
}

/* The retreats of the unit dislodged from `victim` (DATC 4.A.5: the attacker's province is
 * closed only when it came over land), sorted as texts (the map's lists are: c_core.py). */
static int retreats_of(Phase *ph, int victim, int *options)
{
    Entry *here = &ph->e[victim], *attacker = &ph->e[ph->dislodged_by[victim]];
    int came_from = attacker->by_convoy ? -1 : loc_province[attacker->loc], n = 0;
    if (here->type == ARMY) {
        for (int i = 0; i < army_n[victim]; i++) {
            int p = army_adj[victim][i];
            if (ph->after_power[p] < 0 && !bits_has(&ph->standoffs, p) && p != came_from)
                options[n++] = p;
        }
    } else {
        for (int i = 0; i < fleet_n[here->loc]; i++) {
            int loc = fleet_adj[here->loc][i], p = loc_province[loc];
            if (ph->after_power[p] < 0 && !bits_has(&ph->standoffs, p) && p != came_from)
                options[n++] = loc;
        }
    }
    return n;
}

/* --- writing ----------------------------------------------------------------------------- */

static PyObject *answer(PyObject *text, PyObject *result, PyObject *reason)
{
    PyObject *item = PyDict_New();
    if (item == NULL)
        return NULL;
    if (PyDict_SetItem(item, s_order, text) < 0 || PyDict_SetItem(item, s_result, result) < 0
        || PyDict_SetItem(item, s_reason, reason) < 0) {
        Py_DECREF(item);
        return NULL;
    }
    return item;
}

/* An answer whose reason is made here (a new reference handed over). */
static PyObject *answer_made(PyObject *text, PyObject *result, PyObject *reason)
{
    PyObject *item;
    if (reason == NULL)
        return NULL;
    item = answer(text, result, reason);
    Py_DECREF(reason);
    return item;
}

static PyObject *unit_text_of(Phase *ph, int index)
{
    return unit_texts[ph->e[index].type][ph->e[index].loc];
}

static PyObject *dislodged_reason(Phase *ph, int index)
{
    return PyUnicode_FromFormat("dislodged by %U", unit_text_of(ph, ph->dislodged_by[index]));
}

/* Whether a chain of the `n` kept fleets runs from `start` (a province the chain's first fleet
 * borders) to `fleet`. */
static int chain_reaches(Phase *ph, const int *kept, int n, int start, int fleet)
{
    unsigned char found[MAXSEA] = {0};
    int stack[MAXSEA], top = 0;
    for (int i = 0; i < n; i++)
        if (bits_has(&fleet_reach[ph->e[kept[i]].loc], start)) {
            found[i] = 1;
            stack[top++] = i;
        }
    while (top > 0) {
        int current = kept[stack[--top]];
        for (int i = 0; i < n; i++)
            if (!found[i] && bits_has(&fleet_reach[ph->e[current].loc], kept[i])) {
                found[i] = 1;
                stack[top++] = i;
            }
    }
    for (int i = 0; i < n; i++)
        if (kept[i] == fleet)
            return found[i];
    return 0;
}

/* Whether kept convoys join the army's coast to this fleet and this fleet to the destination. */
static int on_carrying_route(Phase *ph, Entry *army, int fleet)
{
    int kept[MAXSEA], n = 0;
    for (int i = 0; i < army->n_convoyers; i++)
        if (resolve(ph, army->convoyers[i]))
            kept[n++] = army->convoyers[i];
    return chain_reaches(ph, kept, n, loc_province[army->loc], fleet)
           && chain_reaches(ph, kept, n, army->destination, fleet);
}

static PyObject *move_answer(Phase *ph, PyObject *text, int index)
{
    Entry *entry = &ph->e[index];
    PyObject *reason;
    int occupant = entry->occupant;
    if (ph->resolution[index])
        return answer(text, s_succeeds, moved_to[entry->arrival]);
    if (entry->by_convoy && !path(ph, index))
        reason = Py_NewRef(entry->n_convoyers ? s_disrupted : s_no_convoy);
    else if (occupant >= 0 && ph->e[occupant].power == entry->power && !moved(ph, occupant))
        reason = PyUnicode_FromFormat("cannot dislodge own unit at %U", province_texts[entry->destination]);
    else
        reason = Py_NewRef(bounced_at[entry->arrival]);
    if (reason != NULL && ph->dislodged_by[index] >= 0)
        Py_SETREF(reason, PyUnicode_FromFormat("%U; dislodged by %U", reason,
                                               unit_text_of(ph, ph->dislodged_by[index])));
    return answer_made(text, s_fails, reason);
}

static PyObject *support_answer(Phase *ph, PyObject *text, int index)
{
    Entry *entry = &ph->e[index];
    if (!entry->has_decision) {
        if (entry->kind == SUPPORT_MOVE)
            return answer_made(text, s_fails, PyUnicode_FromFormat("%U did not move to %U",
                unit_text_of(ph, entry->target), location_texts[entry->written]));
        return answer_made(text, s_fails, PyUnicode_FromFormat("%U did not hold", unit_text_of(ph, entry->target)));
    }
    if (resolve(ph, index))
        return answer(text, s_succeeds, s_support_given);
    if (ph->dislodged_by[index] >= 0)
        return answer_made(text, s_fails, dislodged_reason(ph, index));
    for (int i = 0; i < ph->n_movers[index]; i++) {
        int attacker = ph->movers[index][i];
        Entry *other = &ph->e[attacker];
        if (other->power != entry->power && loc_province[other->loc] != entry->destination && path(ph, attacker))
            return answer_made(text, s_fails, PyUnicode_FromFormat("support cut by %U", unit_text_of(ph, attacker)));
    }
    return answer(text, s_fails, s_support_cut);
}

static PyObject *convoy_answer(Phase *ph, PyObject *text, int index)
{
    Entry *entry = &ph->e[index], *army = &ph->e[entry->target];
    if (!entry->has_decision) {
        if (army->kind == MOVE && army->destination == entry->destination)
            return answer_made(text, s_fails, PyUnicode_FromFormat("%U took the land route",
                                                                   unit_text_of(ph, entry->target)));
        return answer_made(text, s_fails, PyUnicode_FromFormat("%U did not move to %U",
            unit_text_of(ph, entry->target), province_texts[entry->destination]));
    }
    if (ph->dislodged_by[index] >= 0)
        return answer_made(text, s_fails, dislodged_reason(ph, index));
    if (!resolve(ph, index))
        return answer(text, s_fails, s_paradox);
    if (!on_carrying_route(ph, army, index))
        return answer(text, s_fails, s_disrupted);
    return answer(text, s_succeeds, s_convoyed);
}

static PyObject *order_answer(Phase *ph, int given)
{
    int index = ph->given_slot[given];
    PyObject *text = ph->given_text[given];
    switch (ph->e[index].kind) {
    case MOVE:
        return move_answer(ph, text, index);
    case HOLD:
        if (ph->dislodged_by[index] >= 0)
            return answer_made(text, s_fails, dislodged_reason(ph, index));
        return answer(text, s_succeeds, s_held);
    case CONVOY:
        return convoy_answer(ph, text, index);
    default:
        if (ph->e[index].has_decision && ph->resolution[index])
            return answer(text, s_succeeds, s_support_given);
        return support_answer(ph, text, index);
    }
}

/* Appends item to the list under key (made when missing); steals item. */
static int append_to(PyObject *dict, PyObject *key, PyObject *item)
{
    PyObject *list;
    if (item == NULL)
        return -1;
    list = PyDict_GetItemWithError(dict, key);
    if (list == NULL) {
        if (PyErr_Occurred() || (list = PyList_New(0)) == NULL) {
            Py_DECREF(item);
            return -1;
        }
        if (PyDict_SetItem(dict, key, list) < 0) {
            Py_DECREF(list);
            Py_DECREF(item);
            return -1;
        }
        Py_DECREF(list);
    }
    if (PyList_Append(list, item) < 0) {
        Py_DECREF(item);
        return -1;
    }
    Py_DECREF(item);
    return 0;
}

PyObject *orders_written(Phase *ph)
{
    PyObject *written = PyDict_New();
    if (written == NULL)
        return NULL;
    for (int i = 0; i < ph->n_given; i++)
        if (append_to(written, power_texts[ph->given_power[i]], order_answer(ph, i)) < 0) {
            Py_DECREF(written);
            return NULL;
        }
    return written;
}

static int compare_ints(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The units after the moves by power: powers in order, each power's texts sorted. */
PyObject *units_written(Phase *ph)
{
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (int power = 0; power < n_pow; power++) {
        int keys[MAXP], n = 0;
        PyObject *list;
        for (int p = 0; p < n_prov; p++)
            if (ph->after_power[p] == power)
                keys[n++] = ph->after_type[p] * MAXL + loc_rank[ph->after_loc[p]];
        if (n == 0)
            continue;
        qsort(keys, (size_t)n, sizeof keys[0], compare_ints);
        if ((list = PyList_New(n)) == NULL)
            goto error;
        for (int i = 0; i < n; i++) {
            int type = keys[i] / MAXL, loc = rank_loc[keys[i] % MAXL];
            Py_INCREF(unit_texts[type][loc]);
            PyList_SET_ITEM(list, i, unit_texts[type][loc]);
        }
        if (PyDict_SetItem(out, power_texts[power], list) < 0) {
            Py_DECREF(list);
            goto error;
        }
        Py_DECREF(list);
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

PyObject *centres_written(const int *owner)
{
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (int power = 0; power < n_pow; power++) {
        PyObject *list = NULL;
        for (int p = 0; p < n_prov; p++) {
            if (owner[p] != power)
                continue;
            if (list == NULL && (list = PyList_New(0)) == NULL)
                goto error;
            if (PyList_Append(list, province_texts[p]) < 0) {
                Py_DECREF(list);
                goto error;
            }
        }
        if (list != NULL) {
            int failed = PyDict_SetItem(out, power_texts[power], list) < 0;
            Py_DECREF(list);
            if (failed)
                goto error;
        }
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

static PyObject *text_list(const int *items, int n, PyObject **texts)
{
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        Py_INCREF(texts[items[i]]);
        PyList_SET_ITEM(list, i, texts[items[i]]);
    }
    return list;
}

static int compare_by_rank(const void *a, const void *b)
{
    return loc_rank[*(const int *)a] - loc_rank[*(const int *)b];
}

/* The dislodged units by power (powers in order, units by location), and whether any can retreat. */
PyObject *dislodged_written(Phase *ph, int *any_retreat)
{
    PyObject *out = PyDict_New();
    *any_retreat = 0;
    if (out == NULL)
        return NULL;
    for (int power = 0; power < n_pow; power++) {
        int victims[MAXP], n = 0;
        for (int p = 0; p < n_prov; p++)
            if (ph->dislodged_by[p] >= 0 && ph->e[p].power == power)
                victims[n++] = ph->e[p].loc;
        qsort(victims, (size_t)n, sizeof victims[0], compare_by_rank);
        for (int i = 0; i < n; i++) {
            int victim = loc_province[victims[i]], options[MAXADJ], count, type = ph->e[victim].type;
            PyObject *item, *retreats;
            count = retreats_of(ph, victim, options);
            if (count)
                *any_retreat = 1;
            retreats = text_list(options, count, type == FLEET ? location_texts : province_texts);
            if (retreats == NULL || (item = PyDict_New()) == NULL) {
                Py_XDECREF(retreats);
                goto error;
            }
            if (PyDict_SetItem(item, s_unit, unit_text_of(ph, victim)) < 0
                || PyDict_SetItem(item, s_attacker_from,
                                  province_texts[loc_province[ph->e[ph->dislodged_by[victim]].loc]]) < 0
                || PyDict_SetItem(item, s_retreats, retreats) < 0) {
                Py_DECREF(retreats);
                Py_DECREF(item);
                goto error;
            }
            Py_DECREF(retreats);
            if (append_to(out, power_texts[power], item) < 0)
                goto error;
        }
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

/* adjudicate.py, end_of_year: the centres as the units now stand; whether anyone adjusts. */
int end_of_year(Phase *ph, int *owner)
{
    int centres[MAXPOW] = {0}, units[MAXPOW] = {0};
    for (int p = 0; p < n_prov; p++)
        if (ph->after_power[p] >= 0 && is_supply[p])
            owner[p] = ph->after_power[p];
    for (int p = 0; p < n_prov; p++) {
        if (owner[p] >= 0)
            centres[owner[p]]++;
        if (ph->after_power[p] >= 0)
            units[ph->after_power[p]]++;
    }
    for (int power = 0; power < n_pow; power++) {
        int diff = centres[power] - units[power];
        if (diff < 0)
            return 1;
        if (diff > 0)
            for (int i = 0; i < homes_n[power]; i++) {
                int h = homes[power][i];
                if (owner[h] == power && ph->after_power[h] < 0)
                    return 1;
            }
    }
    return 0;
}
