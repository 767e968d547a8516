/* Twinz in C, for the environment (games/twinz/env.py, ``twinz_v1``): the same rounds,
 * clues, reveals with their penalties, guessing race with its tie window, contests,
 * timers and ticks as rules.py and env.py's raw_env, step for step, with the
 * observation and the action mask written straight into numpy buffers.
 *
 * rules.py stays the reference (tables, views, bots, the environment's ``native=False``
 * and every option this engine does not cover use it); this module exists because issue
 * 41 asks the environment for half of ``timo_v0``'s steps per second, which the
 * interpreter cannot give (bench/envs_all.py). tests/games/twinz/test_native.py plays
 * both side by side.
 *
 * Words are vocabulary indices. The word checks of the rules come as integer tables
 * (games/twinz/native_tables.py): each card word's mystery id, the indices of the word
 * and of its plain plurals (a right guess), the clues the root rule refuses for it. The
 * vocabulary holds one entry per folded form, so equal indices are equal folded words
 * (a reused clue, both duo members giving the same clue).
 *
 * Chance is drawn exactly as core/rng.py draws it: each use seeds a fresh Mersenne
 * Twister from (seed << 32) ^ counter, the way CPython's random.Random(int) does, and
 * shuffles and draws below n the way random.py does. The twister is the engines' shared
 * one (core/native/mt19937.h, whose equivalence with CPython Timo's tests check).
 *
 * The engine logs every move and every tick that fired a timer (log()), so env.py
 * rebuilds the rules' full state (history, recap, attempts) by replaying them on
 * rules.py when someone reads it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEATS 10
#define MAX_PILE 21
#define MAX_USED (4 * MAX_PILE)
#define USED_ROOM 128
#define LINES 6
#define MAX_CARDS 4096
#define NONE (-1)

#define PHASE_DRAW 0
#define PHASE_CLUES 1
#define PHASE_GUESSES 2
#define PHASE_OVER 3

#define A_WAIT 0
#define A_DRAW 1
#define A_CONTEST_FIRST 2
#define A_CONTEST_SECOND 3
#define A_UPHOLD 4
#define A_DISMISS 5
#define WORD_BASE 6

/* Step results (step()'s flags). */
#define F_SCORED 1
#define F_OVER 2
#define F_TRUNCATED 4

/* The observation's layout (env.py's OBSERVATION, checked there at import). */
#define O_PRESENT 0
#define O_DUO_FIRST (O_PRESENT + MAX_SEATS)
#define O_DUO_SECOND (O_DUO_FIRST + MAX_SEATS)
#define O_PHASE (O_DUO_SECOND + MAX_SEATS)
#define O_ATTEMPT (O_PHASE + 4)
#define O_LINE (O_ATTEMPT + 2)
#define O_PILE (O_LINE + LINES)
#define O_ROUND (O_PILE + 1)
#define O_COUNTDOWN (O_ROUND + 1)
#define O_CLUE_DUE (O_COUNTDOWN + 1)
#define O_GUESS_DUE (O_CLUE_DUE + 1)
#define O_MYSTERY (O_GUESS_DUE + 1)
#define O_CLUE_GIVEN (O_MYSTERY + 1)
#define O_MY_CLUE (O_CLUE_GIVEN + 2)
#define O_REVEALED (O_MY_CLUE + 1)
#define O_CLUES (O_REVEALED + 1)
#define O_GUESSED (O_CLUES + 2)
#define O_GUESS (O_GUESSED + MAX_SEATS)
#define O_HIDDEN (O_GUESS + MAX_SEATS)
#define O_USED (O_HIDDEN + MAX_SEATS)
#define O_POINTS (O_USED + MAX_USED)
#define O_CARDS (O_POINTS + MAX_SEATS)
#define O_CONTEST (O_CARDS + MAX_SEATS)
#define O_VOTES (O_CONTEST + 2)
#define O_SIZE (O_VOTES + 1)

/* CPython's Mersenne Twister, seeded and used as random.Random(int) is: shared by the
 * engines (core/native/mt19937.h). */
#include "mt19937.h"
#include "env_glue.h"

/* ---- the game ----------------------------------------------------------------------- */
typedef struct {
    int seat, index; /* seat -1: the clock ran the timers due at t */
    long long t;
} Entry;

