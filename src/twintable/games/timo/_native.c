/* Timo's Twist rules in C, for simulations: the same states, draws and legal moves as
 * rules.py, move for move (tests/games/timo/test_native.py plays both side by side).
 *
 * rules.py stays the reference and the engine tables use; this module exists because
 * bench/engine_timo.py's targets need a decision in about a microsecond, which the
 * interpreter cannot give. Chance is drawn exactly as core/rng.py draws it: each use
 * seeds a fresh Mersenne Twister from (seed << 32) ^ counter, the way CPython's
 * random.Random(int) does, and shuffles and draws below n the way random.py does (the
 * twister, core/native/mt19937.h, is shared with Twins' engine).
 * Moves are small int codes (see the CODE_ constants); fast.py maps them to Actions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#ifndef _WIN32
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#define HAVE_THREADS 1
#endif

#define MAX_PLAYERS 6
#define MAX_CARDS 128
#define HAND_SIZE 7
#define NOBODY (-1)
#define CATCH_PENALTY 2

#define BLACK 4
#define STOP 10
#define TWIST 11
#define PLUS2 12
#define PLUS4 14

/* A play is card * 10 + colour_slot * 2 + timo, colour_slot 0 for a coloured card and
 * 1 + colour for a black one; the other moves come after every play code. */
#define CODE_DRAW (MAX_CARDS * 10)
#define CODE_PASS (CODE_DRAW + 1)
#define CODE_CALL (CODE_DRAW + 2)
#define CODE_CATCH (CODE_DRAW + 3)
#define CODE_COUNT (CODE_CATCH + MAX_PLAYERS)
#define MAX_LEGAL (MAX_CARDS * 8 + 4)

/* CPython's Mersenne Twister, seeded and used as random.Random(int) is (core/rng.py). */
#include "mt19937.h"

/* ---- the game state ----------------------------------------------------------------- */
typedef struct {
    /* fixed for the game */
    int players, card_count, stacking, draw_when_able, deal;
    long target;
    /* The ``teams`` option: whether seats play in teams, and each seat's team. */
    int teams, team_of[MAX_PLAYERS];
    uint64_t seed;
    uint8_t colour_of[MAX_CARDS], rank_of[MAX_CARDS], points_of[MAX_CARDS];
    /* what changes */
    uint64_t rng_counter;
    uint8_t hands[MAX_PLAYERS][MAX_CARDS];
    int hand_size[MAX_PLAYERS];
    uint8_t draw_pile[MAX_CARDS];
    int draw_size;
    uint8_t discard[MAX_CARDS];
    int discard_size;
    int colour, turn, direction, penalty, drawn, exposed, caught, dealer, round_no,
        round_winner, over;
    long scores[MAX_PLAYERS];
    long turn_count, version;
} Timo;

static void new_stream(Timo *g, Twister *t) {
    g->rng_counter += 1;
    twister_seed(t, g->seed, g->rng_counter);
}

static void advance(Timo *g, int steps) {
    g->turn = ((g->turn + steps * g->direction) % g->players + g->players) % g->players;
}

static inline int playable(const Timo *g, int card) {
    int top_rank = g->rank_of[g->discard[g->discard_size - 1]];
    int rank = g->rank_of[card];
    if (g->penalty) {
        /* RULES.md §1 stacking: +2 on +2, +4 on +2 or +4, never +2 on +4. */
        if (top_rank == PLUS2) return rank == PLUS4 || rank == PLUS2;
        return rank == PLUS4;
    }
    return g->colour_of[card] == BLACK || g->colour_of[card] == g->colour || rank == top_rank;
}

static int any_playable(const Timo *g, int seat) {
    for (int i = 0; i < g->hand_size[seat]; i++)
        if (playable(g, g->hands[seat][i])) return 1;
    return 0;
}

static int draw_card(Timo *g) {
    if (g->draw_size == 0) {
        if (g->discard_size <= 1) return NOBODY;
        /* RULES.md §1: keep the top discard, shuffle the rest into a new draw pile. */
        int rest = g->discard_size - 1;
        memcpy(g->draw_pile, g->discard, (size_t)rest);
        g->draw_size = rest;
        g->discard[0] = g->discard[rest];
        g->discard_size = 1;
        Twister t;
        new_stream(g, &t);
        twister_shuffle(&t, g->draw_pile, g->draw_size);
    }
    return g->draw_pile[--g->draw_size];
}

/* Deal up to ``amount`` cards to ``seat``; returns how many there were. */
static int give(Timo *g, int seat, int amount) {
    int given = 0;
    for (; given < amount; given++) {
        int card = draw_card(g);
        if (card == NOBODY) break;
        g->hands[seat][g->hand_size[seat]++] = (uint8_t)card;
    }
    return given;
}

static void take_penalty(Timo *g, int seat) {
    int amount = g->penalty;
    g->penalty = 0;
    give(g, seat, amount);
    advance(g, 1);
}

static int penalty_of(int rank) {
    return rank == PLUS2 ? 2 : rank == PLUS4 ? 4 : 0;
}

/* Move the turn on from g->turn, who just played ``card`` (or had it dealt as start). */
static void card_effect(Timo *g, int card) {
    int rank = g->rank_of[card];
    if (rank == STOP || (rank == TWIST && g->players == 2)) {
        advance(g, 2);
    } else if (rank == TWIST) {
        g->direction = -g->direction;
        advance(g, 1);
    } else if (penalty_of(rank)) {
        g->penalty += penalty_of(rank);
        advance(g, 1);
        /* Nothing to decide: the victim takes the penalty at once. */
        if (!(g->stacking && any_playable(g, g->turn))) take_penalty(g, g->turn);
    } else {
        advance(g, 1);
    }
}

static void start_round(Timo *g) {
    uint8_t cards[MAX_CARDS];
    int count = g->card_count, n = g->players;
    for (int i = 0; i < count; i++) cards[i] = (uint8_t)i;
    Twister t;
    new_stream(g, &t);
    twister_shuffle(&t, cards, count);
    for (int seat = 0; seat < n; seat++) g->hand_size[seat] = 0;
    for (int round = 0; round < g->deal; round++)
        for (int offset = 1; offset <= n; offset++) {
            int seat = (g->dealer + offset) % n;
            g->hands[seat][g->hand_size[seat]++] = cards[--count];
        }
    /* RULES.md §1: a black start card goes back, the deck is reshuffled, flip again. */
    int start = cards[--count];
    while (g->colour_of[start] == BLACK) {
        cards[count++] = (uint8_t)start;
        twister_shuffle(&t, cards, count);
        start = cards[--count];
    }
    memcpy(g->draw_pile, cards, (size_t)count);
    g->draw_size = count;
    g->discard[0] = (uint8_t)start;
    g->discard_size = 1;
    g->colour = g->colour_of[start];
    g->direction = 1;
    g->penalty = 0;
    g->drawn = g->exposed = g->caught = NOBODY;
    g->round_no += 1;
    /* The start card acts on the first player as if the dealer had played it. */
    g->turn = g->dealer;
    card_effect(g, start);
}

static void end_round(Timo *g, int winner, int last) {
    int extra = penalty_of(g->rank_of[last]);
    if (extra) {
        /* RULES.md §1: a closing +2/+4 still makes the next player draw before scoring. */
        g->penalty += extra;
        advance(g, 1);
        give(g, g->turn, g->penalty);
        g->penalty = 0;
    }
    /* With teams the round is the winner's team's: it scores its opponents' cards only,
       and each member's score is the team's. */
    long points = 0;
    for (int seat = 0; seat < g->players; seat++)
        if (g->teams ? g->team_of[seat] != g->team_of[winner] : seat != winner)
            for (int i = 0; i < g->hand_size[seat]; i++) points += g->points_of[g->hands[seat][i]];
    for (int seat = 0; seat < g->players; seat++)
        if (g->teams ? g->team_of[seat] == g->team_of[winner] : seat == winner)
            g->scores[seat] += points;
    g->round_winner = winner;
    if (g->scores[winner] >= g->target) {
        g->over = 1;
        g->exposed = g->caught = NOBODY;
        return;
    }
    g->dealer = (g->dealer + 1) % g->players;
    start_round(g);
}

static void close_window(Timo *g) {
    g->exposed = g->caught = NOBODY;
}

static void play_card(Timo *g, int seat, int card, int colour, int calls_timo) {
    uint8_t *hand = g->hands[seat];
    int size = g->hand_size[seat], at = 0;
    close_window(g);
    g->turn_count += 1;
    while (hand[at] != card) at++;
    memmove(hand + at, hand + at + 1, (size_t)(size - at - 1));
    g->hand_size[seat] = --size;
    g->discard[g->discard_size++] = (uint8_t)card;
    g->drawn = NOBODY;
    g->colour = colour;
    if (size == 0) {
        end_round(g, seat, card);
        return;
    }
    if (size == 1 && !calls_timo) g->exposed = seat;
    card_effect(g, card);
}

static void draw_turn(Timo *g, int seat) {
    close_window(g);
    g->turn_count += 1;
    if (g->penalty) {
        take_penalty(g, seat);
        return;
    }
    if (give(g, seat, 1) && playable(g, g->hands[seat][g->hand_size[seat] - 1]))
        g->drawn = g->hands[seat][g->hand_size[seat] - 1];
    else
        advance(g, 1);
}

static void new_game(Timo *g) {
    Twister t;
    new_stream(g, &t);
    g->dealer = (int)twister_below(&t, (uint32_t)g->players);
    start_round(g);
}

/* The seat's legal moves, in rules.py's order; returns how many. */
static int legal_codes(const Timo *g, int seat, int *codes) {
    int count = 0;
    if (g->over || seat < 0 || seat >= g->players) return 0;
    if (seat == g->turn) {
        int size = g->hand_size[seat], with_timo = size == 2, candidates = 0;
        for (int i = 0; i < (g->drawn != NOBODY ? 1 : size); i++) {
            int card = g->drawn != NOBODY ? g->drawn : g->hands[seat][i];
            if (g->drawn == NOBODY && !playable(g, card)) continue;
            candidates++;
            if (g->colour_of[card] == BLACK) {
                for (int colour = 0; colour < 4; colour++) {
                    codes[count++] = card * 10 + (1 + colour) * 2;
                    if (with_timo) codes[count++] = card * 10 + (1 + colour) * 2 + 1;
                }
            } else {
                codes[count++] = card * 10;
                if (with_timo) codes[count++] = card * 10 + 1;
            }
        }
        if (g->drawn != NOBODY)
            codes[count++] = CODE_PASS;
        else if (g->penalty || !candidates || g->draw_when_able)
            codes[count++] = CODE_DRAW;
    }
    if (g->exposed != NOBODY)
        codes[count++] = seat == g->exposed ? CODE_CALL : CODE_CATCH + g->exposed;
    return count;
}

