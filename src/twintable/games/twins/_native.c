/* Twins rules in C, for the environment (games/twins/env.py, ``twins_v0``): the same
 * deals, buys, picks, reveals and payments as rules.py, step for step, with the
 * environment's observation and action mask written straight into numpy buffers.
 *
 * rules.py stays the reference (tables, views, bots and the environment's
 * ``native=False`` use it); this module exists because issue 41 asks the environment for
 * half of ``timo_v0``'s steps per second, which the interpreter cannot give
 * (bench/envs_all.py). tests/games/twins/test_native.py plays both side by side.
 *
 * Chance is drawn exactly as core/rng.py draws it: each use seeds a fresh Mersenne
 * Twister from (seed << 32) ^ counter, the way CPython's random.Random(int) does, and
 * shuffles and draws below n the way random.py does (core/native/mt19937.h, shared with
 * Timo's engine).
 *
 * Actions are the environment's indices: 1-3 buy 0, 1 or 2 cards, 4 + the rank of the
 * pair (a, b), a < b, in itertools.combinations(range(60), 2) order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_SEATS 6
#define DECK 60
#define ROUNDS 4
#define CATEGORIES 4
#define BUY_BASE 1
#define PICK_BASE 4
#define N_ACTIONS (PICK_BASE + DECK * (DECK - 1) / 2)
#define MAX_PLAYED (ROUNDS * MAX_SEATS)
#define PHASE_BUY 0
#define PHASE_PICK 1
#define PHASE_OVER 2
#define NO_PICK 255

/* The observation's layout (env.py's OBSERVATION, checked there at import). */
#define O_HAND 0
#define O_MY_PICK (O_HAND + DECK)
#define O_REVEALED (O_MY_PICK + DECK)
#define O_CHIPS (O_REVEALED + MAX_SEATS * DECK)
#define O_BANK (O_CHIPS + MAX_SEATS)
#define O_PRESENT (O_BANK + 1)
#define O_OUT (O_PRESENT + MAX_SEATS)
#define O_SITTING (O_OUT + MAX_SEATS)
#define O_COMMITTED (O_SITTING + MAX_SEATS)
#define O_BOUGHT (O_COMMITTED + MAX_SEATS)
#define O_SIZES (O_BOUGHT + MAX_SEATS)
#define O_DEALER (O_SIZES + MAX_SEATS)
#define O_BUYER (O_DEALER + MAX_SEATS)
#define O_PHASE (O_BUYER + MAX_SEATS)
#define O_ROUND (O_PHASE + 3)
#define O_PLAYERS (O_ROUND + 5)
#define O_HAND_NO (O_PLAYERS + 4)
#define O_LAST_HAND (O_HAND_NO + 1)
#define O_SIZE (O_LAST_HAND + 1)
#define HAND_SCALE 20

static const int BUY_COST[3] = {0, 1, 3};

/* CPython's Mersenne Twister, seeded and used as random.Random(int) is (core/rng.py). */
#include "mt19937.h"
#include "env_glue.h"

/* ---- the game ----------------------------------------------------------------------- */
typedef struct {
    /* options and tables, fixed for the engine's life */
    int players, starting_chips, deal, max_hands; /* max_hands 0: no limit */
    int lowest_r1, pay_r1, top_r2, gain, lowest_r3, pay_r3;
    int16_t rank[DECK][DECK]; /* SET_RANK: category * 100 + value */
    /* the state */
    uint64_t seed, counter, version;
    int chips[MAX_SEATS], bank, out[MAX_SEATS], sitting[MAX_SEATS], bought[MAX_SEATS];
    uint64_t hands[MAX_SEATS]; /* card bit sets */
    uint8_t draw[DECK];
    int draw_size;
    uint8_t played[MAX_PLAYED][4], last_played[MAX_PLAYED][4]; /* round, seat, a, b */
    int n_played, n_last_played;
    uint8_t picks[MAX_SEATS][2]; /* NO_PICK when none */
    int dealer, buyer, hand_no, round_no, phase, ending;
    /* rules.py's ledger: chips moved by round (1-4), paid/received, set category, and
     * whether the key was ever written (a zero payment still writes it) */
    long ledger[ROUNDS][2][CATEGORIES];
    uint8_t ledger_set[ROUNDS][2][CATEGORIES];
} Twins;

