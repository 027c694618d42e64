/* Kruijswijk's guess-and-check resolver, as resolver.py has it (DATC 3.0, section 5), with the
 * convoy route search of convoys.py: the same decisions asked in the same order, so that a
 * cycle is met, guessed and settled as the engine settles it. */
#include "core.h"

/* --- the resolver (resolver.py) ---------------------------------------------------------- */

void prepare_resolver(Phase *ph)
{
    for (int k = 0; k < ph->n_present; k++) {
        int index = ph->present[k], arrival, other;
        Entry *entry = &ph->e[index];
        if (entry->kind != MOVE)
            continue;
        arrival = entry->arrival = entry->destination;
        if (ph->n_movers[arrival] == 0)
            ph->arrivals[ph->n_arrivals++] = arrival;
        ph->movers[arrival][ph->n_movers[arrival]++] = index;
        other = entry->occupant = ph->e[arrival].power >= 0 ? arrival : -1;
        if (other >= 0 && !entry->by_convoy) {
            Entry *opposite = &ph->e[other];
            if (opposite->kind == MOVE && opposite->destination == index && !opposite->by_convoy)
                ph->opponent[index] = other;
        }
    }
}

/* convoys.py, route_exists, asking `resolve` of each fleet the search reaches, in its order. */
static int route_exists(Phase *ph, int origin, int destination, const int *fleets, int n)
{
    /* A fleet is queued once: Python's search may queue it twice and skips the second as seen,
     * so the order in which fleets are asked is the same. */
    int frontier[MAXSEA], head = 0, tail = 0;
    unsigned char queued[MAXSEA] = {0};
    for (int i = 0; i < n; i++)
        if (bits_has(&fleet_reach[ph->e[fleets[i]].loc], origin)) {
            frontier[tail++] = i;
            queued[i] = 1;
        }
    while (head < tail) {
        int fleet = fleets[frontier[head++]];
        if (!resolve(ph, fleet))
            continue;
        if (bits_has(&fleet_reach[ph->e[fleet].loc], destination))
            return 1;
        for (int j = 0; j < n; j++)
            if (!queued[j] && bits_has(&fleet_reach[ph->e[fleet].loc], fleets[j])) {
                frontier[tail++] = j;
                queued[j] = 1;
            }
    }
    return 0;
}

static int convoy_path(Phase *ph, Entry *entry)
{
    if (entry->n_convoyers == 0)
        return 0;
    return route_exists(ph, loc_province[entry->loc], entry->destination, entry->convoyers, entry->n_convoyers);
}

int path(Phase *ph, int index)
{
    return !ph->e[index].by_convoy || convoy_path(ph, &ph->e[index]);
}

static int support_count(Phase *ph, Entry *entry, int excluded_power)
{
    int count = 0;
    for (int i = 0; i < entry->n_supporters; i++) {
        int supporter = entry->supporters[i];
        if (excluded_power >= 0 && ph->e[supporter].power == excluded_power)
            continue;
        if (ph->state[supporter] == RESOLVED ? ph->resolution[supporter] : resolve(ph, supporter))
            count++;
    }
    return count;
}

static int attack_strength(Phase *ph, int index)
{
    Entry *entry = &ph->e[index], *resident;
    if (entry->by_convoy && !convoy_path(ph, entry))
        return 0;
    if (entry->occupant < 0)
        return 1 + support_count(ph, entry, -1);
    resident = &ph->e[entry->occupant];
    if (resident->kind == MOVE && ph->opponent[index] < 0 && resolve(ph, entry->occupant))
        return 1 + support_count(ph, entry, -1);
    if (resident->power == entry->power)
        return 0;
    return 1 + support_count(ph, entry, resident->power);
}

static int hold_strength(Phase *ph, int occupant)
{
    if (occupant < 0)
        return 0;
    if (ph->e[occupant].kind == MOVE)
        return resolve(ph, occupant) ? 0 : 1;
    return 1 + support_count(ph, &ph->e[occupant], -1);
}

int prevent_strength(Phase *ph, int index)
{
    Entry *entry = &ph->e[index];
    if (entry->by_convoy && !convoy_path(ph, entry))
        return 0;
    if (ph->opponent[index] >= 0 && resolve(ph, ph->opponent[index]))
        return 0;
    return 1 + support_count(ph, entry, -1);
}