typedef struct {
    /* options and tables, fixed for the engine's life */
    int players, pile_size, countdown_s, grace_ms, guess_timeout_s, tie_ms, accept_plural;
    int result_pause_ms, read_ms, dt, n_words, n_cards;
    long long max_ticks; /* NONE: no cap */
    int *backs, *card_words, *matches, *starts, *refused;
    /* the rules' state */
    uint64_t seed, counter;
    int phase, pile[MAX_PILE], pile_n, card, orientation, line, duo[2], round_no, attempt;
    long long opened_ms, pause_until, countdown_ends, clue_due, guess_due, tie_due;
    int points[MAX_SEATS], cards_won[MAX_SEATS];
    int clue_word[2]; /* by duo position; NONE: not given */
    long long clue_t[2];
    int revealed, revealed_word[2];
    int used[USED_ROOM], n_used;
    int guess_word[MAX_SEATS], hidden[MAX_SEATS], right[MAX_SEATS], n_right;
    int contest, vote[MAX_SEATS], n_votes, dismissed[2];
    /* the environment's clock and turns */
    long long now_ms, tick;
    int turns[MAX_SEATS], n_turns, turn;
    /* moves and timer runs since the reset */
    Entry *log;
    Py_ssize_t n_log, log_room;
} Twinz;

static int log_entry(Twinz *g, int seat, int index, long long t) {
    if (g->n_log == g->log_room) {
        Py_ssize_t room = g->log_room ? 2 * g->log_room : 1024;
        Entry *grown = realloc(g->log, (size_t)room * sizeof(Entry));
        if (grown == NULL) return -1;
        g->log = grown;
        g->log_room = room;
    }
    g->log[g->n_log++] = (Entry){seat, index, t};
    return 0;
}

static uint32_t draw_below(Twinz *g, uint32_t n) {
    Twister t;
    g->counter++;
    twister_seed(&t, g->seed, g->counter);
    return twister_below(&t, n);
}

static inline int mystery_id(const Twinz *g) {
    return g->card_words[g->card * 2 * LINES + (g->line - 1) * 2 + g->orientation];
}

static inline int duo_position(const Twinz *g, int seat) {
    return seat == g->duo[0] ? 0 : seat == g->duo[1] ? 1 : NONE;
}

static void lose(Twinz *g, int seat, int amount) {
    g->points[seat] = g->points[seat] > amount ? g->points[seat] - amount : 0;
}

static void clear_attempt(Twinz *g) {
    for (int i = 0; i < 2; i++) {
        g->clue_word[i] = NONE;
        g->revealed_word[i] = NONE;
        g->dismissed[i] = 0;
    }
    g->revealed = 0;
    for (int seat = 0; seat < MAX_SEATS; seat++) {
        g->guess_word[seat] = NONE;
        g->hidden[seat] = 0;
        g->vote[seat] = NONE;
    }
    g->n_right = 0;
    g->n_votes = 0;
    g->tie_due = NONE;
    g->contest = NONE;
}

static void start_round(Twinz *g, long long t, int first) {
    if (g->pile_n <= 1) {
        g->phase = PHASE_OVER;
        return;
    }
    if (!first) {
        int second = g->duo[1];
        g->duo[0] = second;
        g->duo[1] = (second + 1) % g->players;
    }
    g->round_no++;
    g->opened_ms = t;
    int pause = first ? 0 : g->result_pause_ms;
    g->pause_until = pause > 0 ? t + pause : NONE;
    g->card = g->pile[--g->pile_n];
    g->orientation = (int)draw_below(g, 2);
    g->line = g->backs[g->pile[g->pile_n - 1]];
    g->attempt = 1;
    g->phase = PHASE_DRAW;
    clear_attempt(g);
}

static void open_clues(Twinz *g, long long t) {
    g->phase = PHASE_CLUES;
    clear_attempt(g);
    g->countdown_ends = t + g->read_ms + (long long)g->countdown_s * 1000;
    g->clue_due = g->countdown_ends + 2LL * g->grace_ms;
}

static int is_used(const Twinz *g, int word) {
    for (int i = 0; i < g->n_used; i++)
        if (g->used[i] == word) return 1;
    return 0;
}

static int is_refused(const Twinz *g, int mystery, int word) {
    int low = g->starts[mystery], high = g->starts[mystery + 1];
    while (low < high) {
        int middle = (low + high) / 2;
        if (g->refused[middle] < word) low = middle + 1;
        else high = middle;
    }
    return low < g->starts[mystery + 1] && g->refused[low] == word;
}

static void reveal(Twinz *g, long long t) {
    int mystery = mystery_id(g), penalties[2] = {0, 0}, root = 0;
    long long late_after = g->countdown_ends + g->grace_ms;
    for (int i = 0; i < 2; i++) {
        int word = g->clue_word[i];
        if (word == NONE) {
            penalties[i]++;
            continue;
        }
        if (g->clue_t[i] > late_after) penalties[i]++;
        if (is_used(g, word)) penalties[i]++;
        if (is_refused(g, mystery, word)) {
            penalties[i]++;
            root = 1;
        }
    }
    int same = g->clue_word[0] != NONE && g->clue_word[0] == g->clue_word[1];
    for (int i = 0; i < 2; i++) {
        lose(g, g->duo[i], penalties[i] + (same ? 2 : 0));
        int word = g->clue_word[i];
        if (word != NONE && !is_used(g, word) && g->n_used < USED_ROOM)
            g->used[g->n_used++] = word;
        g->revealed_word[i] = word;
    }
    g->revealed = 1;
    if (root) {
        start_round(g, t, 0);
        return;
    }
    g->phase = PHASE_GUESSES;
    g->guess_due = t + (long long)g->guess_timeout_s * 1000;
}