static int pair_index[DECK][DECK];
static uint8_t pair_of[N_ACTIONS][2];

static void make_pair_index(void) {
    int index = PICK_BASE;
    for (int a = 0; a < DECK; a++)
        for (int b = a + 1; b < DECK; b++) {
            pair_of[index][0] = (uint8_t)a;
            pair_of[index][1] = (uint8_t)b;
            pair_index[a][b] = pair_index[b][a] = index++;
        }
}

static void new_stream(Twins *g, Twister *t) {
    g->counter++;
    twister_seed(t, g->seed, g->counter);
}

static int next_active(const Twins *g, int seat) {
    for (int step = 1; step <= g->players; step++) {
        int candidate = (seat + step) % g->players;
        if (!g->out[candidate]) return candidate;
    }
    return seat;
}

static inline int plays(const Twins *g, int seat) {
    return !g->out[seat] && !g->sitting[seat];
}

static int waiting_count(const Twins *g) {
    int count = 0;
    for (int seat = 0; seat < g->players; seat++)
        if (plays(g, seat) && g->picks[seat][0] == NO_PICK) count++;
    return count;
}

static int any_participant(const Twins *g) {
    for (int seat = 0; seat < g->players; seat++)
        if (plays(g, seat)) return 1;
    return 0;
}

static void start_hand(Twins *g) {
    Twister t;
    uint8_t cards[DECK];
    g->hand_no++;
    for (int i = 0; i < DECK; i++) cards[i] = (uint8_t)i;
    new_stream(g, &t);
    twister_shuffle(&t, cards, DECK);
    int size = DECK;
    for (int seat = 0; seat < g->players; seat++) {
        g->hands[seat] = 0;
        if (g->out[seat]) continue;
        for (int k = size - g->deal; k < size; k++) g->hands[seat] |= 1ULL << cards[k];
        size -= g->deal;
    }
    memcpy(g->draw, cards, (size_t)size);
    g->draw_size = size;
    memcpy(g->last_played, g->played, sizeof g->played);
    g->n_last_played = g->n_played;
    g->n_played = 0;
    for (int seat = 0; seat < g->players; seat++) {
        g->picks[seat][0] = g->picks[seat][1] = NO_PICK;
        g->bought[seat] = 0;
        g->sitting[seat] = 0;
    }
    g->round_no = 0;
    g->phase = PHASE_BUY;
    g->buyer = next_active(g, g->dealer);
}

static void new_game(Twins *g, uint64_t seed) {
    g->seed = seed;
    g->counter = 0;
    g->version = 0;
    g->bank = 0;
    for (int seat = 0; seat < MAX_SEATS; seat++) {
        g->chips[seat] = seat < g->players ? g->starting_chips : 0;
        g->out[seat] = g->sitting[seat] = g->bought[seat] = 0;
        g->hands[seat] = 0;
        g->picks[seat][0] = g->picks[seat][1] = NO_PICK;
    }
    g->n_played = g->n_last_played = 0;
    g->hand_no = g->round_no = 0;
    g->ending = 0;
    g->buyer = -1;
    memset(g->ledger, 0, sizeof g->ledger);
    memset(g->ledger_set, 0, sizeof g->ledger_set);
    Twister t;
    new_stream(g, &t);
    g->dealer = (int)twister_below(&t, (uint32_t)g->players);
    start_hand(g);
}

static void record(Twins *g, int round_no, int received, int rank, int amount) {
    g->ledger[round_no - 1][received][rank / 100] += amount;
    g->ledger_set[round_no - 1][received][rank / 100] = 1;
}

/* rules.tiers_from_top: the entries 0..n-1 grouped by rank from the top, each tier in
 * seat order; tier t is ordered[bounds[t] .. bounds[t + 1]). */
static int tiers_from_top(const int *ranks, int n, int *ordered, int *bounds) {
    int used[MAX_SEATS] = {0}, tiers = 0, count = 0;
    while (count < n) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!used[i] && (best < 0 || ranks[i] > ranks[best])) best = i;
        bounds[tiers++] = count;
        int top = ranks[best];
        for (int i = 0; i < n; i++) /* seats[] is in seat order */
            if (!used[i] && ranks[i] == top) {
                used[i] = 1;
                ordered[count++] = i;
            }
    }
    bounds[tiers] = count;
    return tiers;
}

