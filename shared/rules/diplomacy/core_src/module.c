/* The entry point, `movement_document(doc)`: the document's fields checked, the phase settled
 * on one board, the output written, or None for a document the engine must take. */
#include "core.h"

/* --- the entry point --------------------------------------------------------------------- */

static int dict_item(PyObject *doc, PyObject *key, PyObject **value, int *found)
{
    *value = PyDict_GetItemWithError(doc, key);
    if (*value == NULL)
        return PyErr_Occurred() ? -1 : 0;
    (*found)++;
    return 0;
}

static PyObject *none(void)
{
    Py_RETURN_NONE;
}

/* The phase's state: one static board, reused (its fields are set afresh for each document;
 * clearing all of it costs more than the phase). A document met while one is being written
 * (a finaliser run by the collector could do it) gets a board of its own. */
static Phase the_board;
static int board_busy = 0;

static void clear_board(Phase *ph)
{
    ph->n_present = ph->n_deps = ph->n_arrivals = ph->n_given = ph->n_sea_fleets = ph->failed = 0;
    ph->fleet_bits = 0;
    for (int p = 0; p < n_prov; p++) {
        Entry *entry = &ph->e[p];
        entry->power = entry->kind = entry->occupant = -1;
        entry->destination = entry->target = entry->location = entry->arrival = entry->written = -1;
        entry->by_convoy = entry->has_decision = entry->n_supporters = entry->n_convoyers = 0;
        ph->state[p] = UNRESOLVED;
        ph->resolution[p] = 0;
        ph->n_movers[p] = 0;
        ph->opponent[p] = -1;
    }
}

/* The phase after this movement phase, as text ("S1901M" read as season, year). */
static PyObject *next_phase_text(Phase *ph, char season, int year, int any_retreat, int *owner)
{
    if (any_retreat)
        return PyUnicode_FromFormat("%c%dR", (int)season, year);
    if (season == 'S')
        return PyUnicode_FromFormat("F%dM", year);
    if (end_of_year(ph, owner))
        return PyUnicode_FromFormat("W%dA", year);
    return PyUnicode_FromFormat("S%dM", year + 1);
}

/* Sets out[key] to value and lets go of value; -1 on an error (value NULL included). */
static int put(PyObject *out, PyObject *key, PyObject *value)
{
    int failed;
    if (value == NULL)
        return -1;
    failed = PyDict_SetItem(out, key, value) < 0;
    Py_DECREF(value);
    return failed ? -1 : 0;
}