static void found(Twinz *g, long long t) {
    for (int i = 0; i < 2; i++) g->points[g->duo[i]]++;
    if (g->n_right == 1) g->cards_won[g->right[0]]++;
    else
        for (int i = 0; i < g->n_right; i++) g->points[g->right[i]]++;
    start_round(g, t, 0);
}

static void attempt_failed(Twinz *g, long long t) {
    if (g->attempt == 1) {
        g->attempt = 2;
        open_clues(g, t);
        return;
    }
    for (int i = 0; i < 2; i++) lose(g, g->duo[i], 1);
    start_round(g, t, 0);
}

static void count_votes(Twinz *g, long long t) {
    int voters = g->players - 2, yes = 0;
    for (int seat = 0; seat < g->players; seat++) yes += g->vote[seat] == 1;
    int no = g->n_votes - yes, member = g->contest;
    if (yes * 2 > voters) {
        lose(g, member, 1);
        start_round(g, t, 0);
    } else if (no * 2 >= voters) {
        g->contest = NONE;
        for (int seat = 0; seat < MAX_SEATS; seat++) g->vote[seat] = NONE;
        g->n_votes = 0;
        g->dismissed[duo_position(g, member)] = 1;
    }
}

static void guess(Twinz *g, int seat, int word, long long t) {
    g->guess_word[seat] = word;
    int at = 3 * mystery_id(g);
    int right = word == g->matches[at] ||
                (g->accept_plural && (word == g->matches[at + 1] || word == g->matches[at + 2]));
    if (right) g->right[g->n_right++] = seat;
    int everyone = 1;
    for (int other = 0; other < g->players; other++)
        if (duo_position(g, other) == NONE && g->guess_word[other] == NONE) everyone = 0;
    if (g->tie_due == NONE && !right) {
        if (everyone) attempt_failed(g, t);
        return;
    }
    g->hidden[seat] = 1;
    if (g->tie_due == NONE) g->tie_due = t + g->tie_ms;
    if (g->tie_ms == 0 || everyone) found(g, t);
}

/* TwinzGame.deadline: the timer that fires next, NONE when none is set. */
static long long deadline(const Twinz *g) {
    switch (g->phase) {
    case PHASE_DRAW: return g->pause_until;
    case PHASE_CLUES: return g->clue_due;
    case PHASE_GUESSES: return g->tie_due != NONE ? g->tie_due : g->guess_due;
    default: return NONE;
    }
}

/* core.table_engine.run_timers: every timer run out by now, each at its deadline. */
static int run_timers(Twinz *g, long long now) {
    int fired = 0;
    while (g->phase != PHASE_OVER) {
        long long due = deadline(g);
        if (due == NONE || due > now) break;
        fired++;
        if (g->phase == PHASE_DRAW) g->pause_until = NONE;
        else if (g->phase == PHASE_CLUES) reveal(g, due);
        else if (g->tie_due != NONE) found(g, due);
        else attempt_failed(g, due);
    }
    return fired;
}

/* env.py's state_moves: the seat's moves below WORD_BASE (a bit set of indices) and
 * whether it may say a word. */
static int moves(const Twinz *g, int seat, int *words) {
    int at = duo_position(g, seat), found_moves = 0;
    *words = 0;
    switch (g->phase) {
    case PHASE_DRAW:
        return at != NONE && g->pause_until == NONE ? 1 << A_DRAW : 0;
    case PHASE_CLUES:
        *words = at != NONE && g->clue_word[at] == NONE;
        return 0;
    case PHASE_GUESSES:
        if (at != NONE) return 0;
        if (g->contest == NONE && g->tie_due == NONE)
            for (int i = 0; i < 2; i++)
                if (g->revealed_word[i] != NONE && !g->dismissed[i])
                    found_moves |= 1 << (A_CONTEST_FIRST + i);
        if (g->contest != NONE && g->vote[seat] == NONE)
            found_moves |= (1 << A_UPHOLD) | (1 << A_DISMISS);
        *words = g->guess_word[seat] == NONE;
        return found_moves;
    default:
        return 0;
    }
}

static int legal(const Twinz *g, int seat, long index) {
    if (g->phase == PHASE_OVER || index < 0 || index >= WORD_BASE + g->n_words) return 0;
    if (index == A_WAIT) return 1;
    int words, small = moves(g, seat, &words);
    return index < WORD_BASE ? (small >> index) & 1 : words;
}