static void pay_round(Twins *g, const int *seats, const int *ranks, int n) {
    int round_no = g->round_no;
    if (n == 0 && round_no != 2 && round_no != 4) return;
    if (round_no == 1 || round_no == 3) {
        int k = round_no == 1 ? g->lowest_r1 : g->lowest_r3;
        int amount = round_no == 1 ? g->pay_r1 : g->pay_r3;
        int sorted[MAX_SEATS];
        memcpy(sorted, ranks, sizeof(int) * (size_t)n);
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
                int swap = sorted[j];
                sorted[j] = sorted[j - 1];
                sorted[j - 1] = swap;
            }
        int at = (k < n ? k : n) - 1;
        if (at < 0) at += n; /* Python's ordered[-1] */
        int line = sorted[at];
        for (int i = 0; i < n; i++) {
            if (ranks[i] > line) continue;
            int seat = seats[i];
            int paid = amount < g->chips[seat] ? amount : g->chips[seat];
            g->chips[seat] -= paid;
            g->bank += paid;
            if (paid < amount) {
                g->out[seat] = 1;
                g->ending = 1;
            }
            record(g, round_no, 0, ranks[i], paid);
            if (round_no == 3 && !g->out[seat]) g->sitting[seat] = 1;
        }
    } else if (round_no == 2) {
        int ordered[MAX_SEATS], bounds[MAX_SEATS + 1], payment[MAX_SEATS], got[MAX_SEATS] = {0};
        int tiers = tiers_from_top(ranks, n, ordered, bounds), places = g->top_r2;
        for (int tier = 0; tier < tiers; tier++) {
            int size = bounds[tier + 1] - bounds[tier];
            if (size > places) break;
            places -= size;
            int each = g->bank / size < g->gain ? g->bank / size : g->gain;
            for (int i = bounds[tier]; i < bounds[tier + 1]; i++) {
                payment[ordered[i]] = each;
                got[ordered[i]] = 1;
            }
            g->bank -= each * size;
        }
        for (int i = 0; i < n; i++) {
            if (!got[i]) continue;
            record(g, round_no, 1, ranks[i], payment[i]);
            g->chips[seats[i]] += payment[i];
        }
    } else {
        int ordered[MAX_SEATS], bounds[MAX_SEATS + 1];
        int tiers = tiers_from_top(ranks, n, ordered, bounds);
        if (tiers && bounds[1] - bounds[0] == 1) {
            int winner = ordered[0];
            record(g, round_no, 1, ranks[winner], g->bank);
            g->chips[seats[winner]] += g->bank;
            g->bank = 0;
        }
    }
}

static void next_round(Twins *g) {
    for (;;) {
        g->round_no++;
        if (g->round_no > ROUNDS) {
            if (g->ending || (g->max_hands && g->hand_no >= g->max_hands)) {
                g->phase = PHASE_OVER;
                return;
            }
            g->dealer = next_active(g, g->dealer);
            start_hand(g);
            return;
        }
        if (any_participant(g)) return;
    }
}

static void reveal(Twins *g) {
    int seats[MAX_SEATS], ranks[MAX_SEATS], n = 0;
    for (int seat = 0; seat < g->players; seat++) {
        if (!plays(g, seat)) continue;
        int a = g->picks[seat][0], b = g->picks[seat][1];
        g->hands[seat] &= ~((1ULL << a) | (1ULL << b));
        uint8_t *entry = g->played[g->n_played++];
        entry[0] = (uint8_t)g->round_no;
        entry[1] = (uint8_t)seat;
        entry[2] = (uint8_t)a;
        entry[3] = (uint8_t)b;
        seats[n] = seat;
        ranks[n++] = g->rank[a][b];
    }
    pay_round(g, seats, ranks, n);
    for (int seat = 0; seat < g->players; seat++) g->picks[seat][0] = g->picks[seat][1] = NO_PICK;
    next_round(g);
}

static inline int may_pick(const Twins *g, int seat) {
    return g->phase == PHASE_PICK && plays(g, seat) && g->picks[seat][0] == NO_PICK;
}