static int adjudicate_move(Phase *ph, int index)
{
    Entry *entry = &ph->e[index];
    int attack = attack_strength(ph, index), opponent = ph->opponent[index], arrival = entry->arrival;
    if (attack == 0)
        return 0;
    if (opponent >= 0) {
        if (attack <= 1 + support_count(ph, &ph->e[opponent], -1))
            return 0;
    } else if (attack <= hold_strength(ph, entry->occupant)) {
        return 0;
    }
    if (ph->n_movers[arrival] > 1)
        for (int i = 0; i < ph->n_movers[arrival]; i++) {
            int rival = ph->movers[arrival][i];
            if (rival != index && attack <= prevent_strength(ph, rival))
                return 0;
        }
    return 1;
}

static int adjudicate_support(Phase *ph, int index)
{
    Entry *entry = &ph->e[index];
    int n = ph->n_movers[index];
    if (n == 0)
        return 1;
    for (int i = 0; i < n; i++) {
        Entry *other = &ph->e[ph->movers[index][i]];
        if (other->power != entry->power && loc_province[other->loc] != entry->destination)
            if (!other->by_convoy || convoy_path(ph, other))
                return 0; /* cut */
    }
    for (int i = 0; i < n; i++)
        if (resolve(ph, ph->movers[index][i]))
            return 0; /* dislodged */
    return 1;
}

static int adjudicate_convoy(Phase *ph, int index)
{
    for (int i = 0; i < ph->n_movers[index]; i++)
        if (adjudicate_move(ph, ph->movers[index][i]))
            return 0;
    return 1;
}

static int adjudicate(Phase *ph, int index)
{
    int kind = ph->e[index].kind;
    if (kind == MOVE)
        return adjudicate_move(ph, index);
    if (kind == CONVOY)
        return adjudicate_convoy(ph, index);
    return adjudicate_support(ph, index);
}

static int deps_contain(Phase *ph, int index)
{
    for (int i = 0; i < ph->n_deps; i++)
        if (ph->deps[i] == index)
            return 1;
    return 0;
}

static void push_dep(Phase *ph, int index)
{
    if (ph->n_deps == MAXDEPS) {
        ph->failed = 1;
        return;
    }
    ph->deps[ph->n_deps++] = index;
}

static void forget(Phase *ph, int old_count)
{
    for (int i = old_count; i < ph->n_deps; i++)
        ph->state[ph->deps[i]] = UNRESOLVED;
    ph->n_deps = old_count;
}

static void backup_rule(Phase *ph, int old_count)
{
    int convoys = 0;
    for (int i = old_count; i < ph->n_deps; i++)
        if (ph->e[ph->deps[i]].kind == CONVOY)
            convoys = 1;
    for (int i = old_count; i < ph->n_deps; i++) {
        int index = ph->deps[i], kind = ph->e[index].kind;
        if (convoys && kind == CONVOY) {
            ph->resolution[index] = 0; /* Szykman */
            ph->state[index] = RESOLVED;
        } else if (!convoys && kind == MOVE) {
            ph->resolution[index] = 1; /* circular movement */
            ph->state[index] = RESOLVED;
        } else {
            ph->state[index] = UNRESOLVED;
        }
    }
    ph->n_deps = old_count;
}

int resolve(Phase *ph, int index)
{
    int state = ph->state[index], old_count, first, second;
    if (ph->failed)
        return 0;
    if (state == RESOLVED)
        return ph->resolution[index];
    if (state == GUESSING) {
        if (!deps_contain(ph, index))
            push_dep(ph, index);
        return ph->resolution[index];
    }
    old_count = ph->n_deps;
    ph->resolution[index] = 0;
    ph->state[index] = GUESSING;
    first = adjudicate(ph, index);
    if (ph->n_deps == old_count) {
        if (ph->state[index] != RESOLVED) {
            ph->resolution[index] = (unsigned char)first;
            ph->state[index] = RESOLVED;
        }
        return first;
    }
    if (ph->deps[old_count] != index) {
        push_dep(ph, index);
        ph->resolution[index] = (unsigned char)first;
        return first;
    }
    forget(ph, old_count);
    ph->resolution[index] = 1;
    ph->state[index] = GUESSING;
    second = adjudicate(ph, index);
    if (first == second) {
        forget(ph, old_count);
        ph->resolution[index] = (unsigned char)first;
        ph->state[index] = RESOLVED;
        return first;
    }
    backup_rule(ph, old_count);
    return resolve(ph, index);
}