static void start_tick(Twinz *g) {
    int first = (int)(g->tick % g->players);
    g->n_turns = 0;
    for (int step = 0; step < g->players; step++) {
        int seat = (first + step) % g->players, words;
        if (moves(g, seat, &words) || words) g->turns[g->n_turns++] = seat;
    }
    g->turn = 0;
}

/* raw_env._next_tick: on to the next tick in which someone may act. -1: no timer set
 * and nobody may act (RuntimeError); -2: out of memory. */
static int next_tick(Twinz *g) {
    for (;;) {
        g->tick++;
        g->now_ms += g->dt;
        if (run_timers(g, g->now_ms) && log_entry(g, NONE, 0, g->now_ms) < 0) return -2;
        start_tick(g);
        if (g->n_turns || g->phase == PHASE_OVER) return 0;
        if (g->max_ticks != NONE && g->tick >= g->max_ticks) return 0;
        long long due = deadline(g);
        if (due == NONE) return -1;
        long long idle = (due - g->now_ms + g->dt - 1) / g->dt - 1;
        if (g->max_ticks != NONE && idle > g->max_ticks - g->tick - 1)
            idle = g->max_ticks - g->tick - 1;
        if (idle > 0) {
            g->tick += idle;
            g->now_ms += idle * g->dt;
        }
    }
}