/* Play ``index`` for ``seat`` when it is legal now; whether it was. */
static int apply_index(Twins *g, int seat, long index) {
    if (seat < 0 || seat >= g->players || g->phase == PHASE_OVER) return 0;
    if (index >= BUY_BASE && index < PICK_BASE) {
        int count = (int)index - BUY_BASE, cost = BUY_COST[count];
        if (g->phase != PHASE_BUY || seat != g->buyer || cost > g->chips[seat]) return 0;
        g->chips[seat] -= cost;
        g->bank += cost;
        for (int k = 0; k < count; k++) g->hands[seat] |= 1ULL << g->draw[--g->draw_size];
        g->bought[seat] = count;
        int following = next_active(g, seat);
        if (following == next_active(g, g->dealer)) {
            g->phase = PHASE_PICK;
            g->buyer = -1;
            g->round_no = 1;
        } else {
            g->buyer = following;
        }
    } else if (index >= PICK_BASE && index < N_ACTIONS) {
        if (!may_pick(g, seat)) return 0;
        int a = pair_of[index][0], b = pair_of[index][1];
        uint64_t both = (1ULL << a) | (1ULL << b);
        if ((g->hands[seat] & both) != both) return 0;
        g->picks[seat][0] = (uint8_t)a;
        g->picks[seat][1] = (uint8_t)b;
        if (!waiting_count(g)) reveal(g);
    } else {
        return 0;
    }
    g->version++;
    return 1;
}

/* The seat's legal moves now as the environment's mask (every element written). */
static void write_mask(const Twins *g, int seat, int8_t *mask) {
    memset(mask, 0, N_ACTIONS);
    if (g->phase == PHASE_BUY && seat == g->buyer) {
        for (int count = 0; count < 3; count++)
            if (BUY_COST[count] <= g->chips[seat]) mask[BUY_BASE + count] = 1;
    } else if (may_pick(g, seat)) {
        uint8_t cards[DECK];
        int n = 0;
        for (uint64_t hand = g->hands[seat]; hand; hand &= hand - 1)
            cards[n++] = (uint8_t)__builtin_ctzll(hand);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) mask[pair_index[cards[i]][cards[j]]] = 1;
    }
}

/* env.encode of the seat's view (every element written). */
static void write_observation(const Twins *g, int me, float *out) {
    int players = g->players;
    memset(out, 0, sizeof(float) * O_SIZE);
    for (uint64_t hand = g->hands[me]; hand; hand &= hand - 1)
        out[O_HAND + __builtin_ctzll(hand)] = 1.0f;
    if (g->picks[me][0] != NO_PICK) out[O_MY_PICK + g->picks[me][0]] =
        out[O_MY_PICK + g->picks[me][1]] = 1.0f;
    for (int i = 0; i < g->n_played; i++) {
        const uint8_t *entry = g->played[i];
        int base = O_REVEALED + ((entry[1] - me + players) % players) * DECK;
        out[base + entry[2]] = out[base + entry[3]] = (float)((double)entry[0] / 4.0);
    }
    double total = (double)g->starting_chips * players;
    double most_cards = (double)(g->deal + 2);
    int any_out = 0;
    for (int seat = 0; seat < players; seat++) {
        int at = (seat - me + players) % players;
        out[O_CHIPS + at] = (float)(g->chips[seat] / total);
        out[O_PRESENT + at] = 1.0f;
        if (g->out[seat]) {
            out[O_OUT + at] = 1.0f;
            any_out = 1;
        }
        if (g->sitting[seat]) out[O_SITTING + at] = 1.0f;
        if (g->picks[seat][0] != NO_PICK) out[O_COMMITTED + at] = 1.0f;
        out[O_BOUGHT + at] = (float)(g->bought[seat] / 2.0);
        double size = __builtin_popcountll(g->hands[seat]) / most_cards;
        out[O_SIZES + at] = (float)(size < 1.0 ? size : 1.0);
    }
    out[O_BANK] = (float)(g->bank / total);
    out[O_DEALER + (g->dealer - me + players) % players] = 1.0f;
    if (g->buyer >= 0) out[O_BUYER + (g->buyer - me + players) % players] = 1.0f;
    out[O_PHASE + g->phase] = 1.0f;
    out[O_ROUND + g->round_no] = 1.0f;
    out[O_PLAYERS + players - 3] = 1.0f;
    out[O_HAND_NO] = (float)((double)(g->hand_no < HAND_SCALE ? g->hand_no : HAND_SCALE) /
                             HAND_SCALE);
    if (any_out || (g->max_hands && g->hand_no == g->max_hands)) out[O_LAST_HAND] = 1.0f;
}