/* Apply a code that legal_codes offered ``seat``. */
static void apply_code(Timo *g, int seat, int code) {
    if (code < CODE_DRAW) {
        int card = code / 10, slot = (code % 10) / 2;
        play_card(g, seat, card, slot ? slot - 1 : g->colour_of[card], code & 1);
    } else if (code == CODE_DRAW) {
        draw_turn(g, seat);
    } else if (code == CODE_PASS) {
        close_window(g);
        g->turn_count += 1;
        g->drawn = NOBODY;
        advance(g, 1);
    } else if (code == CODE_CALL) {
        g->exposed = NOBODY;
    } else {
        int target = code - CODE_CATCH;
        g->exposed = NOBODY;
        g->caught = target;
        give(g, target, CATCH_PENALTY);
    }
    g->version += 1;
}

/* ---- research environments: action indices, observations, the race order ----------------
 * twintable/games/timo/research/codec.py is the reference for everything in this section (its
 * docstring lists the layout); tests/games/timo/research/test_vector.py compares the two each step.
 * A card type is 13 * colour + rank for coloured cards, 52 + rank - 13 for black ones. */
#define CARD_TYPES 54
#define BLACK_PLAYS 104
#define INDEX_DRAW 120
#define INDEX_PASS 121
#define INDEX_CALL 122
#define INDEX_CATCH 123
#define INDEX_WAIT 124
#define N_ACTIONS 125
#define OBS_HAND 0
#define OBS_DISCARD 54
#define OBS_TOP 108
#define OBS_COLOUR 162
#define OBS_PENALTY 166
#define OBS_DIRECTION 167
#define OBS_DRAWN 168
#define OBS_REACTING 169
#define OBS_DRAW_PILE 170
#define OBS_SEATS 171
#define OBS_SIZE(players) (OBS_SEATS + 4 * (players))

static int card_type(const Timo *g, int card) {
    int colour = g->colour_of[card], rank = g->rank_of[card];
    return colour == BLACK ? 52 + rank - 13 : 13 * colour + rank;
}

static int play_index(int colour, int rank, int named, int timo) {
    if (colour == BLACK) return BLACK_PLAYS + 8 * (rank - 13) + 2 * named + timo;
    return 2 * (13 * colour + rank) + timo;
}

static int index_of_code(const Timo *g, int code) {
    if (code < CODE_DRAW) {
        int card = code / 10, slot = (code % 10) / 2;
        return play_index(g->colour_of[card], g->rank_of[card], slot ? slot - 1 : 0, code & 1);
    }
    if (code == CODE_DRAW) return INDEX_DRAW;
    if (code == CODE_PASS) return INDEX_PASS;
    if (code == CODE_CALL) return INDEX_CALL;
    return INDEX_CATCH;
}

/* Count the discard pile's cards of each type into ``types`` (as the observation's
 * floats, so that encoding copies them in one block). */
static void count_discard(const Timo *g, float *types) {
    memset(types, 0, CARD_TYPES * sizeof *types);
    for (int i = 0; i < g->discard_size; i++) types[card_type(g, g->discard[i])] += 1;
}

/* Seat ``seat``'s observation and mask (codec.encode), into zeroed or dirty buffers.
 * ``discard_types``: the discard pile counted by type (count_discard), or NULL to count it
 * here. ``code_of``: NULL, or N_ACTIONS slots that get the move code each mask bit stands
 * for (the first legal code with that index, as apply_index picks; -1 where none; wait
 * has no code). */
static void encode_obs(const Timo *g, int seat, int reacting, float *obs, int8_t *mask,
                       const float *discard_types, int16_t *code_of) {
    int players = g->players;
    float counted[CARD_TYPES];
    if (discard_types == NULL) {
        count_discard(g, counted);
        discard_types = counted;
    }
    memset(obs, 0, sizeof(float) * (size_t)OBS_SIZE(players));
    memset(mask, 0, N_ACTIONS);
    for (int i = 0; i < g->hand_size[seat]; i++) obs[OBS_HAND + card_type(g, g->hands[seat][i])] += 1;
    memcpy(obs + OBS_DISCARD, discard_types, CARD_TYPES * sizeof *discard_types);
    obs[OBS_TOP + card_type(g, g->discard[g->discard_size - 1])] = 1;
    obs[OBS_COLOUR + g->colour] = 1;
    obs[OBS_PENALTY] = (float)g->penalty;
    obs[OBS_DIRECTION] = g->direction == 1;
    obs[OBS_DRAWN] = seat == g->turn && g->drawn != NOBODY;
    obs[OBS_REACTING] = (float)reacting;
    obs[OBS_DRAW_PILE] = (float)g->draw_size;
    for (int offset = 0, other = seat; offset < players; offset++) {
        obs[OBS_SEATS + offset] = (float)g->hand_size[other];
        obs[OBS_SEATS + players + offset] = (float)g->scores[other];
        if (++other == players) other = 0;
    }
    if (!g->over) obs[OBS_SEATS + 2 * players + (g->turn - seat + players) % players] = 1;
    if (g->exposed != NOBODY)
        obs[OBS_SEATS + 3 * players + (g->exposed - seat + players) % players] = 1;
    if (code_of != NULL) memset(code_of, 0xff, N_ACTIONS * sizeof *code_of);
    int codes[MAX_LEGAL];
    int count = legal_codes(g, seat, codes);
    for (int i = 0; i < count; i++) {
        if (reacting && codes[i] < CODE_CALL) continue;
        int index = index_of_code(g, codes[i]);
        if (code_of != NULL && !mask[index]) code_of[index] = (int16_t)codes[i];
        mask[index] = 1;
    }
    if (reacting) mask[INDEX_WAIT] = 1;
}

/* Play action ``index`` for ``seat`` if it is legal now (the first legal code with that
 * index: the first copy of the card type in the hand); whether it was. Wait does
 * nothing and is legal only while reacting. */
static int apply_index(Timo *g, int seat, int index, int reacting) {
    if (index == INDEX_WAIT) return reacting;
    if (index < 0 || index >= N_ACTIONS || seat < 0 || seat >= g->players) return 0;
    int codes[MAX_LEGAL];
    int count = legal_codes(g, seat, codes);
    for (int i = 0; i < count; i++) {
        if (reacting && codes[i] < CODE_CALL) continue;
        if (index_of_code(g, codes[i]) == index) {
            apply_code(g, seat, codes[i]);
            return 1;
        }
    }
    return 0;
}

/* Who is asked to react, in order, when ``g->exposed`` has not called TIMO!
 * (timo_v0.race_order): its opponents in play order from the seat on turn, then the
 * exposed seat itself unless it is on turn. Returns how many. */
static int race_order(const Timo *g, int *asked) {
    int count = 0, players = g->players;
    for (int step = 0; step < players; step++) {
        int seat = ((g->turn + step * g->direction) % players + players) % players;
        if (seat != g->exposed) asked[count++] = seat;
    }
    if (g->exposed != g->turn) asked[count++] = g->exposed;
    return count;
}

/* The move code of the vector engine's opponents (-1: wait), always a legal one
 * (games/timo/research/policy.py: GreedyTimoPolicy, which checks that it is): react to
 * every race at once (catch, or call TIMO!), always call TIMO! with the play, play the
 * card just drawn, else the first playable coloured card in the hand, else the first
 * playable black card naming the colour it holds most of (ties: the lowest colour; none:
 * the colour in force), and draw only when nothing can be played. */
static int greedy_code(const Timo *g, int seat, int reacting) {
    if (g->exposed != NOBODY && (reacting || seat == g->turn))
        return seat == g->exposed ? CODE_CALL : CODE_CATCH + g->exposed;
    if (reacting) return NOBODY;
    const uint8_t *hand = g->hands[seat];
    int size = g->hand_size[seat], card = NOBODY;
    if (g->drawn != NOBODY) {
        card = g->drawn;
    } else {
        for (int i = 0; i < size && card == NOBODY; i++)
            if (g->colour_of[hand[i]] != BLACK && playable(g, hand[i])) card = hand[i];
        for (int i = 0; i < size && card == NOBODY; i++)
            if (playable(g, hand[i])) card = hand[i];
    }
    if (card == NOBODY) return CODE_DRAW;
    int slot = 0;
    if (g->colour_of[card] == BLACK) {
        int counts[4] = {0, 0, 0, 0}, any = 0, named;
        for (int i = 0; i < size; i++)
            if (g->colour_of[hand[i]] != BLACK) {
                counts[g->colour_of[hand[i]]]++;
                any = 1;
            }
        named = any ? 0 : g->colour;
        if (any)
            for (int c = 1; c < 4; c++)
                if (counts[c] > counts[named]) named = c;
        slot = 1 + named;
    }
    return card * 10 + slot * 2 + (size == 2);
}

/* greedy_code as an action index (wait when it lets a race go by). */
static int greedy_index(const Timo *g, int seat, int reacting) {
    int code = greedy_code(g, seat, reacting);
    return code == NOBODY ? INDEX_WAIT : index_of_code(g, code);
}

/* ---- the Python type ------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    Timo game;
    PyObject *deck;        /* the Deck, handed to views */
    PyObject *options;     /* the resolved options, handed to views */
    PyObject *view_type;   /* TimoView */
    PyObject *actions;     /* per seat, a list of CODE_COUNT slots: the Action of a code */
    PyObject *make_action; /* (seat, code) -> Action, to fill an empty slot */
    PyObject *judge;       /* (state, action) -> events: the reference rules' verdict */
} Engine;

static PyTypeObject EngineType;