static void new_game(Twinz *g, uint64_t seed) {
    g->seed = seed;
    g->counter = 0;
    for (int seat = 0; seat < MAX_SEATS; seat++) {
        g->points[seat] = 3;
        g->cards_won[seat] = 0;
    }
    g->n_used = 0;
    g->round_no = 0;
    g->duo[0] = 0;
    g->duo[1] = 1;
    g->countdown_ends = g->clue_due = g->guess_due = 0;
    /* random.shuffle of range(n_cards), then the pile is its first pile_size cards */
    int order[MAX_CARDS];
    Twister t;
    g->counter++;
    twister_seed(&t, g->seed, g->counter);
    for (int i = 0; i < g->n_cards; i++) order[i] = i;
    for (int i = g->n_cards - 1; i > 0; i--) {
        int j = (int)twister_below(&t, (uint32_t)i + 1), swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    memcpy(g->pile, order, (size_t)g->pile_size * sizeof(int));
    g->pile_n = g->pile_size;
    start_round(g, 0, 1);
    g->now_ms = 0;
    g->tick = 0;
    g->n_log = 0;
    start_tick(g);
}

static int score(const Twinz *g, int seat) {
    return g->points[seat] + 2 * g->cards_won[seat];
}

/* raw_env._play for a legal index: the move, then the turn and the ticks; F_* flags, or
 * the negative codes of next_tick. */
static int play(Twinz *g, int seat, int index) {
    int before[MAX_SEATS], flags = 0;
    for (int s = 0; s < g->players; s++) before[s] = score(g, s);
    if (index != A_WAIT) {
        long long t = g->now_ms;
        if (log_entry(g, seat, index, t) < 0) return -2;
        if (index == A_DRAW) open_clues(g, t);
        else if (index == A_CONTEST_FIRST || index == A_CONTEST_SECOND) {
            g->contest = g->duo[index - A_CONTEST_FIRST];
            for (int s = 0; s < MAX_SEATS; s++) g->vote[s] = NONE;
            g->vote[seat] = 1;
            g->n_votes = 1;
            count_votes(g, t);
        } else if (index == A_UPHOLD || index == A_DISMISS) {
            g->vote[seat] = index == A_UPHOLD;
            g->n_votes++;
            count_votes(g, t);
        } else if (g->phase == PHASE_CLUES) {
            int at = duo_position(g, seat);
            g->clue_word[at] = index - WORD_BASE;
            g->clue_t[at] = t;
            if (g->clue_word[1 - at] != NONE) reveal(g, t);
        } else
            guess(g, seat, index - WORD_BASE, t);
    }
    if (++g->turn >= g->n_turns) {
        int code = next_tick(g);
        if (code < 0) return code;
    }
    for (int s = 0; s < g->players; s++)
        if (score(g, s) != before[s]) flags |= F_SCORED;
    if (g->phase == PHASE_OVER) flags |= F_OVER;
    else if (g->max_ticks != NONE && g->tick >= g->max_ticks) flags |= F_TRUNCATED;
    return flags;
}

static void write_mask(const Twinz *g, int seat, int8_t *mask) {
    int words = 0, small = g->phase == PHASE_OVER ? 0 : moves(g, seat, &words);
    memset(mask + WORD_BASE, words, (size_t)g->n_words);
    for (int index = 0; index < WORD_BASE; index++) mask[index] = (small >> index) & 1;
    mask[A_WAIT] = g->phase != PHASE_OVER;
}

static inline float code(int word) {
    return word == NONE ? 0.0f : (float)(word + 1);
}

static float seconds_left(long long due, long long now, int most) {
    long long left = due - now > 0 ? due - now : 0;
    double seconds = (double)left / 1000.0;
    return seconds < most ? (float)seconds : (float)most;
}

static void write_observation(const Twinz *g, int me, float *out) {
    int players = g->players, slot[MAX_SEATS];
    memset(out, 0, O_SIZE * sizeof(float));
    for (int other = 0; other < players; other++) {
        slot[other] = (other - me + players) % players;
        out[O_PRESENT + other] = 1.0f;
    }
    out[O_DUO_FIRST + slot[g->duo[0]]] = 1.0f;
    out[O_DUO_SECOND + slot[g->duo[1]]] = 1.0f;
    out[O_PHASE + g->phase] = 1.0f;
    out[O_ATTEMPT + (g->attempt < 2 ? g->attempt : 2) - 1] = 1.0f;
    out[O_LINE + g->line - 1] = 1.0f;
    out[O_PILE] = (float)g->pile_n;
    out[O_ROUND] = (float)g->round_no;
    if (g->phase == PHASE_CLUES) {
        out[O_COUNTDOWN] = seconds_left(g->countdown_ends, g->now_ms, 60);
        out[O_CLUE_DUE] = seconds_left(g->clue_due, g->now_ms, 80);
    }
    if (g->phase == PHASE_GUESSES) out[O_GUESS_DUE] = seconds_left(g->guess_due, g->now_ms, 300);
    int at = duo_position(g, me);
    if (at != NONE && (g->phase == PHASE_CLUES || g->phase == PHASE_GUESSES))
        out[O_MYSTERY] = code(g->matches[3 * mystery_id(g)]);
    for (int i = 0; i < 2; i++) out[O_CLUE_GIVEN + i] = g->clue_word[i] != NONE;
    if (at != NONE && g->clue_word[at] != NONE) out[O_MY_CLUE] = code(g->clue_word[at]);
    if (g->revealed) {
        out[O_REVEALED] = 1.0f;
        for (int i = 0; i < 2; i++) out[O_CLUES + i] = code(g->revealed_word[i]);
    }
    for (int other = 0; other < players; other++) {
        if (g->guess_word[other] == NONE) continue;
        out[O_GUESSED + slot[other]] = 1.0f;
        if (!g->hidden[other] || other == me) out[O_GUESS + slot[other]] = code(g->guess_word[other]);
        out[O_HIDDEN + slot[other]] = (float)g->hidden[other];
    }
    for (int i = 0; i < g->n_used && i < MAX_USED; i++) out[O_USED + i] = code(g->used[i]);
    for (int other = 0; other < players; other++) {
        out[O_POINTS + slot[other]] = (float)(g->points[other] < 100 ? g->points[other] : 100);
        out[O_CARDS + slot[other]] = (float)g->cards_won[other];
    }
    if (g->phase == PHASE_GUESSES && g->contest != NONE)
        out[O_CONTEST + duo_position(g, g->contest)] = 1.0f;
    out[O_VOTES] = (float)g->n_votes;
}

/* ---- the Python type ------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    Twinz g;
} Engine;

static PyTypeObject EngineType;

/* A copy of an int32 table of exactly `count` numbers (count < 0: any length, given back
 * in *length). */
static int *table(Py_buffer *view, Py_ssize_t count, int *length, const char *what) {
    Py_ssize_t n = view->len / (Py_ssize_t)sizeof(int);
    if (view->len % (Py_ssize_t)sizeof(int) || (count >= 0 && n != count) || n >= INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: wrong number of int32 values", what);
        return NULL;
    }
    int *copy = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (copy == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, view->buf, (size_t)n * sizeof(int));
    if (length) *length = (int)n;
    return copy;
}

static void engine_dealloc(Engine *self) {
    Twinz *g = &self->g;
    free(g->backs);
    free(g->card_words);
    free(g->matches);
    free(g->starts);
    free(g->refused);
    free(g->log);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int engine_init(Engine *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"players", "pile_size", "dt", "max_ticks", "options", "n_words",
                            "backs", "card_words", "matches", "starts", "refused", NULL};
    int players, pile_size, dt, n_words;
    long long max_ticks;
    PyObject *options;
    Py_buffer backs, card_words, matches, starts, refused;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiiLOiy*y*y*y*y*", names, &players,
                                     &pile_size, &dt, &max_ticks, &options, &n_words, &backs,
                                     &card_words, &matches, &starts, &refused))
        return -1;
    Twinz *g = &self->g;
    Py_buffer *views[] = {&backs, &card_words, &matches, &starts, &refused};
    int ok = 0, n_mysteries = 0, n_refused = 0;
    if (g->backs != NULL) {
        PyErr_SetString(PyExc_TypeError, "an Engine is set up once");
        goto done;
    }
    memset(g, 0, sizeof *g);
    if (players < 4 || players > MAX_SEATS || pile_size < 2 || pile_size > MAX_PILE ||
        dt <= 0 || n_words <= 0 || (max_ticks < 1 && max_ticks != NONE)) {
        PyErr_SetString(PyExc_ValueError, "settings out of range");
        goto done;
    }
    if (!PyArg_ParseTuple(options, "iiiiiii", &g->countdown_s, &g->grace_ms,
                          &g->guess_timeout_s, &g->tie_ms, &g->accept_plural,
                          &g->result_pause_ms, &g->read_ms))
        goto done;
    g->players = players;
    g->pile_size = pile_size;
    g->dt = dt;
    g->max_ticks = max_ticks;
    g->n_words = n_words;
    if (!(g->backs = table(&backs, -1, &g->n_cards, "backs")) ||
        !(g->card_words = table(&card_words, (Py_ssize_t)g->n_cards * 2 * LINES, NULL,
                                "card_words")) ||
        !(g->starts = table(&starts, -1, &n_mysteries, "starts")) ||
        !(g->matches = table(&matches, 3 * (Py_ssize_t)(n_mysteries - 1), NULL, "matches")) ||
        !(g->refused = table(&refused, -1, &n_refused, "refused")))
        goto done;
    if (g->n_cards < pile_size || g->n_cards > MAX_CARDS || n_mysteries < 2 || g->starts[0] != 0 ||
        g->starts[n_mysteries - 1] != n_refused) {
        PyErr_SetString(PyExc_ValueError, "inconsistent tables");
        goto done;
    }
    for (int i = 0; i < g->n_cards; i++)
        if (g->backs[i] < 1 || g->backs[i] > LINES) {
            PyErr_SetString(PyExc_ValueError, "a card's back is 1 to 6");
            goto done;
        }
    for (int i = 0; i < g->n_cards * 2 * LINES; i++)
        if (g->card_words[i] < 0 || g->card_words[i] >= n_mysteries - 1) {
            PyErr_SetString(PyExc_ValueError, "a card word has no mystery id");
            goto done;
        }
    for (int i = 0; i < 3 * (n_mysteries - 1); i++)
        if (g->matches[i] < NONE || g->matches[i] >= n_words || (i % 3 == 0 && g->matches[i] < 0)) {
            PyErr_SetString(PyExc_ValueError, "a word index is out of the vocabulary");
            goto done;
        }
    new_game(g, 0);
    ok = 1;
