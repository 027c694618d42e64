/* The map the core adjudicates on (set once by `setup`, from c_core.py's tables), and reading
 * the names of its provinces, locations, units and powers out of texts. */
#include "core.h"

/* --- the map (set once by `setup`) ------------------------------------------------------- */

int map_ready = 0;
int n_prov, n_loc, n_pow;
int loc_province[MAXL];
int loc_rank[MAXL];                  /* the place of the location's text in sorted order */
int rank_loc[MAXL];                  /* ... and the location in each place */
int army_adj[MAXP][MAXADJ], army_n[MAXP];   /* provinces, in name order */
int fleet_adj[MAXL][MAXADJ], fleet_n[MAXL]; /* locations, in text order */
Bits army_borders[MAXP];             /* the provinces an army here borders */
Bits fleet_reach[MAXL];              /* the provinces a fleet here borders */
unsigned char army_ok[MAXP], fleet_ok[MAXL];
unsigned char is_sea[MAXP], is_coastal[MAXP], is_split[MAXP], is_supply[MAXP];
int sea_number[MAXP];                /* sea province -> its bit, else -1 */
uint64_t sea_links[MAXSEA];          /* sea -> the seas a fleet there borders */
uint64_t seas_beside[MAXP];          /* province -> the seas whose fleets border it */
int homes[MAXPOW][MAXP], homes_n[MAXPOW];
int16_t code_table[26 * 26 * 26];    /* a three-letter code -> province, else -1 */
int coast_location[MAXP][4];         /* NC, SC, EC, WC -> location, else -1 */

PyObject *unit_texts[2][MAXL];       /* "A PAR", "F STP/NC" */
PyObject *province_texts[MAXP], *location_texts[MAXL], *power_texts[MAXPOW];
PyObject *moved_to[MAXP], *bounced_at[MAXP];
PyObject *s_variant, *s_phase, *s_units, *s_centers, *s_dislodged, *s_orders, *s_next_phase,
    *s_winners, *s_adjustments, *s_standard, *s_order, *s_result, *s_reason, *s_unit, *s_attacker_from,
    *s_retreats, *s_succeeds, *s_fails, *s_held, *s_support_given, *s_convoyed, *s_support_cut,
    *s_no_convoy, *s_disrupted, *s_paradox;


/* --- reading texts ----------------------------------------------------------------------- */

int province_code(const char *s)
{
    if (s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' || s[2] < 'A' || s[2] > 'Z')
        return -1;
    return code_table[((s[0] - 'A') * 26 + (s[1] - 'A')) * 26 + (s[2] - 'A')];
}

/* A location written at s: "PAR" (3 characters) or "STP/NC" (6); -1 if it is neither. */
int location_at(const char *s, Py_ssize_t len)
{
    int p;
    if (len != 3 && len != 6)
        return -1;
    p = province_code(s);
    if (p < 0)
        return -1;
    if (len == 3)
        return p;
    if (s[3] != '/' || s[5] != 'C')
        return -1;
    switch (s[4]) {
    case 'N': return coast_location[p][0];
    case 'S': return coast_location[p][1];
    case 'E': return coast_location[p][2];
    case 'W': return coast_location[p][3];
    default: return -1;
    }
}

const char *ascii_of(PyObject *text, Py_ssize_t *len)
{
    if (!PyUnicode_CheckExact(text) || !PyUnicode_IS_ASCII(text))
        return NULL;
    *len = PyUnicode_GET_LENGTH(text);
    return (const char *)PyUnicode_DATA(text);
}

/* A unit's text as the map writes it ("A PAR", "F STP/NC"): its type and location, or -1. */
int unit_at(const char *s, Py_ssize_t len, int *type, int *loc)
{
    if (len < 5 || s[1] != ' ')
        return -1;
    if (s[0] == 'A')
        *type = ARMY;
    else if (s[0] == 'F')
        *type = FLEET;
    else
        return -1;
    *loc = location_at(s + 2, len - 2);
    if (*loc < 0)
        return -1;
    if (*type == ARMY ? (*loc >= n_prov || !army_ok[*loc]) : !fleet_ok[*loc])
        return -1;
    return 0;
}

int power_of(PyObject *key)
{
    Py_ssize_t len, other;
    const char *s = ascii_of(key, &len);
    if (s == NULL)
        return -1;
    for (int i = 0; i < n_pow; i++) {
        const char *name = (const char *)PyUnicode_DATA(power_texts[i]);
        other = PyUnicode_GET_LENGTH(power_texts[i]);
        if (other == len && memcmp(name, s, (size_t)len) == 0)
            return i;
    }
    return -1;
}

/* --- setup ------------------------------------------------------------------------------- */

static int refuse(const char *why)
{
    PyErr_Format(PyExc_ValueError, "the C core cannot take this map: %s", why);
    return -1;
}

/* Numbers from a list of ints, each in [0, bound): how many, or -1 with an exception set. */
static int int_list(PyObject *list, int *into, int most, int bound)
{
    Py_ssize_t n;
    if (!PyList_Check(list) || (n = PyList_GET_SIZE(list)) > most)
        return refuse("a list is not a list, or longer than the core's bound");
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0 || v >= bound)
            return refuse("a number out of range");
        into[i] = (int)v;
    }
    return (int)n;
}