static void engine_dealloc(Engine *self) {
    Py_XDECREF(self->deck);
    Py_XDECREF(self->options);
    Py_XDECREF(self->view_type);
    Py_XDECREF(self->actions);
    Py_XDECREF(self->make_action);
    Py_XDECREF(self->judge);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_bytes(PyObject *source, uint8_t *into, Py_ssize_t length, const char *what) {
    if (!PyBytes_Check(source) || PyBytes_GET_SIZE(source) != length) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd bytes", what, length);
        return -1;
    }
    memcpy(into, PyBytes_AS_STRING(source), (size_t)length);
    return 0;
}

static int engine_init(Engine *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"colours", "ranks", "points", "players", "seed", "stacking",
                            "draw_when_able", "target", "deck", "options", "view_type",
                            "actions", "make_action", "judge", "hand_size", "teams", NULL};
    PyObject *colours, *ranks, *points, *deck, *options, *view_type, *actions, *make_action,
        *judge, *teams = Py_None;
    unsigned long long seed;
    int players, stacking, draw_when_able, deal = HAND_SIZE;
    long target;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "SSSiKpplOOOOOO|iO", names, &colours,
                                     &ranks, &points, &players, &seed, &stacking,
                                     &draw_when_able, &target, &deck, &options, &view_type,
                                     &actions, &make_action, &judge, &deal, &teams))
        return -1;
    Py_ssize_t card_count = PyBytes_GET_SIZE(colours);
    if (deal < 1 || card_count < 2 + deal * players || card_count > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "a deck of %zd cards does not fit this engine",
                     card_count);
        return -1;
    }
    if (players < 2 || players > MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "%d players do not fit this engine", players);
        return -1;
    }
    if (!PyList_Check(actions) || PyList_GET_SIZE(actions) < players) {
        PyErr_SetString(PyExc_ValueError, "actions must be a list with a slot list per seat");
        return -1;
    }
    for (int seat = 0; seat < players; seat++) {
        PyObject *slots = PyList_GET_ITEM(actions, seat);
        if (!PyList_Check(slots) || PyList_GET_SIZE(slots) != CODE_COUNT) {
            PyErr_Format(PyExc_ValueError, "each seat needs a list of %d action slots",
                         CODE_COUNT);
            return -1;
        }
    }
    Timo *g = &self->game;
    memset(g, 0, sizeof *g);
    if (read_bytes(colours, g->colour_of, card_count, "colours") < 0 ||
        read_bytes(ranks, g->rank_of, card_count, "ranks") < 0 ||
        read_bytes(points, g->points_of, card_count, "points") < 0)
        return -1;
    g->players = players;
    g->card_count = (int)card_count;
    g->stacking = stacking;
    g->draw_when_able = draw_when_able;
    g->deal = deal;
    g->target = target;
    g->seed = seed;
    g->round_winner = NOBODY;
    if (teams != Py_None) {
        if (!PyTuple_Check(teams) || PyTuple_GET_SIZE(teams) != players) {
            PyErr_SetString(PyExc_ValueError, "teams must be None or a tuple, one team per seat");
            return -1;
        }
        g->teams = 1;
        for (int seat = 0; seat < players; seat++) {
            long team = PyLong_AsLong(PyTuple_GET_ITEM(teams, seat));
            if (team == -1 && PyErr_Occurred()) return -1;
            if (team < 0 || team >= MAX_PLAYERS) {
                PyErr_SetString(PyExc_ValueError, "a team is a number from 0 to 5");
                return -1;
            }
            g->team_of[seat] = (int)team;
        }
    }
    PyObject *held[] = {deck, options, view_type, actions, make_action, judge};
    PyObject **slots[] = {&self->deck, &self->options, &self->view_type, &self->actions,
                          &self->make_action, &self->judge};
    for (int i = 0; i < 6; i++) {
        Py_INCREF(held[i]);
        Py_XSETREF(*slots[i], held[i]);
    }
    new_game(g);
    return 0;
}

static PyObject *engine_clone(Engine *self, PyObject *unused) {
    Engine *other = (Engine *)EngineType.tp_alloc(&EngineType, 0);
    if (other == NULL) return NULL;
    other->game = self->game;
    other->deck = Py_NewRef(self->deck);
    other->options = Py_NewRef(self->options);
    other->view_type = Py_NewRef(self->view_type);
    other->actions = Py_NewRef(self->actions);
    other->make_action = Py_NewRef(self->make_action);
    other->judge = Py_NewRef(self->judge);
    return (PyObject *)other;
}

static int seat_arg(Engine *self, PyObject *arg, int *seat) {
    long value = PyLong_AsLong(arg);
    if (value == -1 && PyErr_Occurred()) return -1;
    *seat = (value < 0 || value >= self->game.players) ? -1 : (int)value;
    return 0;
}

static PyObject *engine_legal(Engine *self, PyObject *arg) {
    int seat, codes[MAX_LEGAL];
    if (seat_arg(self, arg, &seat) < 0) return NULL;
    int count = seat < 0 ? 0 : legal_codes(&self->game, seat, codes);
    PyObject *result = PyList_New(count);
    if (result == NULL) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(result, i, PyLong_FromLong(codes[i]));
    return result;
}

static int is_legal(const Timo *g, int seat, int code) {
    int codes[MAX_LEGAL];
    int count = legal_codes(g, seat, codes);
    for (int i = 0; i < count; i++)
        if (codes[i] == code) return 1;
    return 0;
}

static PyObject *engine_apply(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply(seat, code)");
        return NULL;
    }
    long seat = PyLong_AsLong(args[0]), code = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= self->game.players || !is_legal(&self->game, (int)seat, (int)code)) {
        PyErr_Format(PyExc_ValueError, "move %ld is not legal for seat %ld now", code, seat);
        return NULL;
    }
    apply_code(&self->game, (int)seat, (int)code);
    Py_RETURN_NONE;
}

/* The cached Action of a code, made on first use; a borrowed reference. */
static PyObject *action_of(Engine *self, int seat, int code) {
    PyObject *slots = PyList_GET_ITEM(self->actions, seat);
    PyObject *action = PyList_GET_ITEM(slots, code);
    if (action != Py_None) return action;
    action = PyObject_CallFunction(self->make_action, "ii", seat, code);
    if (action == NULL) return NULL;
    PyList_SetItem(slots, code, action); /* steals; the list keeps it alive */
    return action;
}

/* Apply an Action that is one of the seat's cached legal moves, matched on seat, kind
 * and payload (its time may differ). False when it is not one: the caller then lets the
 * reference rules judge it, for their error code and message. */
static PyObject *engine_apply_action(Engine *self, PyObject *action) {
    if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) < 3) Py_RETURN_FALSE;
    long seat = PyLong_AsLong(PyTuple_GET_ITEM(action, 0));
    if (seat == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    if (seat < 0 || seat >= self->game.players) Py_RETURN_FALSE;
    PyObject *kind = PyTuple_GET_ITEM(action, 1), *payload = PyTuple_GET_ITEM(action, 2);
    int codes[MAX_LEGAL];
    int count = legal_codes(&self->game, (int)seat, codes);
    for (int i = 0; i < count; i++) {
        PyObject *known = action_of(self, (int)seat, codes[i]);
        if (known == NULL) return NULL;
        if (known == action || (PyTuple_GET_ITEM(known, 1) == kind &&
                                PyTuple_GET_ITEM(known, 2) == payload)) {
            apply_code(&self->game, (int)seat, codes[i]);
            Py_RETURN_TRUE;
        }
    }
    Py_RETURN_FALSE;
}

static PyObject *int_tuple(const uint8_t *items, int count) {
    PyObject *result = PyTuple_New(count);
    if (result == NULL) return NULL;
    for (int i = 0; i < count; i++) PyTuple_SET_ITEM(result, i, PyLong_FromLong(items[i]));
    return result;
}

static PyObject *int_list(const uint8_t *items, int count) {
    PyObject *result = PyList_New(count);
    if (result == NULL) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(result, i, PyLong_FromLong(items[i]));
    return result;
}

/* What ``viewer`` (a seat, or None for a spectator) may see, as a TimoView: the fields
 * and their order are views.py's, and rules.py's view() fills them the same way. */
static PyObject *engine_view(Engine *self, PyObject *viewer_arg) {
    const Timo *g = &self->game;
    int seat = -1;
    if (viewer_arg != Py_None && seat_arg(self, viewer_arg, &seat) < 0) return NULL;
    int seated = seat >= 0, own = seated && seat == g->turn;
    PyTypeObject *type = (PyTypeObject *)self->view_type;
    PyObject *view = type->tp_alloc(type, 20);
    if (view == NULL) return NULL;
    PyObject *hand_sizes = PyTuple_New(g->players), *scores = PyTuple_New(g->players);
    PyObject *legal = NULL;
    if (hand_sizes == NULL || scores == NULL) goto fail;
    for (int s = 0; s < g->players; s++) {
        PyTuple_SET_ITEM(hand_sizes, s, PyLong_FromLong(g->hand_size[s]));
        PyTuple_SET_ITEM(scores, s, PyLong_FromLong(g->scores[s]));
    }
    if (seated) {
        int codes[MAX_LEGAL];
        int count = legal_codes(g, seat, codes);
        legal = PyTuple_New(count);
        if (legal == NULL) goto fail;
        for (int i = 0; i < count; i++) {
            PyObject *action = action_of(self, seat, codes[i]);
            if (action == NULL) goto fail;
            PyTuple_SET_ITEM(legal, i, Py_NewRef(action));
        }
    } else {
        legal = PyTuple_New(0);
    }
    PyObject *items[20] = {
        seated ? PyLong_FromLong(seat) : Py_NewRef(Py_None),
        Py_NewRef(self->deck),
        Py_NewRef(self->options),
        PyLong_FromLong(g->players),
        seated ? int_tuple(g->hands[seat], g->hand_size[seat]) : PyTuple_New(0),
        hand_sizes,
        int_tuple(g->discard, g->discard_size),
        PyLong_FromLong(g->colour),
        PyLong_FromLong(g->turn),
        PyLong_FromLong(g->direction),
        PyLong_FromLong(g->penalty),
        PyLong_FromLong(own ? g->drawn : NOBODY),
        PyLong_FromLong(g->draw_size),
        PyLong_FromLong(g->exposed),
        PyLong_FromLong(g->dealer),
        PyLong_FromLong(g->round_no),
        scores,
        PyBool_FromLong(g->over),
        PyLong_FromLong(g->over ? g->round_winner : NOBODY),
        legal,
    };
    int failed = 0;
    for (int i = 0; i < 20; i++) {
        if (items[i] == NULL) failed = 1;
        PyTuple_SET_ITEM(view, i, items[i]);
    }
    if (failed) {
        Py_DECREF(view);
        return NULL;
    }
    return view;
fail:
    Py_XDECREF(hand_sizes);
    Py_XDECREF(scores);
    Py_XDECREF(legal);
    Py_DECREF(view);
    return NULL;
}