done:
    for (int i = 0; i < 5; i++) PyBuffer_Release(views[i]);
    return ok ? 0 : -1;
}

static PyObject *engine_reset(Engine *self, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    new_game(&self->g, seed);
    Py_RETURN_NONE;
}

static int two_ints(PyObject *const *args, Py_ssize_t nargs, const Twinz *g, int *seat,
                    long *index, const char *usage) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (glue_seat(args[0], g->players, seat) < 0) return -1;
    *index = PyLong_AsLong(args[1]);
    if (*index == -1 && PyErr_Occurred()) return -1;
    return 0;
}

/* step(seat, index) -> flags (1 a score changed, 2 over, 4 truncated) + 8 * the seat on
 * turn next (the AEC loop's next agent, 0 when nobody is), or -1 when the index is not
 * legal for the seat now (nothing changes). */
static PyObject *engine_step(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat;
    long index;
    Twinz *g = &self->g;
    if (two_ints(args, nargs, g, &seat, &index, "step(seat, index)") < 0) return NULL;
    if (!legal(g, seat, index)) return PyLong_FromLong(-1);
    int flags = play(g, seat, (int)index);
    if (flags == -1) {
        PyErr_SetString(PyExc_RuntimeError, "twinz: nobody may act and no timer is set");
        return NULL;
    }
    if (flags == -2) return PyErr_NoMemory();
    int next = g->n_turns && g->phase != PHASE_OVER ? g->turns[g->turn] : 0;
    return PyLong_FromLong(flags | (next << 3));
}

static PyObject *engine_legal(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat;
    long index;
    if (two_ints(args, nargs, &self->g, &seat, &index, "legal(seat, index)") < 0) return NULL;
    return PyBool_FromLong(legal(&self->g, seat, index));
}

/* encode(seat, observation, mask): the seat's observation and its legal moves. */
static PyObject *engine_encode(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat;
    Py_buffer observation, mask;
    const Twinz *g = &self->g;
    if (glue_encode_args(args, nargs, g->players, O_SIZE, WORD_BASE + g->n_words, &seat,
                         &observation, &mask) < 0)
        return NULL;
    write_observation(g, seat, (float *)observation.buf);
    write_mask(g, seat, (int8_t *)mask.buf);
    PyBuffer_Release(&observation);
    PyBuffer_Release(&mask);
    Py_RETURN_NONE;
}