static int flag_list(PyObject *list, unsigned char *into, int count)
{
    int flags[MAXL], n = int_list(list, flags, MAXL, 2);
    if (n < 0)
        return -1;
    if (n != count)
        return refuse("a list of flags of the wrong length");
    for (int i = 0; i < count; i++)
        into[i] = (unsigned char)flags[i];
    return 0;
}

/* Holds `value` in `slot` (a new reference), letting go of what it held; -1 if value is NULL. */
static int hold(PyObject **slot, PyObject *value, int is_new)
{
    if (value == NULL)
        return -1;
    if (!is_new)
        Py_INCREF(value);
    Py_XSETREF(*slot, value);
    return 0;
}

/* The names: provinces (three capitals each) and coasts ("STP/NC"), with their ranks as texts. */
static int read_names(PyObject *locations, PyObject *location_province)
{
    memset(code_table, 0xff, sizeof code_table);
    memset(coast_location, 0xff, sizeof coast_location);
    for (int i = 0; i < n_prov; i++) {
        Py_ssize_t len;
        PyObject *text = PyList_GET_ITEM(locations, i);
        const char *s = ascii_of(text, &len);
        if (s == NULL || len != 3 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' || s[2] < 'A'
            || s[2] > 'Z' || province_code(s) != -1)
            return refuse("a province not named by three capitals, or named twice");
        code_table[((s[0] - 'A') * 26 + (s[1] - 'A')) * 26 + (s[2] - 'A')] = (int16_t)i;
        hold(&province_texts[i], text, 0);
        hold(&location_texts[i], text, 0);
    }
    if (int_list(location_province, loc_province, MAXL, n_prov) != n_loc)
        return PyErr_Occurred() ? -1 : refuse("not one province for each location");
    for (int i = n_prov; i < n_loc; i++) {
        Py_ssize_t len;
        PyObject *text = PyList_GET_ITEM(locations, i);
        const char *s = ascii_of(text, &len), *coasts = "NSEW", *c;
        if (s == NULL || len != 6 || s[3] != '/' || s[5] != 'C' || s[4] == '\0' || (c = strchr(coasts, s[4])) == NULL
            || province_code(s) != loc_province[i])
            return refuse("a coast not written as XXX/NC, /SC, /EC or /WC");
        coast_location[loc_province[i]][c - coasts] = i;
        hold(&location_texts[i], text, 0);
    }
    for (int i = 0; i < n_loc; i++) {
        int rank = 0;
        for (int j = 0; j < n_loc; j++)
            if (PyUnicode_Compare(location_texts[j], location_texts[i]) < 0)
                rank++;
        loc_rank[i] = rank;
        rank_loc[rank] = i;
    }
    return 0;
}

static int read_adjacency(PyObject *army_adjacent, PyObject *fleet_adjacent)
{
    for (int p = 0; p < n_prov; p++) {
        if ((army_n[p] = int_list(PyList_GET_ITEM(army_adjacent, p), army_adj[p], MAXADJ, n_prov)) < 0)
            return -1;
        memset(&army_borders[p], 0, sizeof(Bits));
        for (int i = 0; i < army_n[p]; i++)
            bits_add(&army_borders[p], army_adj[p][i]);
    }
    for (int l = 0; l < n_loc; l++) {
        if ((fleet_n[l] = int_list(PyList_GET_ITEM(fleet_adjacent, l), fleet_adj[l], MAXADJ, n_loc)) < 0)
            return -1;
        memset(&fleet_reach[l], 0, sizeof(Bits));
        for (int i = 0; i < fleet_n[l]; i++)
            bits_add(&fleet_reach[l], loc_province[fleet_adj[l][i]]);
    }
    return 0;
}