/* Everything that changes, as plain Python data (rules.py's snapshot keys). */
static PyObject *engine_state(Engine *self, PyObject *unused) {
    const Timo *g = &self->game;
    PyObject *hands = PyList_New(g->players), *scores = PyList_New(g->players);
    if (hands == NULL || scores == NULL) goto fail;
    for (int s = 0; s < g->players; s++) {
        PyObject *hand = int_list(g->hands[s], g->hand_size[s]);
        if (hand == NULL) goto fail;
        PyList_SET_ITEM(hands, s, hand);
        PyList_SET_ITEM(scores, s, PyLong_FromLong(g->scores[s]));
    }
    return Py_BuildValue(
        "{sNsNsNsNsisisisisisisisisisislslsOsKsK}", "hands", hands, "scores", scores,
        "draw_pile", int_list(g->draw_pile, g->draw_size), "discard",
        int_list(g->discard, g->discard_size), "colour", g->colour, "turn", g->turn,
        "direction", g->direction, "penalty", g->penalty, "drawn", g->drawn, "exposed",
        g->exposed, "caught", g->caught, "dealer", g->dealer, "round", g->round_no,
        "round_winner", g->round_winner, "turn_count", g->turn_count, "version", g->version,
        "over", g->over ? Py_True : Py_False, "rng_counter",
        (unsigned long long)g->rng_counter, "seed", (unsigned long long)g->seed);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(scores);
    return NULL;
}

static int load_cards(PyObject *source, uint8_t *into, int *size, int card_count) {
    PyObject *items = PySequence_Fast(source, "cards must be a sequence");
    if (items == NULL) return -1;
    Py_ssize_t length = PySequence_Fast_GET_SIZE(items);
    if (length > MAX_CARDS) {
        Py_DECREF(items);
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(items, i));
        if (card < 0 || card >= card_count) {
            Py_DECREF(items);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "no card %ld", card);
            return -1;
        }
        into[i] = (uint8_t)card;
    }
    *size = (int)length;
    Py_DECREF(items);
    return 0;
}

/* Overwrite what changes with ``state()``'s shape: a determinized copy, or a state the
 * reference rules built. Cards are checked to be each in exactly one place. */
static PyObject *engine_load(Engine *self, PyObject *data) {
    Timo loaded = self->game;
    Timo *g = &loaded;
    PyObject *hands = PyDict_GetItemString(data, "hands");
    PyObject *scores = PyDict_GetItemString(data, "scores");
    if (hands == NULL || scores == NULL || !PyList_Check(hands) || !PyList_Check(scores) ||
        PyList_GET_SIZE(hands) != g->players || PyList_GET_SIZE(scores) != g->players) {
        PyErr_SetString(PyExc_ValueError, "hands and scores must be lists, one per seat");
        return NULL;
    }
    for (int s = 0; s < g->players; s++) {
        if (load_cards(PyList_GET_ITEM(hands, s), g->hands[s], &g->hand_size[s],
                       g->card_count) < 0)
            return NULL;
        g->scores[s] = PyLong_AsLong(PyList_GET_ITEM(scores, s));
    }
    PyObject *pile = PyDict_GetItemString(data, "draw_pile");
    PyObject *discard = PyDict_GetItemString(data, "discard");
    if (pile == NULL || discard == NULL ||
        load_cards(pile, g->draw_pile, &g->draw_size, g->card_count) < 0 ||
        load_cards(discard, g->discard, &g->discard_size, g->card_count) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "draw_pile and discard");
        return NULL;
    }
    struct { const char *key; int *into; } ints[] = {
        {"colour", &g->colour}, {"turn", &g->turn}, {"direction", &g->direction},
        {"penalty", &g->penalty}, {"drawn", &g->drawn}, {"exposed", &g->exposed},
        {"caught", &g->caught}, {"dealer", &g->dealer}, {"round", &g->round_no},
        {"round_winner", &g->round_winner}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        PyObject *value = PyDict_GetItemString(data, ints[i].key);
        if (value == NULL) {
            PyErr_Format(PyExc_KeyError, "%s", ints[i].key);
            return NULL;
        }
        *ints[i].into = (int)PyLong_AsLong(value);
    }
    PyObject *turn_count = PyDict_GetItemString(data, "turn_count");
    PyObject *version = PyDict_GetItemString(data, "version");
    PyObject *over = PyDict_GetItemString(data, "over");
    PyObject *counter = PyDict_GetItemString(data, "rng_counter");
    PyObject *seed = PyDict_GetItemString(data, "seed");
    if (turn_count == NULL || version == NULL || over == NULL || counter == NULL) {
        PyErr_SetString(PyExc_KeyError, "turn_count, version, over and rng_counter");
        return NULL;
    }
    g->turn_count = PyLong_AsLong(turn_count);
    g->version = PyLong_AsLong(version);
    g->over = PyObject_IsTrue(over);
    g->rng_counter = PyLong_AsUnsignedLongLong(counter);
    if (seed != NULL) g->seed = PyLong_AsUnsignedLongLong(seed);
    if (PyErr_Occurred()) return NULL;
    int seen[MAX_CARDS] = {0}, total = g->draw_size + g->discard_size;
    for (int i = 0; i < g->draw_size; i++) seen[g->draw_pile[i]]++;
    for (int i = 0; i < g->discard_size; i++) seen[g->discard[i]]++;
    for (int s = 0; s < g->players; s++) {
        total += g->hand_size[s];
        for (int i = 0; i < g->hand_size[s]; i++) seen[g->hands[s][i]]++;
    }
    for (int c = 0; c < g->card_count; c++)
        if (seen[c] != 1 || total != g->card_count || g->discard_size < 1) {
            PyErr_SetString(PyExc_ValueError, "every card must be in exactly one place");
            return NULL;
        }
    if (g->turn < 0 || g->turn >= g->players || (g->direction != 1 && g->direction != -1)) {
        PyErr_SetString(PyExc_ValueError, "turn or direction out of range");
        return NULL;
    }
    self->game = loaded;
    Py_RETURN_NONE;
}

/* search-v1's rollout policy (research/baseline.py; also IS-MCTS's), to the end of the
 * round: everybody remembers TIMO!, plays a random playable coloured card if it has one
 * (else a random playable card), names the colour it holds most of for a black card, and
 * draws when it cannot play. ``words`` is random.Random.getstate()[1]; the generator's
 * state afterwards comes back in the same shape, so the caller's random.Random goes on
 * exactly as if Python had played the rollout. */
static PyObject *engine_greedy_round(Engine *self, PyObject *words) {
    PyObject *items = PySequence_Fast(words, "expected random.Random.getstate()[1]");
    if (items == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(items) != MT_N + 1) {
        Py_DECREF(items);
        PyErr_SetString(PyExc_ValueError, "expected 625 words");
        return NULL;
    }
    Twister t;
    for (int i = 0; i <= MT_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(items, i));
        if (i < MT_N) t.state[i] = (uint32_t)word;
        else t.index = (int)word;
    }
    Py_DECREF(items);
    if (PyErr_Occurred()) return NULL;
    if (t.index < 0 || t.index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "generator index out of range");
        return NULL;
    }
    Timo *g = &self->game;
    int start_round = g->round_no;
    /* A bound the rules never reach, so that no state can keep C busy forever. */
    for (long step = 0; step < 1000000 && !g->over && g->round_no == start_round; step++) {
        g->exposed = NOBODY;
        int turn = g->turn, size = g->hand_size[turn], card;
        const uint8_t *hand = g->hands[turn];
        if (g->drawn != NOBODY) {
            card = g->drawn;
        } else {
            int playable_cards[MAX_CARDS], coloured[MAX_CARDS], playables = 0, colours = 0;
            for (int i = 0; i < size; i++) {
                if (!playable(g, hand[i])) continue;
                playable_cards[playables++] = hand[i];
                if (g->colour_of[hand[i]] != BLACK) coloured[colours++] = hand[i];
            }
            if (!playables) {
                draw_turn(g, turn);
                continue;
            }
            card = colours ? coloured[cpython_below(&t, (uint32_t)colours)]
                           : playable_cards[cpython_below(&t, (uint32_t)playables)];
        }
        int colour = g->colour_of[card];
        if (colour == BLACK) {
            int counts[4] = {0, 0, 0, 0};
            for (int i = 0; i < size; i++)
                if (g->colour_of[hand[i]] != BLACK) counts[g->colour_of[hand[i]]]++;
            colour = 0;
            for (int c = 1; c < 4; c++)
                if (counts[c] > counts[colour]) colour = c;
        }
        play_card(g, turn, card, colour, size == 2);
    }
    PyObject *result = PyTuple_New(MT_N + 1);
    if (result == NULL) return NULL;
    for (int i = 0; i < MT_N; i++)
        PyTuple_SET_ITEM(result, i, PyLong_FromUnsignedLong(t.state[i]));
    PyTuple_SET_ITEM(result, MT_N, PyLong_FromLong(t.index));
    return result;
}

/* A writable, C-contiguous buffer of exactly ``length`` items of ``format`` ("f", "b",
 * "d", "?" or "q"); the caller releases it. */