/* The output document of a phase already resolved on `ph`. */
static PyObject *write_outcome(Phase *ph, PyObject *phase_text, char season, int year, int *owner)
{
    int any_retreat = 0;
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    if (PyDict_SetItem(out, s_phase, phase_text) < 0 || put(out, s_orders, orders_written(ph)) < 0
        || put(out, s_units, units_written(ph)) < 0
        || put(out, s_dislodged, dislodged_written(ph, &any_retreat)) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    {
        PyObject *next = next_phase_text(ph, season, year, any_retreat, owner);
        if (next == NULL || put(out, s_centers, centres_written(owner)) < 0 || put(out, s_next_phase, next) < 0) {
            Py_XDECREF(next);
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* The year of a movement phase's name written exactly so ("S1901M", "F1999M"), else -1. */
static int movement_year(PyObject *phase_text)
{
    Py_ssize_t len;
    int year = 0;
    const char *s = ascii_of(phase_text, &len);
    if (s == NULL || len != 6 || (s[0] != 'S' && s[0] != 'F') || s[5] != 'M' || s[1] < '1' || s[1] > '9')
        return -1;
    for (int i = 1; i < 5; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        year = year * 10 + (s[i] - '0');
    }
    return year < 9999 ? year : -1;
}

/* Reads, checks and resolves the document on `ph`: 0, or FALLBACK. */
static int settle(Phase *ph, PyObject *units, PyObject *centres, PyObject *orders, int *owner)
{
    clear_board(ph);
    for (int p = 0; p < n_prov; p++)
        owner[p] = -1;
    if ((units != NULL && read_units(ph, units)) || (centres != NULL && read_centres(owner, centres)))
        return FALLBACK;
    for (int p = 0; p < n_prov; p++) {
        Entry *entry = &ph->e[p];
        if (entry->power < 0)
            continue;
        ph->present[ph->n_present++] = p;
        if (entry->type == FLEET && is_sea[p]) {
            ph->fleet_bits |= (uint64_t)1 << sea_number[p];
            ph->sea_fleets[ph->n_sea_fleets++] = p;
        }
    }
    if (orders != NULL && read_orders(ph, orders))
        return FALLBACK;
    for (int k = 0; k < ph->n_present; k++)
        if (ph->e[ph->present[k]].kind == -1)
            ph->e[ph->present[k]].kind = HOLD; /* no order: it holds */
    match_orders(ph);
    prepare_resolver(ph);
    for (int k = 0; k < ph->n_present && !ph->failed; k++)
        if (ph->e[ph->present[k]].has_decision)
            resolve(ph, ph->present[k]);
    if (ph->failed)
        return FALLBACK;
    board_after(ph);
    return ph->failed ? FALLBACK : 0;
}

static PyObject *movement_document(PyObject *self, PyObject *doc)
{
    PyObject *variant, *phase_text, *units, *centres, *dislodged, *orders, *ignored, *out;
    int found = 0, year, owner[MAXP], settled;
    Phase *ph;
    (void)self;
    if (!map_ready || !PyDict_CheckExact(doc))
        return none();
    if (dict_item(doc, s_variant, &variant, &found) < 0 || dict_item(doc, s_phase, &phase_text, &found) < 0
        || dict_item(doc, s_units, &units, &found) < 0 || dict_item(doc, s_centers, &centres, &found) < 0
        || dict_item(doc, s_dislodged, &dislodged, &found) < 0 || dict_item(doc, s_orders, &orders, &found) < 0
        || dict_item(doc, s_next_phase, &ignored, &found) < 0 || dict_item(doc, s_winners, &ignored, &found) < 0
        || dict_item(doc, s_adjustments, &ignored, &found) < 0)
        return NULL;
    if (found != PyDict_GET_SIZE(doc) || phase_text == NULL)
        return none(); /* a field this core does not take (or a missing phase): the engine's */
    if (variant != NULL && (!PyUnicode_CheckExact(variant) || PyUnicode_Compare(variant, s_standard) != 0))
        return none();
    if (dislodged != NULL && (!PyDict_CheckExact(dislodged) || PyDict_GET_SIZE(dislodged) != 0))
        return none();
    if ((year = movement_year(phase_text)) < 0)
        return none();
    if (board_busy) {
        if ((ph = PyMem_Malloc(sizeof *ph)) == NULL)
            return PyErr_NoMemory();
    } else {
        ph = &the_board;
        board_busy = 1;
    }
    settled = settle(ph, units, centres, orders, owner);
    out = settled == 0 ? write_outcome(ph, phase_text, (char)PyUnicode_READ_CHAR(phase_text, 0), year, owner) : NULL;
    if (out != NULL && ph->failed) { /* a bound met while writing (never on the maps set up so far) */
        Py_CLEAR(out);
        settled = FALLBACK;
    }
    if (ph == &the_board)
        board_busy = 0;
    else
        PyMem_Free(ph);
    if (settled == FALLBACK)
        return none();
    return out;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "Set the map the core adjudicates on (c_core.py builds the tables)."},
    {"movement_document", movement_document, METH_O,
     "The output document of a movement-phase contract document, or None: left to the Python engine."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", NULL, -1, methods, NULL, NULL, NULL, NULL};

static int intern(PyObject **slot, const char *text)
{
    *slot = PyUnicode_InternFromString(text);
    return *slot == NULL ? -1 : 0;
}

PyMODINIT_FUNC PyInit__core(void)
{
    if (intern(&s_variant, "variant") || intern(&s_phase, "phase") || intern(&s_units, "units")
        || intern(&s_centers, "centers") || intern(&s_dislodged, "dislodged") || intern(&s_orders, "orders")
        || intern(&s_next_phase, "next_phase") || intern(&s_winners, "winners")
        || intern(&s_adjustments, "adjustments") || intern(&s_standard, "standard") || intern(&s_order, "order")
        || intern(&s_result, "result") || intern(&s_reason, "reason") || intern(&s_unit, "unit")
        || intern(&s_attacker_from, "attacker_from") || intern(&s_retreats, "retreats")
        || intern(&s_succeeds, "succeeds") || intern(&s_fails, "fails") || intern(&s_held, "held")
        || intern(&s_support_given, "support given") || intern(&s_convoyed, "convoyed")
        || intern(&s_support_cut, "support cut") || intern(&s_no_convoy, "no convoy ordered")
        || intern(&s_disrupted, "convoy disrupted") || intern(&s_paradox, "convoy paradox: the fleet holds"))
        return NULL;
    return PyModule_Create(&module);
}