/* The seas as bits (movement_tables.py: sea_bits, sea_links, seas_beside). */
static int number_seas(void)
{
    int seas = 0;
    for (int p = 0; p < n_prov; p++) {
        sea_number[p] = is_sea[p] ? seas++ : -1;
        seas_beside[p] = 0;
    }
    if (seas > MAXSEA)
        return refuse("more seas than the core's bound");
    for (int p = 0; p < n_prov; p++) {
        if (!is_sea[p])
            continue;
        sea_links[sea_number[p]] = 0;
        for (int i = 0; i < fleet_n[p]; i++) {
            int q = loc_province[fleet_adj[p][i]];
            seas_beside[q] |= (uint64_t)1 << sea_number[p];
            if (is_sea[q])
                sea_links[sea_number[p]] |= (uint64_t)1 << sea_number[q];
        }
    }
    return 0;
}

static int read_powers(PyObject *powers, PyObject *home_lists)
{
    for (int i = 0; i < n_pow; i++) {
        PyObject *power = PyList_GET_ITEM(powers, i);
        if (!PyUnicode_CheckExact(power) || !PyUnicode_IS_ASCII(power))
            return refuse("a power not named in ASCII text");
        hold(&power_texts[i], power, 0);
        if ((homes_n[i] = int_list(PyList_GET_ITEM(home_lists, i), homes[i], MAXP, n_prov)) < 0)
            return -1;
    }
    return 0;
}

/* The texts the outputs repeat, made once: units, "moved to X", "bounced at X". */
static int make_texts(void)
{
    for (int l = 0; l < n_loc; l++)
        if (hold(&unit_texts[ARMY][l], PyUnicode_FromFormat("A %U", location_texts[l]), 1) < 0
            || hold(&unit_texts[FLEET][l], PyUnicode_FromFormat("F %U", location_texts[l]), 1) < 0)
            return -1;
    for (int p = 0; p < n_prov; p++)
        if (hold(&moved_to[p], PyUnicode_FromFormat("moved to %U", province_texts[p]), 1) < 0
            || hold(&bounced_at[p], PyUnicode_FromFormat("bounced at %U", province_texts[p]), 1) < 0)
            return -1;
    return 0;
}

/* setup(provinces, locations, location_province, army_adjacent, fleet_adjacent, army_ok,
 *       fleet_ok, sea, coastal, split, supply, powers, homes): the map, as c_core.py builds it.
 * A map past the core's bounds is a ValueError, and the core then takes no document. */
PyObject *setup(PyObject *self, PyObject *args)
{
    PyObject *provinces, *locations, *location_province, *army_adjacent, *fleet_adjacent, *army_ok_list,
        *fleet_ok_list, *sea, *coastal, *split, *supply, *powers, *home_lists;
    (void)self;
    map_ready = 0;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!O!O!O!O!O!", &PyList_Type, &provinces, &PyList_Type, &locations,
                          &PyList_Type, &location_province, &PyList_Type, &army_adjacent, &PyList_Type,
                          &fleet_adjacent, &PyList_Type, &army_ok_list, &PyList_Type, &fleet_ok_list, &PyList_Type,
                          &sea, &PyList_Type, &coastal, &PyList_Type, &split, &PyList_Type, &supply, &PyList_Type,
                          &powers, &PyList_Type, &home_lists))
        return NULL;
    n_prov = (int)PyList_GET_SIZE(provinces);
    n_loc = (int)PyList_GET_SIZE(locations);
    n_pow = (int)PyList_GET_SIZE(powers);
    if (n_prov > MAXP || n_loc > MAXL || n_loc < n_prov || n_pow > MAXPOW || n_pow == 0
        || PyList_GET_SIZE(army_adjacent) != n_prov || PyList_GET_SIZE(fleet_adjacent) != n_loc
        || PyList_GET_SIZE(home_lists) != n_pow) {
        refuse("more provinces, locations or powers than the core's bounds, or lists that disagree");
        return NULL;
    }
    if (read_names(locations, location_province) < 0 || read_adjacency(army_adjacent, fleet_adjacent) < 0
        || flag_list(army_ok_list, army_ok, n_prov) < 0 || flag_list(fleet_ok_list, fleet_ok, n_loc) < 0
        || flag_list(sea, is_sea, n_prov) < 0 || flag_list(coastal, is_coastal, n_prov) < 0
        || flag_list(split, is_split, n_prov) < 0 || flag_list(supply, is_supply, n_prov) < 0
        || number_seas() < 0 || read_powers(powers, home_lists) < 0 || make_texts() < 0)
        return NULL;
    map_ready = 1;
    Py_RETURN_NONE;
}