/* The seat on turn (env.py's _selected): seat 0 when nobody is. */
static PyObject *get_next_seat(Engine *self, void *Py_UNUSED(unused)) {
    const Twinz *g = &self->g;
    return PyLong_FromLong(g->n_turns && g->phase != PHASE_OVER ? g->turns[g->turn] : 0);
}

static PyObject *get_points(Engine *self, void *Py_UNUSED(unused)) {
    return glue_int_tuple(self->g.points, self->g.players);
}

static PyObject *get_cards(Engine *self, void *Py_UNUSED(unused)) {
    return glue_int_tuple(self->g.cards_won, self->g.players);
}

static PyObject *get_phase(Engine *self, void *Py_UNUSED(unused)) {
    return PyLong_FromLong(self->g.phase);
}

static PyObject *get_now_ms(Engine *self, void *Py_UNUSED(unused)) {
    return PyLong_FromLongLong(self->g.now_ms);
}

static PyObject *get_tick(Engine *self, void *Py_UNUSED(unused)) {
    return PyLong_FromLongLong(self->g.tick);
}

static PyObject *get_duo(Engine *self, void *Py_UNUSED(unused)) {
    return glue_int_tuple(self->g.duo, 2);
}

/* log(start): the moves (seat, index, t_ms) and timer runs (-1, 0, t_ms) from entry
 * `start` on, since the reset. */
static PyObject *engine_log(Engine *self, PyObject *arg) {
    const Twinz *g = &self->g;
    Py_ssize_t start = PyLong_AsSsize_t(arg);
    if (start == -1 && PyErr_Occurred()) return NULL;
    if (start < 0 || start > g->n_log) {
        PyErr_SetString(PyExc_ValueError, "no such log entry");
        return NULL;
    }
    PyObject *list = PyList_New(g->n_log - start);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = start; i < g->n_log; i++) {
        PyObject *entry = Py_BuildValue("(iiL)", g->log[i].seat, g->log[i].index, g->log[i].t);
        if (entry == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i - start, entry);
    }
    return list;
}

static PyObject *optional(long long value) {
    return value == NONE ? Py_NewRef(Py_None) : PyLong_FromLongLong(value);
}

/* The engine's state, as TwinzState's fields where it has them (tests compare them). */
static PyObject *engine_fields(Engine *self, PyObject *Py_UNUSED(unused)) {
    const Twinz *g = &self->g;
    return Py_BuildValue(
        "{s:K,s:K,s:i,s:N,s:i,s:i,s:i,s:N,s:i,s:i,s:N,s:L,s:L,s:L,s:N,s:N,s:N,s:N,s:N,"
        "s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:L,s:L,s:N,s:i}",
        "seed", (unsigned long long)g->seed, "counter", (unsigned long long)g->counter,
        "phase", g->phase, "pile", glue_int_tuple(g->pile, g->pile_n), "card", g->card,
        "orientation", g->orientation, "line", g->line, "duo", glue_int_tuple(g->duo, 2),
        "round_no", g->round_no, "attempt", g->attempt,
        "pause_until", optional(g->pause_until), "countdown_ends", g->countdown_ends,
        "clue_due", g->clue_due, "guess_due", g->guess_due, "tie_due", optional(g->tie_due),
        "points", glue_int_tuple(g->points, g->players),
        "cards_won", glue_int_tuple(g->cards_won, g->players),
        "clues", glue_int_tuple(g->clue_word, 2), "revealed",
        g->revealed ? glue_int_tuple(g->revealed_word, 2) : Py_NewRef(Py_None),
        "used", glue_int_tuple(g->used, g->n_used), "guessed", glue_int_tuple(g->guess_word, g->players),
        "hidden", glue_int_tuple(g->hidden, g->players), "right", glue_int_tuple(g->right, g->n_right),
        "contest", optional(g->contest), "votes", glue_int_tuple(g->vote, g->players),
        "dismissed", glue_int_tuple(g->dismissed, 2), "now_ms", g->now_ms, "tick", g->tick,
        "turns", glue_int_tuple(g->turns, g->n_turns), "turn", g->turn);
}

/* out[0..count) = start, start + 1, ...: two indices a store where the compiler has
 * vector types (GCC, Clang), which it does not find by itself at -O2. */
static void write_run(Py_ssize_t *out, Py_ssize_t start, Py_ssize_t count) {
    Py_ssize_t j = 0;
#if defined(__GNUC__)
    if (sizeof(Py_ssize_t) == sizeof(long long)) {
        typedef long long pair __attribute__((vector_size(16)));
        pair value = {(long long)start, (long long)start + 1}, step = {2, 2};
        for (; j + 2 <= count; j += 2) {
            memcpy(out + j, &value, sizeof value);
            value += step;
        }
    }
#endif
    for (; j < count; j++) out[j] = start + j;
}