static int get_buffer(PyObject *source, Py_buffer *view, const char *format,
                      Py_ssize_t itemsize, Py_ssize_t length, const char *what) {
    if (PyObject_GetBuffer(source, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *got = view->format == NULL ? "B" : view->format;
    if (got[0] == '<' || got[0] == '=' || got[0] == '@') got++;
    if (view->itemsize != itemsize || strcmp(got, format) != 0 ||
        view->len != itemsize * length) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd contiguous items of format '%s'",
                     what, length, format);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* encode(seat, reacting, observation, mask): the seat's observation (float32) and action
 * mask (int8) written into the arrays, as games/timo/research/codec.py encodes a view. */
static PyObject *engine_encode(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "encode(seat, reacting, observation, mask)");
        return NULL;
    }
    long seat = PyLong_AsLong(args[0]);
    int reacting = PyObject_IsTrue(args[1]);
    if ((seat == -1 && PyErr_Occurred()) || reacting < 0) return NULL;
    if (seat < 0 || seat >= self->game.players) {
        PyErr_Format(PyExc_ValueError, "no seat %ld", seat);
        return NULL;
    }
    Py_buffer obs, mask;
    if (get_buffer(args[2], &obs, "f", 4, OBS_SIZE(self->game.players), "observation") < 0)
        return NULL;
    if (get_buffer(args[3], &mask, "b", 1, N_ACTIONS, "mask") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    encode_obs(&self->game, (int)seat, reacting, (float *)obs.buf, (int8_t *)mask.buf, NULL,
               NULL);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    Py_RETURN_NONE;
}

/* apply_index(seat, index, reacting) -> bool: play an action index if legal now. */
static PyObject *engine_apply_index(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "apply_index(seat, index, reacting)");
        return NULL;
    }
    long seat = PyLong_AsLong(args[0]), index = PyLong_AsLong(args[1]);
    int reacting = PyObject_IsTrue(args[2]);
    if (PyErr_Occurred() || reacting < 0) return NULL;
    if (seat < 0 || seat >= self->game.players || index < 0 || index >= N_ACTIONS)
        Py_RETURN_FALSE;
    return PyBool_FromLong(apply_index(&self->game, (int)seat, (int)index, reacting));
}

/* greedy_index(seat, reacting) -> the index the vector engine's opponents would play. */
static PyObject *engine_greedy_index(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "greedy_index(seat, reacting)");
        return NULL;
    }
    long seat = PyLong_AsLong(args[0]);
    int reacting = PyObject_IsTrue(args[1]);
    if (PyErr_Occurred() || reacting < 0) return NULL;
    if (seat < 0 || seat >= self->game.players) {
        PyErr_Format(PyExc_ValueError, "no seat %ld", seat);
        return NULL;
    }
    return PyLong_FromLong(greedy_index(&self->game, (int)seat, reacting));
}

#define GETTER(field)                                                        \
    static PyObject *get_##field(Engine *self, void *unused) {               \
        return PyLong_FromLong((long)self->game.field);                      \
    }
GETTER(players)
GETTER(turn)
GETTER(exposed)
GETTER(round_winner)
GETTER(version)
GETTER(turn_count)
GETTER(round_no)
GETTER(direction)
GETTER(penalty)
GETTER(dealer)
GETTER(colour)

static PyObject *get_deck(Engine *self, void *unused) {
    return Py_NewRef(self->deck);
}

static PyObject *get_options(Engine *self, void *unused) {
    return Py_NewRef(self->options);
}

static PyObject *get_over(Engine *self, void *unused) {
    return PyBool_FromLong(self->game.over);
}

static PyObject *get_scores(Engine *self, void *unused) {
    const Timo *g = &self->game;
    PyObject *result = PyTuple_New(g->players);
    if (result == NULL) return NULL;
    for (int s = 0; s < g->players; s++) PyTuple_SET_ITEM(result, s, PyLong_FromLong(g->scores[s]));
    return result;
}

static PyGetSetDef engine_getset[] = {
    {"players", (getter)get_players, NULL, "number of seats", NULL},
    {"turn", (getter)get_turn, NULL, "the seat on turn", NULL},
    {"exposed", (getter)get_exposed, NULL, "the seat that may be caught, else -1", NULL},
    {"round_winner", (getter)get_round_winner, NULL, "winner of the last round", NULL},
    {"version", (getter)get_version, NULL, "count of accepted moves", NULL},
    {"turn_count", (getter)get_turn_count, NULL, "plays, draws and passes so far", NULL},
    {"round_no", (getter)get_round_no, NULL, "the round being played (from 1)", NULL},
    {"direction", (getter)get_direction, NULL, "1 when play goes up in seat number, else -1",
     NULL},
    {"penalty", (getter)get_penalty, NULL, "cards the pending +2/+4 penalty draws", NULL},
    {"dealer", (getter)get_dealer, NULL, "the dealer of the round", NULL},
    {"colour", (getter)get_colour, NULL, "the colour in force (index)", NULL},
    {"over", (getter)get_over, NULL, "whether the game has ended", NULL},
    {"deck", (getter)get_deck, NULL, "the Deck the game is played with", NULL},
    {"options", (getter)get_options, NULL, "the resolved options", NULL},
    {"scores", (getter)get_scores, NULL, "scores per seat", NULL},
    {NULL},
};

/* ---- the search bot: determinized Monte Carlo in C -----------------------------------
 * games/timo/bots.py (SearchTimoBot) is its Python face. A small fast generator of its own
 * (splitmix64) drives the sampling and the rollouts: they need no match with Python's
 * random, only to be repeatable from the seed the bot draws. */
typedef struct {
    uint64_t x;
} Mix;