/* ---- the Python type ------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    Twins g;
} Engine;

static PyTypeObject EngineType;

static int engine_init(Engine *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"players", "starting_chips", "deal", "max_hands", "cash",
                            "ranks", NULL};
    int players, chips, deal, max_hands;
    PyObject *cash;
    Py_buffer ranks;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiiiOy*", names, &players, &chips, &deal,
                                     &max_hands, &cash, &ranks))
        return -1;
    Twins *g = &self->g;
    memset(g, 0, sizeof *g);
    int ok = ranks.len == (Py_ssize_t)sizeof g->rank;
    if (ok) memcpy(g->rank, ranks.buf, sizeof g->rank);
    PyBuffer_Release(&ranks);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "ranks must be 60 x 60 int16");
        return -1;
    }
    if (players < 3 || players > MAX_SEATS || deal < 1 || deal * players + 2 > DECK ||
        chips < 0 || max_hands < 0) {
        PyErr_SetString(PyExc_ValueError, "options out of range");
        return -1;
    }
    if (!PyArg_ParseTuple(cash, "iiiiii", &g->lowest_r1, &g->pay_r1, &g->top_r2, &g->gain,
                          &g->lowest_r3, &g->pay_r3))
        return -1;
    g->players = players;
    g->starting_chips = chips;
    g->deal = deal;
    g->max_hands = max_hands;
    new_game(g, 0);
    return 0;
}

static PyObject *engine_reset(Engine *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    new_game(&self->g, seed);
    Py_RETURN_NONE;
}

static PyObject *engine_apply_index(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply_index(seat, index)");
        return NULL;
    }
    if (glue_seat(args[0], self->g.players, &seat) < 0) return NULL;
    long index = PyLong_AsLong(args[1]);
    if (index == -1 && PyErr_Occurred()) return NULL;
    return PyBool_FromLong(apply_index(&self->g, seat, index));
}

/* encode(seat, observation, mask): the seat's observation and its legal moves. */
static PyObject *engine_encode(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat;
    Py_buffer observation, mask;
    if (glue_encode_args(args, nargs, self->g.players, O_SIZE, N_ACTIONS, &seat, &observation,
                         &mask) < 0)
        return NULL;
    write_observation(&self->g, seat, (float *)observation.buf);
    write_mask(&self->g, seat, (int8_t *)mask.buf);
    PyBuffer_Release(&observation);
    PyBuffer_Release(&mask);
    Py_RETURN_NONE;
}

/* The seat that acts next in the AEC order: the buyer, the lowest seat still to pick,
 * or seat 0 when nobody acts. */
static PyObject *get_next_seat(Engine *self, void *Py_UNUSED(unused)) {
    const Twins *g = &self->g;
    if (g->phase == PHASE_BUY) return PyLong_FromLong(g->buyer);
    if (g->phase == PHASE_PICK)
        for (int seat = 0; seat < g->players; seat++)
            if (may_pick(g, seat)) return PyLong_FromLong(seat);
    return PyLong_FromLong(0);
}

static PyObject *get_chips(Engine *self, void *Py_UNUSED(unused)) {
    return glue_int_tuple(self->g.chips, self->g.players);
}

static PyObject *get_over(Engine *self, void *Py_UNUSED(unused)) {
    return PyBool_FromLong(self->g.phase == PHASE_OVER);
}

static PyObject *get_version(Engine *self, void *Py_UNUSED(unused)) {
    return PyLong_FromUnsignedLongLong(self->g.version);
}

static PyObject *played_list(const uint8_t (*played)[4], int count) {
    PyObject *list = PyList_New(count);
    if (list == NULL) return NULL;
    for (int i = 0; i < count; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(iiii)", played[i][0], played[i][1],
                                               played[i][2], played[i][3]));
    return list;
}

/* Every field rules.py's TwinsState holds, as plain Python values (fields() in env.py
 * builds the state from them). */