/* nonzero(mask, out) -> count: the indices of the non-zero elements of a 1-D int8 buffer
 * (any stride), in order, written to `out` (a C-contiguous intp buffer at least as long).
 * env.py's ActionMask.nonzero: numpy tests an int8 array's elements one at a time through
 * the dtype's generic test; here a run of non-zero elements (most of a mask: every word)
 * is found with memchr and written in one loop the compiler vectorises. */
static PyObject *module_nonzero(PyObject *Py_UNUSED(module), PyObject *const *args,
                                Py_ssize_t nargs) {
    Py_buffer mask, out;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "nonzero(mask, out)");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &mask, PyBUF_STRIDES | PyBUF_FORMAT) < 0) return NULL;
    if (mask.ndim != 1 || mask.itemsize != 1 || mask.format == NULL ||
        strcmp(mask.format, "b") != 0) {
        PyBuffer_Release(&mask);
        PyErr_SetString(PyExc_ValueError, "mask must be a 1-D int8 buffer");
        return NULL;
    }
    if (PyObject_GetBuffer(args[1], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&mask);
        return NULL;
    }
    Py_ssize_t n = mask.shape[0], stride = mask.strides[0], count = 0;
    const char *format = out.format ? out.format : "";
    int intp = out.itemsize == (Py_ssize_t)sizeof(Py_ssize_t) && format[1] == '\0' &&
               strchr(sizeof(Py_ssize_t) == 8 ? "lqn" : "iln", format[0]) != NULL;
    if (!intp || out.len < n * (Py_ssize_t)sizeof(Py_ssize_t)) {
        PyBuffer_Release(&mask);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "out must be a writable intp buffer as long as mask");
        return NULL;
    }
    Py_ssize_t *found = (Py_ssize_t *)out.buf;
    const char *m = (const char *)mask.buf;
    if (stride == 1) {
        Py_ssize_t i = 0;
        while (i < n) {
            uint64_t block;
            while (i + 8 <= n && (memcpy(&block, m + i, 8), block == 0)) i += 8;
            while (i < n && m[i] == 0) i++;
            if (i >= n) break;
            const char *zero = memchr(m + i, 0, (size_t)(n - i));
            Py_ssize_t end = zero ? zero - m : n;
            write_run(found + count, i, end - i);
            count += end - i;
            i = end;
        }
    } else {
        for (Py_ssize_t i = 0; i < n; i++)
            if (m[i * stride] != 0) found[count++] = i;
    }
    PyBuffer_Release(&mask);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(count);
}

static PyMethodDef module_methods[] = {
    {"nonzero", (PyCFunction)(void (*)(void))module_nonzero, METH_FASTCALL,
     "nonzero(mask, out) -> count: the indices of a 1-D int8 buffer's non-zero elements"},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef engine_methods[] = {
    {"reset", (PyCFunction)engine_reset, METH_O, "reset(seed): a new game"},
    {"step", (PyCFunction)(void (*)(void))engine_step, METH_FASTCALL,
     "step(seat, index) -> flags (1 scored, 2 over, 4 truncated), -1 when not legal"},
    {"legal", (PyCFunction)(void (*)(void))engine_legal, METH_FASTCALL,
     "legal(seat, index) -> bool: whether the seat's mask allows the index now"},
    {"encode", (PyCFunction)(void (*)(void))engine_encode, METH_FASTCALL,
     "encode(seat, observation, mask): write the seat's observation and mask"},
    {"log", (PyCFunction)engine_log, METH_O,
     "log(start) -> [(seat, index, t_ms)]: moves and timer runs (seat -1) since the reset"},
    {"fields", (PyCFunction)engine_fields, METH_NOARGS, "the state's fields, as Python values"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef engine_getset[] = {
    {"next_seat", (getter)get_next_seat, NULL, "the seat on turn (0 when none)", NULL},
    {"points", (getter)get_points, NULL, "every seat's points", NULL},
    {"cards", (getter)get_cards, NULL, "every seat's cards won", NULL},
    {"phase", (getter)get_phase, NULL, "0 draw, 1 clues, 2 guesses, 3 over", NULL},
    {"duo", (getter)get_duo, NULL, "the duo's two seats", NULL},
    {"now_ms", (getter)get_now_ms, NULL, "the environment's virtual clock", NULL},
    {"tick", (getter)get_tick, NULL, "the environment's tick", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twintable.games.twinz._native.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Twinz game for the environment: Engine(players, pile_size, dt, max_ticks, "
              "options, n_words, backs, card_words, matches, starts, refused)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)engine_init,
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_methods = engine_methods,
    .tp_getset = engine_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Twinz rules in C for the environment.", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    twister_make_base();
    PyObject *m = glue_module_with_engine(&module, &EngineType);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "WORD_BASE", WORD_BASE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_USED", MAX_USED) < 0 ||
        PyModule_AddIntConstant(m, "OBSERVATION_SIZE", O_SIZE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