static inline uint64_t mix_next(Mix *m) {
    uint64_t z = (m->x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline int mix_below(Mix *m, int n) {
    return (int)((mix_next(m) >> 32) * (uint64_t)n >> 32);
}

/* Deal again what ``viewer`` cannot see (the others' hands and the draw pile), each hand
 * keeping its size: one state among those its view allows. */
static void determinize(Timo *g, int viewer, Mix *m) {
    uint8_t pool[MAX_CARDS];
    int n = 0;
    for (int seat = 0; seat < g->players; seat++)
        if (seat != viewer) {
            memcpy(pool + n, g->hands[seat], (size_t)g->hand_size[seat]);
            n += g->hand_size[seat];
        }
    memcpy(pool + n, g->draw_pile, (size_t)g->draw_size);
    n += g->draw_size;
    for (int i = n - 1; i > 0; i--) {
        int j = mix_below(m, i + 1);
        uint8_t swap = pool[i];
        pool[i] = pool[j];
        pool[j] = swap;
    }
    int at = 0;
    for (int seat = 0; seat < g->players; seat++)
        if (seat != viewer) {
            memcpy(g->hands[seat], pool + at, (size_t)g->hand_size[seat]);
            at += g->hand_size[seat];
        }
    memcpy(g->draw_pile, pool + at, (size_t)g->draw_size);
    /* Reshuffles inside a rollout follow this sample, not the real game's seed. */
    g->seed = mix_next(m);
    g->rng_counter = 0;
}

/* The colour the rest of ``seat``'s hand follows most (none: the colour in force). */
static int colour_to_name(const Timo *g, int seat, int without) {
    int counts[4] = {0, 0, 0, 0}, any = 0;
    const uint8_t *hand = g->hands[seat];
    for (int i = 0; i < g->hand_size[seat]; i++)
        if (hand[i] != without && g->colour_of[hand[i]] != BLACK) {
            counts[g->colour_of[hand[i]]] += 1;
            any = 1;
        }
    if (!any) return g->colour == BLACK ? 0 : g->colour;
    int named = 0;
    for (int c = 1; c < 4; c++)
        if (counts[c] > counts[named]) named = c;
    return named;
}

/* A rollout move for the seat on turn, as HeuristicTimoBot chooses (bots.py), with a
 * little noise so that rollouts differ: numbers first (high ones, in the colour held
 * most), Stop/Twist/+2 and black cards kept until the next seat is close to going out. */
static int rollout_card(const Timo *g, Mix *m) {
    int seat = g->turn, size = g->hand_size[seat];
    const uint8_t *hand = g->hands[seat];
    if (g->drawn != NOBODY) return g->drawn;
    int next = ((seat + g->direction) % g->players + g->players) % g->players;
    int threat = g->hand_size[next] <= 2, counts[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < size; i++) counts[g->colour_of[hand[i]]]++;
    int best = NOBODY, best_score = -1;
    for (int i = 0; i < size; i++) {
        int card = hand[i];
        if (!playable(g, card)) continue;
        int rank = g->rank_of[card], colour = g->colour_of[card], score;
        if (g->penalty) score = rank == PLUS2 ? 10 : 5;
        else if (colour == BLACK) score = threat ? (rank == PLUS4 ? 70 : 60) : (rank == PLUS4 ? 2 : 1);
        else if (rank < 10) score = 30 + rank + 2 * counts[colour];
        else score = threat ? 80 : 10 + 2 * counts[colour];
        score = score * 4 + mix_below(m, 24);
        if (score > best_score) {
            best_score = score;
            best = card;
        }
    }
    return best;
}

/* Play the round out with rollout_card; everybody remembers TIMO!. */
static void rollout_round(Timo *g, Mix *m) {
    int start_round = g->round_no;
    for (long step = 0; step < 100000 && !g->over && g->round_no == start_round; step++) {
        g->exposed = NOBODY;
        int turn = g->turn, card = rollout_card(g, m);
        if (card == NOBODY) {
            draw_turn(g, turn);
            continue;
        }
        int colour = g->colour_of[card];
        if (colour == BLACK) colour = colour_to_name(g, turn, card);
        play_card(g, turn, card, colour, g->hand_size[turn] == 2);
    }
}

/* What the finished round was worth to ``viewer``: its (or, with teams, its team's)
 * points, or minus an opponent's, in hundreds (bots.py: _round_value). */
static double round_value(const Timo *g, const long *scores_before, int viewer) {
    int winner = g->round_winner;
    if (winner == NOBODY) return 0.0;
    double points = (double)(g->scores[winner] - scores_before[winner]) / 100.0;
    int ours = g->teams ? g->team_of[winner] == g->team_of[viewer] : winner == viewer;
    return ours ? points : -points;
}

/* search(viewer, codes, samples, seed) -> totals: each candidate move code's summed round
 * value over ``samples`` determinizations shared by all candidates. */
static PyObject *engine_search(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "search(viewer, codes, samples, seed)");
        return NULL;
    }
    int viewer;
    if (seat_arg(self, args[0], &viewer) < 0) return NULL;
    PyObject *items = PySequence_Fast(args[1], "codes must be a sequence of move codes");
    if (items == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    long samples = PyLong_AsLong(args[2]);
    unsigned long long seed = PyLong_AsUnsignedLongLong(args[3]);
    if (PyErr_Occurred()) {
        Py_DECREF(items);
        return NULL;
    }
    if (count < 1 || count > MAX_LEGAL || samples < 1) {
        Py_DECREF(items);
        PyErr_SetString(PyExc_ValueError, "search needs 1 or more codes and samples");
        return NULL;
    }
    int codes[MAX_LEGAL];
    for (Py_ssize_t i = 0; i < count; i++) {
        codes[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(items, i));
        if (PyErr_Occurred() || !is_legal(&self->game, viewer, codes[i])) {
            Py_DECREF(items);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "code %d is not legal for seat %d now",
                             codes[i], viewer);
            return NULL;
        }
    }
    Py_DECREF(items);
    double totals[MAX_LEGAL] = {0};
    Mix m = {seed};
    /* A copy: the engine may be used by other threads while this one runs without the
     * interpreter lock. */
    const Timo root = self->game, *base = &root;
    Py_BEGIN_ALLOW_THREADS
    Timo sample, played;
    for (long s = 0; s < samples; s++) {
        sample = *base;
        determinize(&sample, viewer, &m);
        for (Py_ssize_t i = 0; i < count; i++) {
            played = sample;
            apply_code(&played, viewer, codes[i]);
            rollout_round(&played, &m);
            totals[i] += round_value(&played, base->scores, viewer);
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *result = PyList_New(count);
    if (result == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) PyList_SET_ITEM(result, i, PyFloat_FromDouble(totals[i]));
    return result;
}

static PyMethodDef engine_methods[] = {
    {"legal", (PyCFunction)engine_legal, METH_O, "legal(seat) -> the seat's move codes"},
    {"apply", (PyCFunction)(void (*)(void))engine_apply, METH_FASTCALL,
     "apply(seat, code): play a legal move code (ValueError otherwise)"},
    {"apply_action", (PyCFunction)engine_apply_action, METH_O,
     "apply_action(action) -> True if it was a legal move and is now applied"},
    {"view", (PyCFunction)engine_view, METH_O, "view(seat or None) -> TimoView"},
    {"state", (PyCFunction)engine_state, METH_NOARGS, "what changes, as plain data"},
    {"load", (PyCFunction)engine_load, METH_O, "load(state()): overwrite what changes"},
    {"clone", (PyCFunction)engine_clone, METH_NOARGS, "an independent copy"},
    {"encode", (PyCFunction)(void (*)(void))engine_encode, METH_FASTCALL,
     "encode(seat, reacting, observation, mask): the seat's arrays (games/timo/research/codec.py)"},
    {"apply_index", (PyCFunction)(void (*)(void))engine_apply_index, METH_FASTCALL,
     "apply_index(seat, index, reacting) -> bool: play an action index if legal now"},
    {"greedy_index", (PyCFunction)(void (*)(void))engine_greedy_index, METH_FASTCALL,
     "greedy_index(seat, reacting) -> the vector engine opponents' action index"},
    {"greedy_round", (PyCFunction)engine_greedy_round, METH_O,
     "greedy_round(random_words) -> random_words: search-v1's and IS-MCTS's rollout policy"},
    {"search", (PyCFunction)(void (*)(void))engine_search, METH_FASTCALL,
     "search(viewer, codes, samples, seed) -> each code's summed round value"},
    {NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twintable.games.timo._native.Engine",
    .tp_doc = PyDoc_STR("One game of Timo's Twist (see fast.py)."),
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)engine_init,
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_methods = engine_methods,
    .tp_getset = engine_getset,
};

/* ---- the Game methods, as plain functions -------------------------------------------
 * fast.py puts these on FastTimoGame as class attributes: a C function is not bound as a
 * method, so game.view(state, seat) calls it with no Python frame in between. */
static PyObject *one_seat[MAX_PLAYERS], *every_seat[MAX_PLAYERS + 1], *no_seat;

static Engine *engine_of(PyObject *state) {
    if (!Py_IS_TYPE(state, &EngineType)) {
        PyErr_Format(PyExc_TypeError, "expected a Timo engine state, not %.80s",
                     Py_TYPE(state)->tp_name);
        return NULL;
    }
    return (Engine *)state;
}

static PyObject *fn_to_act(PyObject *module, PyObject *state) {
    Engine *self = engine_of(state);
    if (self == NULL) return NULL;
    const Timo *g = &self->game;
    if (g->over) return Py_NewRef(no_seat);
    if (g->exposed != NOBODY) return Py_NewRef(every_seat[g->players]);
    return Py_NewRef(one_seat[g->turn]);
}

static PyObject *fn_is_over(PyObject *module, PyObject *state) {
    Engine *self = engine_of(state);
    if (self == NULL) return NULL;
    return PyBool_FromLong(self->game.over);
}

static PyObject *fn_legal_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "legal_actions(state, seat)");
        return NULL;
    }
    Engine *self = engine_of(args[0]);
    int seat, codes[MAX_LEGAL];
    if (self == NULL || seat_arg(self, args[1], &seat) < 0) return NULL;
    int count = seat < 0 ? 0 : legal_codes(&self->game, seat, codes);
    PyObject *result = PyList_New(count);
    if (result == NULL) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *action = action_of(self, seat, codes[i]);
        if (action == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, Py_NewRef(action));
    }
    return result;
}

static PyObject *fn_view(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "view(state, viewer)");
        return NULL;
    }
    Engine *self = engine_of(args[0]);
    return self == NULL ? NULL : engine_view(self, args[1]);
}

/* Game.apply: a legal move made by this engine's Actions is played here and reports no
 * events; anything else goes to the judge (the reference rules, see fast.py). */
static PyObject *fn_apply(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "apply(state, action)");
        return NULL;
    }
    Engine *self = engine_of(args[0]);
    if (self == NULL) return NULL;
    PyObject *applied = engine_apply_action(self, args[1]);
    if (applied != Py_False) {
        if (applied == NULL) return NULL;
        Py_DECREF(applied);
        return PyList_New(0);
    }
    return PyObject_CallFunctionObjArgs(self->judge, args[0], args[1], NULL);
}

static PyMethodDef module_functions[] = {
    {"to_act", (PyCFunction)fn_to_act, METH_O, "to_act(state) -> seats that may act"},
    {"is_over", (PyCFunction)fn_is_over, METH_O, "is_over(state) -> bool"},
    {"legal_actions", (PyCFunction)(void (*)(void))fn_legal_actions, METH_FASTCALL,
     "legal_actions(state, seat) -> the seat's legal Actions"},
    {"view", (PyCFunction)(void (*)(void))fn_view, METH_FASTCALL,
     "view(state, viewer) -> TimoView"},
    {"apply", (PyCFunction)(void (*)(void))fn_apply, METH_FASTCALL,
     "apply(state, action) -> events (see fast.py)"},
    {NULL},
};

static int make_seat_sets(void) {
    no_seat = PyFrozenSet_New(NULL);
    if (no_seat == NULL) return -1;
    for (int n = 0; n <= MAX_PLAYERS; n++) {
        PyObject *seats = PyList_New(0);
        if (seats == NULL) return -1;
        for (int s = 0; s < n; s++) {
            PyObject *seat = PyLong_FromLong(s);
            if (seat == NULL || PyList_Append(seats, seat) < 0) return -1;
            Py_DECREF(seat);
        }
        every_seat[n] = PyFrozenSet_New(seats);
        Py_DECREF(seats);
        if (every_seat[n] == NULL) return -1;
        if (n < MAX_PLAYERS) {
            PyObject *single = Py_BuildValue("(i)", n);
            if (single == NULL) return -1;
            one_seat[n] = PyFrozenSet_New(single);
            Py_DECREF(single);
            if (one_seat[n] == NULL) return -1;
        }
    }
    return 0;
}

/* ---- the vector engine: many games stepped together (envs/timo_vector.py) ---------------
 * Each slot is one game in which seat ``learner`` is played from outside and every other
 * seat by greedy_index, with timo_v0's question order for TIMO! races. step() writes the
 * learner's observation, mask, reward and termination straight into NumPy arrays, with
 * the GIL released and the slots split between threads. */
typedef struct {
    Timo game;
    int asked[MAX_PLAYERS], asked_count, asked_head;
    int needs_reset, broken;
    uint64_t episode;
    /* The move code of each of the learner's legal indices (-1: not legal), kept where
     * callers cannot write: step() checks and plays actions with it. */
    int16_t code_of[N_ACTIONS];
    /* The discard pile counted by type, kept up to date by adding what was played since
     * the last step: the pile only grows, except when a reshuffle or a new round starts it
     * again, and each of those draws a new random stream (rng_counter moves). */
    float discard_types[CARD_TYPES];
    int discard_counted;
    uint64_t counted_stream;
    /* Who plays the other seats: OPPONENT_GREEDY (greedy_code) or OPPONENT_RANDOM
     * (uniform over what the seat is asked, from ``rng``, reseeded from each deal). */
    int opponent;
    uint64_t rng;
} Slot;

#define OPPONENT_GREEDY 0
#define OPPONENT_RANDOM 1

static uint64_t splitmix_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniformly random move among those ``seat`` is asked now (NOBODY: wait): in a race,
 * its catch or call, or wait; on its turn, any legal move. */
static int random_code(const Timo *g, int seat, int reacting, uint64_t *rng) {
    int codes[MAX_LEGAL], options[MAX_LEGAL + 1], count = legal_codes(g, seat, codes), n = 0;
    for (int i = 0; i < count; i++)
        if (!reacting || codes[i] >= CODE_CALL) options[n++] = codes[i];
    if (reacting) options[n++] = NOBODY;
    return n ? options[splitmix_next(rng) % (uint64_t)n] : NOBODY;
}

typedef struct {
    PyObject_HEAD
    Timo blank;             /* the deck and options; no game dealt */
    Slot *slots;
    Py_ssize_t count;
    int learner, threads, started;
    uint64_t base_seed;
    Py_buffer obs, mask, reward, terminated;
    int buffers_held;
    struct Pool *pool;      /* the worker threads, started at the first step; NULL before */
} Vector;