static PyObject *engine_fields(Engine *self, PyObject *Py_UNUSED(unused)) {
    const Twins *g = &self->g;
    int players = g->players;
    PyObject *hands = PyList_New(players), *picks = PyList_New(players);
    PyObject *ledger = PyList_New(0);
    if (!hands || !picks || !ledger) goto fail;
    for (int seat = 0; seat < players; seat++) {
        PyObject *hand = PyList_New(0);
        if (!hand) goto fail;
        PyList_SET_ITEM(hands, seat, hand);
        for (uint64_t bits = g->hands[seat]; bits; bits &= bits - 1) {
            PyObject *card = PyLong_FromLong(__builtin_ctzll(bits));
            if (!card || PyList_Append(hand, card) < 0) {
                Py_XDECREF(card);
                goto fail;
            }
            Py_DECREF(card);
        }
        PyObject *pick = g->picks[seat][0] == NO_PICK
            ? Py_NewRef(Py_None) : Py_BuildValue("(ii)", g->picks[seat][0], g->picks[seat][1]);
        if (!pick) goto fail;
        PyList_SET_ITEM(picks, seat, pick);
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int d = 0; d < 2; d++)
            for (int c = 0; c < CATEGORIES; c++) {
                if (!g->ledger_set[r][d][c]) continue;
                PyObject *entry = Py_BuildValue("(iiil)", r + 1, d, c, g->ledger[r][d][c]);
                if (!entry || PyList_Append(ledger, entry) < 0) {
                    Py_XDECREF(entry);
                    goto fail;
                }
                Py_DECREF(entry);
            }
    int draw[DECK];
    for (int i = 0; i < g->draw_size; i++) draw[i] = g->draw[i];
    PyObject *result = Py_BuildValue(
        "{s:K,s:K,s:K,s:N,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:i,s:i,s:i,s:i,s:O,s:N}",
        "seed", (unsigned long long)g->seed, "counter", (unsigned long long)g->counter,
        "version", (unsigned long long)g->version, "chips", glue_int_tuple(g->chips, players),
        "bank", g->bank, "out", glue_int_tuple(g->out, players), "hands", hands,
        "draw_pile", glue_int_tuple(draw, g->draw_size),
        "played", played_list(g->played, g->n_played),
        "last_played", played_list(g->last_played, g->n_last_played), "picks", picks,
        "bought", glue_int_tuple(g->bought, players), "sitting_out", glue_int_tuple(g->sitting, players),
        "dealer", g->dealer, "buyer", g->buyer, "hand_no", g->hand_no, "round_no", g->round_no,
        "phase", g->phase, "ending", g->ending ? Py_True : Py_False, "ledger", ledger);
    return result;
fail:
    Py_XDECREF(hands);
    Py_XDECREF(picks);
    Py_XDECREF(ledger);
    return NULL;
}

static PyMethodDef engine_methods[] = {
    {"reset", (PyCFunction)engine_reset, METH_O, "reset(seed): a new game"},
    {"apply_index", (PyCFunction)(void (*)(void))engine_apply_index, METH_FASTCALL,
     "apply_index(seat, index) -> bool: play the move if it is legal now"},
    {"encode", (PyCFunction)(void (*)(void))engine_encode, METH_FASTCALL,
     "encode(seat, observation, mask): write the seat's observation and mask"},
    {"fields", (PyCFunction)engine_fields, METH_NOARGS, "the state's fields, as Python values"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef engine_getset[] = {
    {"next_seat", (getter)get_next_seat, NULL, "the seat that acts next (AEC order)", NULL},
    {"chips", (getter)get_chips, NULL, "every seat's chips", NULL},
    {"over", (getter)get_over, NULL, "whether the game is over", NULL},
    {"version", (getter)get_version, NULL, "moves applied", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twintable.games.twins._native.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Twins game for the environment: Engine(players, starting_chips, deal, "
              "max_hands, cash, ranks)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)engine_init,
    .tp_methods = engine_methods,
    .tp_getset = engine_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Twins rules in C for the environment.", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    twister_make_base();
    make_pair_index();
    PyObject *m = glue_module_with_engine(&module, &EngineType);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "N_ACTIONS", N_ACTIONS) < 0 ||
        PyModule_AddIntConstant(m, "OBSERVATION_SIZE", O_SIZE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