static int slot_next(const Slot *s) {
    return s->asked_head < s->asked_count ? s->asked[s->asked_head] : s->game.turn;
}

/* Play move ``code`` for ``seat`` (NOBODY: wait), which the caller knows to be legal, and
 * keep timo_v0's question order; adds the learner's share of the points this move scored
 * to ``reward``. Returns 0, changing nothing, for a wait when not reacting. */
static int slot_play(Slot *s, int seat, int code, int reacting, int learner, double *reward) {
    Timo *g = &s->game;
    if (code == NOBODY) {
        if (!reacting) return 0;
        s->asked_head++;
        return 1;
    }
    /* Scores change only when a round ends, and then a round starts or the game ends. */
    int rounds = g->round_no + g->over;
    long before[MAX_PLAYERS];
    memcpy(before, g->scores, sizeof before);
    apply_code(g, seat, code);
    if (g->exposed == NOBODY) {
        s->asked_count = s->asked_head = 0;
    } else if (!reacting && code < CODE_CALL) {
        s->asked_count = race_order(g, s->asked);
        s->asked_head = 0;
    }
    if (g->round_no + g->over != rounds) {
        long gained = 0;
        for (int p = 0; p < g->players; p++) gained += g->scores[p] - before[p];
        *reward += (double)(g->players * (g->scores[learner] - before[learner]) - gained) /
                   (100.0 * g->players);
    }
    return 1;
}

/* The other seats play until the learner must act or the game is over. */
static void slot_advance(Slot *s, int learner, double *reward) {
    Timo *g = &s->game;
    for (long guard = 0; !g->over && guard < 10000000; guard++) {
        int seat = slot_next(s);
        if (seat == learner) return;
        int reacting = s->asked_head < s->asked_count;
        int code = s->opponent == OPPONENT_RANDOM ? random_code(g, seat, reacting, &s->rng)
                                                  : greedy_code(g, seat, reacting);
        if (!slot_play(s, seat, code, reacting, learner, reward)) {
            s->broken = 1; /* the policy waited on its own move: a bug, reported */
            return;
        }
    }
}

static uint64_t slot_seed(const Vector *v, Py_ssize_t i, uint64_t episode) {
    return v->base_seed + (uint64_t)i + episode * (uint64_t)v->count;
}

/* Deal the slot's next episode; an episode that ends before the learner acts is skipped. */
static void slot_start(Vector *v, Py_ssize_t i) {
    Slot *s = &v->slots[i];
    double ignored = 0;
    for (;;) {
        s->game = v->blank;
        s->game.seed = slot_seed(v, i, s->episode);
        s->rng = s->game.seed ^ 0x5851F42D4C957F2DULL;
        s->counted_stream = UINT64_MAX; /* a new game: count its discard pile afresh */
        new_game(&s->game);
        s->asked_count = s->asked_head = 0;
        s->needs_reset = 0;
        slot_advance(s, v->learner, &ignored);
        if (!s->game.over || s->broken) return;
        s->episode++;
    }
}

static void slot_encode(Vector *v, Py_ssize_t i) {
    Slot *s = &v->slots[i];
    const Timo *g = &s->game;
    int size = OBS_SIZE(g->players);
    float *obs = (float *)v->obs.buf + i * size;
    int8_t *mask = (int8_t *)v->mask.buf + i * N_ACTIONS;
    if (g->rng_counter != s->counted_stream || g->discard_size < s->discard_counted) {
        count_discard(g, s->discard_types);
    } else {
        for (int at = s->discard_counted; at < g->discard_size; at++)
            s->discard_types[card_type(g, g->discard[at])] += 1;
    }
    s->discard_counted = g->discard_size;
    s->counted_stream = g->rng_counter;
    encode_obs(g, v->learner, s->asked_head < s->asked_count, obs, mask, s->discard_types,
               s->code_of);
    if (g->over) {
        memset(mask, 0, N_ACTIONS);
        memset(s->code_of, 0xff, sizeof s->code_of);
    }
}

typedef struct {
    Vector *v;
    Py_ssize_t lo, hi;
    const int64_t *actions; /* NULL: reset */
} Chunk;

static void *run_chunk(void *arg) {
    Chunk *c = (Chunk *)arg;
    Vector *v = c->v;
    double *reward = (double *)v->reward.buf;
    uint8_t *terminated = (uint8_t *)v->terminated.buf;
    for (Py_ssize_t i = c->lo; i < c->hi; i++) {
        Slot *s = &v->slots[i];
        reward[i] = 0;
        terminated[i] = 0;
        if (c->actions == NULL) {
            s->episode = 0;
            s->broken = 0;
            slot_start(v, i);
        } else if (s->needs_reset) {
            s->episode++;
            slot_start(v, i);
        } else {
            int reacting = s->asked_head < s->asked_count, index = (int)c->actions[i];
            /* step() checked the index against code_of: play its code directly. */
            slot_play(s, v->learner, index == INDEX_WAIT ? NOBODY : s->code_of[index],
                      reacting, v->learner, &reward[i]);
            slot_advance(s, v->learner, &reward[i]);
            if (s->game.over) {
                terminated[i] = 1;
                s->needs_reset = 1;
            }
        }
        slot_encode(v, i);
    }
    return NULL;
}

#define MAX_THREADS 64

/* Worker threads kept alive between steps (creating threads every step costs more than a
 * small batch's games): chunk 0 runs on the calling thread, chunk t on worker t - 1. A
 * step bumps ``generation`` under the lock and wakes the workers; each runs its chunk
 * and the last to finish wakes the caller. Workers share nothing they write but the
 * counters below, under the lock; their slots are far apart in memory. */
typedef struct Pool {
    Chunk chunks[MAX_THREADS];
    int workers;            /* threads started (chunks 1 .. workers) */
    int running;            /* chunks 1 .. running have work this generation */
#ifdef HAVE_THREADS
    pthread_t ids[MAX_THREADS];
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    unsigned long generation;
    int pending, stopping;
    pid_t owner;            /* a forked child has none of these threads: it starts afresh */
#endif
} Pool;

#ifdef HAVE_THREADS
typedef struct {
    Pool *pool;
    int chunk;
} Worker;

static void *pool_worker(void *arg) {
    Pool *pool = ((Worker *)arg)->pool;
    int chunk = ((Worker *)arg)->chunk;
    free(arg);
    unsigned long seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->generation == seen && !pool->stopping)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stopping) break;
        seen = pool->generation;
        if (chunk > pool->running) continue;
        pthread_mutex_unlock(&pool->lock);
        run_chunk(&pool->chunks[chunk]);
        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0) pthread_cond_signal(&pool->finished);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void pool_stop(Pool *pool) {
    if (pool->owner == getpid()) {
        pthread_mutex_lock(&pool->lock);
        pool->stopping = 1;
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
        for (int t = 1; t <= pool->workers; t++) pthread_join(pool->ids[t], NULL);
        pthread_mutex_destroy(&pool->lock);
        pthread_cond_destroy(&pool->wake);
        pthread_cond_destroy(&pool->finished);
    }
    pool->workers = 0;
}

/* Start up to ``wanted`` workers (fewer if the system gives fewer). */
static void pool_start(Pool *pool, int wanted) {
    memset(pool, 0, sizeof *pool);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->finished, NULL);
    pool->owner = getpid();
    for (int t = 1; t <= wanted; t++) {
        Worker *arg = malloc(sizeof *arg);
        if (arg == NULL) break;
        arg->pool = pool;
        arg->chunk = t;
        if (pthread_create(&pool->ids[t], NULL, pool_worker, arg) != 0) {
            free(arg);
            break;
        }
        pool->workers = t;
    }
}
#endif

static void pool_free(Pool *pool) {
    if (pool == NULL) return;
#ifdef HAVE_THREADS
    pool_stop(pool);
#endif
    free(pool);
}

static void run_chunks(Vector *v, const int64_t *actions) {
    int threads = v->threads;
    if (v->count < 64 * threads) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    Chunk single;
    Pool *pool = v->pool;
    if (threads > 1 && pool == NULL) {
        pool = v->pool = calloc(1, sizeof *pool);
#ifdef HAVE_THREADS
        if (pool != NULL) pool_start(pool, threads - 1);
#endif
    }
#ifdef HAVE_THREADS
    if (pool != NULL && pool->owner != getpid()) {
        pool->workers = 0; /* forked: the threads stayed with the parent */
        pool_start(pool, threads - 1);
    }
#endif
    Chunk *chunks = threads > 1 && pool != NULL ? pool->chunks : &single;
    if (chunks == &single) threads = 1;
    for (int t = 0; t < threads; t++) {
        chunks[t].v = v;
        chunks[t].lo = v->count * t / threads;
        chunks[t].hi = v->count * (t + 1) / threads;
        chunks[t].actions = actions;
    }
#ifdef HAVE_THREADS
    int helped = threads > 1 ? (pool->workers < threads - 1 ? pool->workers : threads - 1) : 0;
    if (helped > 0) {
        pthread_mutex_lock(&pool->lock);
        pool->running = helped;
        pool->pending = helped;
        pool->generation++;
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
    }
    run_chunk(&chunks[0]);
    for (int t = helped + 1; t < threads; t++) run_chunk(&chunks[t]); /* no worker for it */
    if (helped > 0) {
        pthread_mutex_lock(&pool->lock);
        while (pool->pending > 0) pthread_cond_wait(&pool->finished, &pool->lock);
        pthread_mutex_unlock(&pool->lock);
    }
#else
    for (int t = 0; t < threads; t++) run_chunk(&chunks[t]);
#endif
}

static void vector_release(Vector *v) {
    if (v->buffers_held) {
        PyBuffer_Release(&v->obs);
        PyBuffer_Release(&v->mask);
        PyBuffer_Release(&v->reward);
        PyBuffer_Release(&v->terminated);
        v->buffers_held = 0;
    }
}

static void vector_dealloc(Vector *self) {
    pool_free(self->pool); /* the workers never take the GIL: joining them here is safe */
    self->pool = NULL;
    vector_release(self);
    PyMem_Free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int vector_init(Vector *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"colours", "ranks", "points", "players", "stacking",
                            "draw_when_able", "target", "learner", "threads", "observations",
                            "masks", "rewards", "terminations", "hand_size", NULL};
    PyObject *colours, *ranks, *points, *obs, *mask, *reward, *terminated;
    int players, stacking, draw_when_able, learner, threads, deal = HAND_SIZE;
    long target;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "SSSippliiOOOO|i", names, &colours, &ranks,
                                     &points, &players, &stacking, &draw_when_able, &target,
                                     &learner, &threads, &obs, &mask, &reward, &terminated,
                                     &deal))
        return -1;
    Py_ssize_t card_count = PyBytes_GET_SIZE(colours);
    if (players < 2 || players > MAX_PLAYERS || deal < 1 || card_count < 2 + deal * players ||
        card_count > MAX_CARDS || learner < 0 || learner >= players || threads < 1) {
        PyErr_SetString(PyExc_ValueError, "players, deck, learner or threads out of range");
        return -1;
    }
    vector_release(self);
    pool_free(self->pool);
    self->pool = NULL;
    Timo *g = &self->blank;
    memset(g, 0, sizeof *g);
    if (read_bytes(colours, g->colour_of, card_count, "colours") < 0 ||
        read_bytes(ranks, g->rank_of, card_count, "ranks") < 0 ||
        read_bytes(points, g->points_of, card_count, "points") < 0)
        return -1;
    g->players = players;
    g->card_count = (int)card_count;
    g->stacking = stacking;
    g->draw_when_able = draw_when_able;
    g->deal = deal;
    g->target = target;
    g->round_winner = NOBODY;
    if (PyObject_GetBuffer(reward, &self->reward, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    Py_ssize_t count = self->reward.len / (Py_ssize_t)sizeof(double);
    PyBuffer_Release(&self->reward);
    if (count < 1) {
        PyErr_SetString(PyExc_ValueError, "rewards must hold one float64 per game");
        return -1;
    }
    if (get_buffer(obs, &self->obs, "f", 4, count * OBS_SIZE(players), "observations") < 0)
        return -1;
    if (get_buffer(mask, &self->mask, "b", 1, count * N_ACTIONS, "masks") < 0) {
        PyBuffer_Release(&self->obs);
        return -1;
    }
    if (get_buffer(reward, &self->reward, "d", 8, count, "rewards") < 0) {
        PyBuffer_Release(&self->obs);
        PyBuffer_Release(&self->mask);
        return -1;
    }
    if (get_buffer(terminated, &self->terminated, "?", 1, count, "terminations") < 0) {
        PyBuffer_Release(&self->obs);
        PyBuffer_Release(&self->mask);
        PyBuffer_Release(&self->reward);
        return -1;
    }
    self->buffers_held = 1;
    PyMem_Free(self->slots);
    self->slots = PyMem_Calloc((size_t)count, sizeof(Slot));
    if (self->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->count = count;
    self->learner = learner;
    self->threads = threads;
    self->started = 0;
    return 0;
}

static PyObject *vector_broken(Vector *self) {
    for (Py_ssize_t i = 0; i < self->count; i++)
        if (self->slots[i].broken) {
            PyErr_Format(PyExc_RuntimeError, "game %zd: the opponents' policy chose an "
                         "illegal move (a bug in the vector engine)", i);
            return NULL;
        }
    Py_RETURN_NONE;
}

/* reset(seed): every game deals episode 0 of its seed (seed + game index). */
static PyObject *vector_reset(Vector *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    self->base_seed = seed;
    Py_BEGIN_ALLOW_THREADS
    run_chunks(self, NULL);
    Py_END_ALLOW_THREADS
    self->started = 1;
    return vector_broken(self);
}

/* step(actions): the learner's action index in every game (int64), all checked first: if
 * one is not legal, nothing changes and (game, index) of the first such comes back. */
static PyObject *vector_step(Vector *self, PyObject *arg) {
    if (!self->started) {
        PyErr_SetString(PyExc_RuntimeError, "reset() before step()");
        return NULL;
    }
    Py_buffer actions;
    if (PyObject_GetBuffer(arg, &actions, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    const char *format = actions.format == NULL ? "B" : actions.format;
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (actions.itemsize != 8 || (strcmp(format, "l") != 0 && strcmp(format, "q") != 0) ||
        actions.len != 8 * self->count) {
        PyBuffer_Release(&actions);
        PyErr_Format(PyExc_ValueError, "actions must be %zd int64 indices", self->count);
        return NULL;
    }
    const int64_t *indices = (const int64_t *)actions.buf;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        const Slot *s = &self->slots[i];
        if (s->needs_reset) continue;
        int64_t index = indices[i];
        int reacting = s->asked_head < s->asked_count;
        if (index < 0 || index >= N_ACTIONS ||
            (index == INDEX_WAIT ? !reacting : s->code_of[index] < 0)) {
            PyBuffer_Release(&actions);
            return Py_BuildValue("(nL)", i, (long long)index);
        }
    }
    Py_BEGIN_ALLOW_THREADS
    run_chunks(self, indices);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&actions);
    return vector_broken(self);
}

/* The engine state of one game, as Engine.state() gives it (for tests and debugging). */
static PyObject *vector_episode(Vector *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "no such game");
        return NULL;
    }
    const Slot *s = &self->slots[i];
    return Py_BuildValue("(KKi)", (unsigned long long)s->episode,
                         (unsigned long long)s->game.seed, s->asked_head < s->asked_count);
}

/* result(game) -> (scores, round winner, over): how the game in that slot stands; at the
 * step that ends a game, before the next step deals its next episode, its final result. */
static PyObject *vector_result(Vector *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->count) {
        PyErr_SetString(PyExc_IndexError, "no such game");
        return NULL;
    }
    const Timo *g = &self->slots[i].game;
    PyObject *scores = PyTuple_New(g->players);
    if (scores == NULL) return NULL;
    for (int p = 0; p < g->players; p++)
        PyTuple_SET_ITEM(scores, p, PyLong_FromLong(g->scores[p]));
    return Py_BuildValue("(Nii)", scores, g->over ? g->round_winner : -1, g->over);
}

/* restart_ended(): deal the next episode of every game that has just ended, at once
 * (Gymnasium's same-step autoreset), leaving the other games where they are; it writes
 * those games' observations and masks, not their rewards or terminations. */
static PyObject *vector_restart_ended(Vector *self, PyObject *Py_UNUSED(ignored)) {
    if (!self->buffers_held) {
        PyErr_SetString(PyExc_RuntimeError, "the vector engine was not set up");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < self->count; i++) {
        Slot *s = &self->slots[i];
        if (!s->needs_reset) continue;
        s->episode++;
        slot_start(self, i);
        slot_encode(self, i);
    }
    return vector_broken(self);
}

/* set_opponents(kinds): one byte per game, OPPONENT_GREEDY or OPPONENT_RANDOM; takes
 * effect from the next move. */
static PyObject *vector_set_opponents(Vector *self, PyObject *arg) {
    Py_buffer kinds;
    if (PyObject_GetBuffer(arg, &kinds, PyBUF_SIMPLE) < 0) return NULL;
    if (kinds.len != self->count) {
        PyBuffer_Release(&kinds);
        PyErr_SetString(PyExc_ValueError, "give one opponent kind per game");
        return NULL;
    }
    const uint8_t *kind = kinds.buf;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        if (kind[i] > OPPONENT_RANDOM) {
            PyBuffer_Release(&kinds);
            PyErr_SetString(PyExc_ValueError, "unknown opponent kind");
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < self->count; i++) self->slots[i].opponent = kind[i];
    PyBuffer_Release(&kinds);
    Py_RETURN_NONE;
}

static PyMethodDef vector_methods[] = {
    {"reset", (PyCFunction)vector_reset, METH_O, "reset(seed): deal every game afresh"},
    {"step", (PyCFunction)vector_step, METH_O,
     "step(actions) -> None, or (game, index) of the first illegal action (nothing changed)"},
    {"episode", (PyCFunction)vector_episode, METH_O,
     "episode(game) -> (episode number, engine seed, learner asked about a race)"},
    {"restart_ended", (PyCFunction)vector_restart_ended, METH_NOARGS,
     "restart_ended(): deal the next episode of every game that has just ended"},
    {"set_opponents", (PyCFunction)vector_set_opponents, METH_O,
     "set_opponents(kinds): one byte per game, 0 greedy, 1 random"},
    {"result", (PyCFunction)vector_result, METH_O,
     "result(game) -> (scores, winner or -1, over): how that game stands"},
    {NULL},
};

static PyTypeObject VectorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twintable.games.timo._native.Vector",
    .tp_doc = PyDoc_STR("Many games of Timo's Twist, one learning seat each (timo_vector.py)."),
    .tp_basicsize = sizeof(Vector),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)vector_init,
    .tp_dealloc = (destructor)vector_dealloc,
    .tp_methods = vector_methods,
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "_native", "Timo's Twist rules in C (see fast.py).", -1,
    module_functions,
};

PyMODINIT_FUNC PyInit__native(void) {
    twister_make_base();
    if (PyType_Ready(&EngineType) < 0 || PyType_Ready(&VectorType) < 0 ||
        make_seat_sets() < 0)
        return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL) return NULL;
    if (PyModule_AddObjectRef(module, "Engine", (PyObject *)&EngineType) < 0 ||
        PyModule_AddObjectRef(module, "Vector", (PyObject *)&VectorType) < 0 ||
        PyModule_AddIntConstant(module, "N_ACTIONS", N_ACTIONS) < 0 ||
        PyModule_AddIntConstant(module, "CODE_DRAW", CODE_DRAW) < 0 ||
        PyModule_AddIntConstant(module, "CODE_PASS", CODE_PASS) < 0 ||
        PyModule_AddIntConstant(module, "CODE_CALL", CODE_CALL) < 0 ||
        PyModule_AddIntConstant(module, "CODE_CATCH", CODE_CATCH) < 0 ||
        PyModule_AddIntConstant(module, "CODE_COUNT", CODE_COUNT) < 0 ||
        PyModule_AddIntConstant(module, "MAX_CARDS", MAX_CARDS) < 0 ||
        PyModule_AddIntConstant(module, "MAX_PLAYERS", MAX_PLAYERS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
