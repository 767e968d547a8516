/* Twin It rules in C, for the environment (games/twinit/env.py, ``twinit_v0``): every
 * mode (competitive, team, coop, time attack) with every option (both editions, taboo
 * cards, teams, ``sets_to_win``, ``hold_ms``, ``triple_timeout_ms``, ``finish_window_ms``,
 * ``duration_s``, ``rounds``; 1-6 players as the mode allows, any ``dt`` and episode cap),
 * step for step as rules.py plays them: flips, the hands model (two hands a seat, or one
 * a seat and a take by two teammates), takes, steals, chains, ties, errors and their
 * penalty, taboo pictures and ko's own top, triples and their timeout, hands lifting,
 * ko's finish window and sudden death, the stalled end, rounds against the clock (start,
 * cards turned over, points, the round's end); with the environment's ticks, its rotating
 * order, its observation and its action mask written straight into numpy buffers.
 *
 * rules.py stays the reference (tables, views, bots, the parallel form and the
 * environment's ``native=False`` use it); this module exists because issue 41 asks the
 * environment for half of ``timo_v0``'s steps per second, which the interpreter cannot
 * give (bench/envs_all.py). tests/games/twinit/test_native.py plays both side by side.
 *
 * Chance stays in Python: env.py deals with rules' deal.py (core/rng.py) and hands the
 * piles, taboo rows, box and faces to ``load``; when a seat starts a round against the
 * clock, env.py draws the box's shuffle and faces as rules' _start does and hands them
 * to ``step``. Nothing here draws, so no copy of the Mersenne Twister of Timo's and
 * Twins' engines is needed.
 *
 * Places are the environment's (env.py ``PLACES``): centre slot c (0-134), pile top of
 * seat s (135 + s), set i of side d (141 + 67 d + i), taboo card i of side d
 * (543 + 3 d + i). Actions are the environment's indices: 0 wait, 1 flip, 2 start a round,
 * 3 + place touch, 564 + slot turn a centre card over.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "env_glue.h"

#define MAX_SEATS 6
#define CARDS 135
#define PICTURES 90
#define MAX_SETS (CARDS / 2)
#define SET_CARDS 3
#define TABOO_CARDS 3
#define MAX_TOUCHES 8
#define MAX_HANDS (2 * MAX_SEATS)

#define P_CENTRE 0
#define P_PILE CARDS
#define P_SET (P_PILE + MAX_SEATS)
#define P_TABOO (P_SET + MAX_SEATS * MAX_SETS)
#define PLACES (P_TABOO + MAX_SEATS * TABOO_CARDS)

#define WAIT 0
#define FLIP_INDEX 1
#define TOUCH_BASE 3
#define START_INDEX 2
#define TURN_BASE (TOUCH_BASE + PLACES)
#define N_ACTIONS (TURN_BASE + CARDS)

#define PHASE_READY 0
#define PHASE_PLAY 1
#define PHASE_OVER 2

/* The observation's layout (env.py's OBSERVATION, checked there at import). */
#define O_PICTURE 0
#define O_COPIES (O_PICTURE + PLACES)
#define O_MY_HAND (O_COPIES + PLACES)
#define O_ALLY_HAND (O_MY_HAND + PLACES)
#define O_RIVAL_HAND (O_ALLY_HAND + PLACES)
#define O_LIFT (O_RIVAL_HAND + PLACES)
#define O_BANNED (O_LIFT + PLACES)
#define O_TRIPLE (O_BANNED + PLACES)
#define O_ME (O_TRIPLE + PLACES)
#define O_MY_SIDE (O_ME + MAX_SEATS)
#define O_ALLIES (O_MY_SIDE + MAX_SEATS)
#define O_PRESENT (O_ALLIES + MAX_SEATS)
#define O_PILES (O_PRESENT + MAX_SEATS)
#define O_TURN (O_PILES + MAX_SEATS)
#define O_SCORES (O_TURN + MAX_SEATS)
#define O_CONTENDERS (O_SCORES + MAX_SEATS)
#define O_MODE (O_CONTENDERS + MAX_SEATS)
#define O_EDITION (O_MODE + 4)
#define O_PHASE (O_EDITION + 2)
#define O_TIME_LEFT (O_PHASE + 3)
#define O_ROUND (O_TIME_LEFT + 1)
#define O_TARGET (O_ROUND + 1)
#define O_TOUCHES_LEFT (O_TARGET + 1)
#define O_SIZE (O_TOUCHES_LEFT + 1)

/* Why a game ended (rules' _finish): reached the target, or nobody could claim again. */
#define END_NONE 0
#define END_TARGET 1
#define END_STALLED 2

typedef struct {
    int seat, place;
    long long lift_ms;
} Hand;

#define MODE_COMPETITIVE 0
#define MODE_TEAM 1
#define MODE_COOP 2
#define MODE_TIME_ATTACK 3
/* The modes against the clock: no piles, points for pairs and triples, rounds. */
#define TIMED(g) ((g)->mode >= MODE_COOP)

typedef struct {
    /* Set-up. A side owns sets: the seat itself in competitive play, a team (0 or 1). */
    int players, sets_to_win, mode, sides, side_of[MAX_SEATS], ko;
    long long finish_window_ms, duration_ms;
    int rounds;
    long long hold_ms, triple_timeout_ms, dt, max_ticks; /* max_ticks 0: no cap */
    uint8_t face[CARDS][2];
    /* The rules' state (TwinItState). */
    uint8_t up[CARDS];
    int pile[MAX_SEATS][CARDS], pile_size[MAX_SEATS];
    int centre[CARDS], centre_size; /* -1: an empty slot */
    int set_card[MAX_SEATS][MAX_SETS][SET_CARDS], set_size[MAX_SEATS][MAX_SETS];
    int sets[MAX_SEATS];
    int taboo[MAX_SEATS][TABOO_CARDS], taboo_size[MAX_SEATS];
    Hand hands[MAX_HANDS]; /* in the order they were put down, as the rules' dict */
    int n_hands;
    long long touches[MAX_SEATS][MAX_TOUCHES];
    int n_touches[MAX_SEATS];
    long long triple_due[PICTURES], pair_since[PICTURES]; /* -1: none */
    int turn, phase, winners, end_reason;
    /* ko: when a shared finish is settled (-1: none), the sides finishing (a bit each),
     * the seats playing sudden death (a bit each; 0: nobody, everyone plays). */
    long long finish_due;
    int finishers, contenders;
    /* The modes against the clock: the box between rounds, the round's end (-1: none),
     * the round, its points and the rounds' sum, per side. */
    int box[CARDS], box_size, round_no;
    long long ends_ms, round_points[MAX_SEATS], points[MAX_SEATS];
    long long clock, version, started_ms; /* started_ms -1: not yet */
    long long takes[MAX_SEATS], errors[MAX_SEATS], claims[MAX_SEATS], claim_ms[MAX_SEATS];
    long long flips, steals, ties;
    /* The environment's clock: tick k is played by seats k mod n, k + 1 mod n, ... */
    long long now, tick;
    int position;
    int scores_before[MAX_SEATS];
} Game;

static inline int picture_of(const Game *g, int card) { return g->face[card][g->up[card]]; }

/* The picture at a place, or -1 when nothing shows there (rules' ref_picture). */
static int place_picture(const Game *g, int place) {
    if (place < P_PILE) {
        int card = place < g->centre_size ? g->centre[place] : -1;
        return card >= 0 ? picture_of(g, card) : -1;
    }
    if (place < P_SET) {
        int seat = place - P_PILE;
        return seat < g->players && g->pile_size[seat]
            ? picture_of(g, g->pile[seat][g->pile_size[seat] - 1]) : -1;
    }
    if (place < P_TABOO) {
        int side = (place - P_SET) / MAX_SETS, index = (place - P_SET) % MAX_SETS;
        return side < g->sides && index < g->sets[side]
            ? picture_of(g, g->set_card[side][index][0]) : -1;
    }
    int side = (place - P_TABOO) / TABOO_CARDS, index = (place - P_TABOO) % TABOO_CARDS;
    return side < g->sides && index < g->taboo_size[side]
        ? picture_of(g, g->taboo[side][index]) : -1;
}

/* Every visible place and its picture, in the rules' order (visible_items): centre slots,
 * pile tops, sets, taboo cards. */
static int visible(const Game *g, int *places, int *pictures) {
    int n = 0;
    for (int slot = 0; slot < g->centre_size; slot++)
        if (g->centre[slot] >= 0) {
            places[n] = slot;
            pictures[n++] = picture_of(g, g->centre[slot]);
        }
    for (int seat = 0; seat < g->players; seat++)
        if (g->pile_size[seat]) {
            places[n] = P_PILE + seat;
            pictures[n++] = picture_of(g, g->pile[seat][g->pile_size[seat] - 1]);
        }
    for (int side = 0; side < g->sides; side++)
        for (int index = 0; index < g->sets[side]; index++) {
            places[n] = P_SET + side * MAX_SETS + index;
            pictures[n++] = picture_of(g, g->set_card[side][index][0]);
        }
    for (int side = 0; side < g->sides; side++)
        for (int index = 0; index < g->taboo_size[side]; index++) {
            places[n] = P_TABOO + side * TABOO_CARDS + index;
            pictures[n++] = picture_of(g, g->taboo[side][index]);
        }
    return n;
}

static int hand_at(const Game *g, int place) {
    for (int i = 0; i < g->n_hands; i++)
        if (g->hands[i].place == place) return i;
    return -1;
}

static void drop_hand(Game *g, int i) {
    memmove(&g->hands[i], &g->hands[i + 1], sizeof(Hand) * (size_t)(g->n_hands - i - 1));
    g->n_hands--;
}

static void lift_at(Game *g, int place) {
    int i = hand_at(g, place);
    if (i >= 0) drop_hand(g, i);
}

/* A side's sets (or taboo cards) moved: lift every hand on that row (rules' lift_row). */
static void lift_row(Game *g, int low, int high) {
    for (int i = g->n_hands - 1; i >= 0; i--)
        if (g->hands[i].place >= low && g->hands[i].place < high) drop_hand(g, i);
}

static void lift_sets(Game *g, int side) {
    lift_row(g, P_SET + side * MAX_SETS, P_SET + (side + 1) * MAX_SETS);
}

static int place_in_centre(Game *g, int card) {
    for (int slot = 0; slot < g->centre_size; slot++)
        if (g->centre[slot] < 0) {
            g->centre[slot] = card;
            return slot;
        }
    g->centre[g->centre_size] = card;
    return g->centre_size++;
}

static inline int plays(const Game *g, int seat) {
    return !g->contenders || g->contenders >> seat & 1;
}

static int next_turn(const Game *g, int start) {
    for (int step = 0; step < g->players; step++) {
        int seat = (start + step) % g->players;
        if (g->pile_size[seat] && plays(g, seat)) return seat;
    }
    return -1;
}

/* Whether ``picture`` is one ``seat`` may not claim: its side's taboo pictures, and with
 * the ko edition the top of its own pile. */
static int banned_for(const Game *g, int seat, int picture) {
    int side = g->side_of[seat];
    for (int i = 0; i < g->taboo_size[side]; i++)
        if (picture_of(g, g->taboo[side][i]) == picture) return 1;
    return g->ko && g->pile_size[seat] &&
           picture_of(g, g->pile[seat][g->pile_size[seat] - 1]) == picture;
}

static int pile_pop(Game *g, int seat) { return g->pile[seat][--g->pile_size[seat]]; }

/* Turn cards over: centre cards in place, a pile's top into the centre (flip_cards). */
static void flip_places(Game *g, const int *places, int n) {
    for (int i = 0; i < n; i++) {
        int place = places[i];
        lift_at(g, place);
        if (place < P_PILE) {
            g->up[g->centre[place]] ^= 1;
        } else {
            int seat = place - P_PILE, card = pile_pop(g, seat);
            g->up[card] ^= 1;
            place_in_centre(g, card);
            if (!g->pile_size[seat] && g->turn == seat) g->turn = next_turn(g, seat + 1);
        }
    }
}

/* The end: every seat of the winning ``sides`` (a bit each) wins. */
static void finish(Game *g, int sides, int reason) {
    g->phase = PHASE_OVER;
    g->n_hands = 0;
    for (int p = 0; p < PICTURES; p++) g->triple_due[p] = -1;
    g->winners = 0;
    for (int seat = 0; seat < g->players; seat++)
        if (sides >> g->side_of[seat] & 1) g->winners |= 1 << seat;
    g->end_reason = reason;
}

/* After any change: arm triple timers, note when pairs appeared, spot a stall (_settle). */
static void settle(Game *g, long long t) {
    if (g->phase != PHASE_PLAY) return;
    int free_count[PICTURES] = {0}, count[PICTURES];
    for (int slot = 0; slot < g->centre_size; slot++)
        if (g->centre[slot] >= 0) free_count[picture_of(g, g->centre[slot])]++;
    for (int seat = 0; seat < g->players; seat++)
        if (g->pile_size[seat]) free_count[picture_of(g, g->pile[seat][g->pile_size[seat] - 1])]++;
    memcpy(count, free_count, sizeof count);
    for (int side = 0; side < g->sides; side++) {
        for (int index = 0; index < g->sets[side]; index++)
            count[picture_of(g, g->set_card[side][index][0])]++;
        for (int index = 0; index < g->taboo_size[side]; index++)
            count[picture_of(g, g->taboo[side][index])]++;
    }
    int triples = 0;
    for (int p = 0; p < PICTURES; p++) {
        if (count[p] < 2) g->pair_since[p] = -1;
        else if (g->pair_since[p] < 0) g->pair_since[p] = t;
        if (TIMED(g)) continue;
        if (free_count[p] < 3) g->triple_due[p] = -1;
        else if (g->triple_due[p] < 0) g->triple_due[p] = t + g->triple_timeout_ms;
        triples |= g->triple_due[p] >= 0;
    }
    if (TIMED(g) || g->turn >= 0 || g->n_hands || triples || g->finish_due >= 0) return;
    int claimable = 0; /* a pair some seat still playing may claim (_claimable) */
    for (int seat = 0; seat < g->players && !claimable; seat++)
        for (int p = 0; p < PICTURES && !claimable && plays(g, seat); p++)
            claimable = count[p] >= 2 && !banned_for(g, seat, p);
    if (!claimable) {
        int most = 0, best = 0;
        for (int side = 0; side < g->sides; side++)
            if (g->sets[side] > most) most = g->sets[side];
        for (int side = 0; side < g->sides; side++)
            if (g->sets[side] == most) best |= 1 << side;
        finish(g, best, END_STALLED);
    }
}

/* A pair is worth 1 point and a triple 2 (board.time_attack_points). */
static long long time_attack_points(const Game *g, int side) {
    long long points = 0;
    for (int index = 0; index < g->sets[side]; index++) points += g->set_size[side][index] - 1;
    return points;
}

/* After a take by ``side`` (_check_win): sudden death's first set wins; the target wins,
 * or with the ko edition opens a finish window that others may still reach. */
static void check_win(Game *g, int side, long long t) {
    if (g->contenders) {
        finish(g, 1 << side, END_TARGET);
        return;
    }
    if (g->sets[side] < g->sets_to_win) return;
    if (g->ko && g->finish_window_ms > 0) {
        if (g->finish_due < 0) g->finish_due = t + g->finish_window_ms;
        g->finishers |= 1 << side;
        return;
    }
    finish(g, 1 << side, END_TARGET);
}

/* Both cards of an identical pair, taken by ``seat`` (with a teammate's hand in team
 * play) for its side (_take). */
static void take(Game *g, int seat, const int *refs, long long t) {
    int side = g->side_of[seat], picture = place_picture(g, refs[0]);
    int cards[2 * SET_CARDS], n = 0, stolen = 0;
    /* Sets are removed by identity: find each target before any removal shifts them. */
    int targets[2][SET_CARDS], sizes[2] = {0, 0};
    for (int r = 0; r < 2; r++) {
        int place = refs[r];
        if (place >= P_TABOO) {
            int owner = (place - P_TABOO) / TABOO_CARDS, index = (place - P_TABOO) % TABOO_CARDS;
            targets[r][0] = g->taboo[owner][index];
        } else if (place >= P_SET) {
            int owner = (place - P_SET) / MAX_SETS, index = (place - P_SET) % MAX_SETS;
            sizes[r] = g->set_size[owner][index];
            memcpy(targets[r], g->set_card[owner][index], sizeof targets[r]);
        }
    }
    lift_at(g, refs[0]);
    lift_at(g, refs[1]);
    for (int r = 0; r < 2; r++) {
        int place = refs[r];
        if (place < P_PILE) {
            cards[n++] = g->centre[place];
            g->centre[place] = -1;
        } else if (place < P_SET) {
            cards[n++] = pile_pop(g, place - P_PILE);
        } else if (place >= P_TABOO) {
            int owner = (place - P_TABOO) / TABOO_CARDS, index = 0;
            while (g->taboo[owner][index] != targets[r][0]) index++;
            for (int i = index + 1; i < g->taboo_size[owner]; i++)
                g->taboo[owner][i - 1] = g->taboo[owner][i];
            g->taboo_size[owner]--;
            lift_row(g, P_TABOO + owner * TABOO_CARDS, P_TABOO + (owner + 1) * TABOO_CARDS);
            cards[n++] = targets[r][0];
        } else {
            int owner = (place - P_SET) / MAX_SETS, index = 0;
            while (g->set_card[owner][index][0] != targets[r][0]) index++;
            for (int i = index + 1; i < g->sets[owner]; i++) {
                memcpy(g->set_card[owner][i - 1], g->set_card[owner][i], sizeof targets[r]);
                g->set_size[owner][i - 1] = g->set_size[owner][i];
            }
            g->sets[owner]--;
            lift_sets(g, owner);
            if (owner != side) stolen = 1;
            for (int i = 0; i < sizes[r]; i++) cards[n++] = targets[r][i];
        }
    }
    int index = g->sets[side]++;
    memcpy(g->set_card[side][index], cards, sizeof(int) * (size_t)n);
    g->set_size[side][index] = n;
    g->takes[seat]++;
    if (g->pair_since[picture] >= 0) {
        g->claim_ms[seat] += t - g->pair_since[picture];
        g->claims[seat]++;
    }
    g->steals += stolen;
    if (TIMED(g)) {
        g->round_points[side] = time_attack_points(g, side);
        settle(g, t);
        return;
    }
    /* The third card of the picture, where it shows on the table, turns over. */
    int places[PLACES], pictures[PLACES], third[2 * MAX_SEATS + CARDS], n_third = 0;
    int shown = visible(g, places, pictures);
    for (int i = 0; i < shown && places[i] < P_SET; i++)
        if (pictures[i] == picture) third[n_third++] = places[i];
    if (n_third) flip_places(g, third, n_third);
    if (g->pile_size[seat]) g->turn = seat;
    else if (g->turn >= 0) g->turn = next_turn(g, seat);
    check_win(g, side, t);
    settle(g, t);
}

/* A claim of two different pictures: the seat's hands lift and its last set goes under
 * its pile (_error). */
static void error(Game *g, int seat, long long t) {
    for (int i = g->n_hands - 1; i >= 0; i--)
        if (g->hands[i].seat == seat) drop_hand(g, i);
    g->errors[seat]++;
    int side = g->side_of[seat];
    if (g->sets[side]) {
        int index = --g->sets[side], size = g->set_size[side][index];
        lift_sets(g, side);
        if (TIMED(g)) { /* the set's cards go back to the centre */
            for (int i = 0; i < size; i++) place_in_centre(g, g->set_card[side][index][i]);
            g->round_points[side] = time_attack_points(g, side);
            settle(g, t);
            return;
        }
        int was_empty = !g->pile_size[seat];
        memmove(&g->pile[seat][size], g->pile[seat], sizeof(int) * (size_t)g->pile_size[seat]);
        memcpy(g->pile[seat], g->set_card[side][index], sizeof(int) * (size_t)size);
        g->pile_size[seat] += size;
        if (was_empty && g->turn < 0) g->turn = seat;
    }
    settle(g, t);
}

/* Hands of two sides on the only copies of a picture: a tie, both flip (_maybe_tie). */
static void maybe_tie(Game *g, int picture, long long t) {
    int held[MAX_HANDS], n_held = 0, sides = 0;
    for (int i = 0; i < g->n_hands; i++)
        if (place_picture(g, g->hands[i].place) == picture) {
            held[n_held++] = g->hands[i].place;
            sides |= 1 << g->side_of[g->hands[i].seat];
        }
    if (!(sides & (sides - 1)) || g->mode == MODE_COOP) {
        settle(g, t);
        return;
    }
    int places[PLACES], pictures[PLACES];
    int shown = visible(g, places, pictures);
    for (int i = 0; i < shown; i++)
        if (pictures[i] == picture && hand_at(g, places[i]) < 0) {
            settle(g, t); /* a third card: the race goes on */
            return;
        }
    int flipped[MAX_HANDS], n_flipped = 0;
    for (int i = 0; i < n_held; i++) {
        lift_at(g, held[i]);
        if (held[i] < P_SET) flipped[n_flipped++] = held[i];
    }
    flip_places(g, flipped, n_flipped);
    g->ties++;
    settle(g, t);
}

static void flip(Game *g, int seat, long long t) {
    if (t < g->clock) t = g->clock;
    g->clock = t;
    int card = pile_pop(g, seat);
    lift_at(g, P_PILE + seat);
    g->up[card] ^= 1;
    place_in_centre(g, card);
    g->turn = next_turn(g, seat + 1);
    g->flips++;
    settle(g, t);
}

/* A touch at time t (never before the table's clock): the clock moves on and the seat's
 * recent touches keep it, the oldest dropped when full. Returns the time used. */
static long long record_touch(Game *g, int seat, long long t) {
    if (t < g->clock) t = g->clock;
    g->clock = t;
    if (g->n_touches[seat] == MAX_TOUCHES) {
        memmove(g->touches[seat], g->touches[seat] + 1, sizeof(long long) * (MAX_TOUCHES - 1));
        g->n_touches[seat]--;
    }
    g->touches[seat][g->n_touches[seat]++] = t;
    return t;
}

static void touch(Game *g, int seat, int place, long long t) {
    int picture = place_picture(g, place);
    t = record_touch(g, seat, t);
    int mine = -1;
    for (int i = 0; i < g->n_hands; i++)
        if (g->hands[i].seat == seat) mine = g->hands[i].place;
    if ((mine >= 0 && g->mode == MODE_TEAM) /* one hand a seat: touching both is an error */
        || banned_for(g, seat, picture)) {  /* a taboo picture, or ko: your own top's */
        error(g, seat, t);
        return;
    }
    g->hands[g->n_hands++] = (Hand){seat, place, t + g->hold_ms};
    if (mine >= 0) {
        int refs[2] = {mine, place};
        if (place_picture(g, mine) == picture) take(g, seat, refs, t);
        else error(g, seat, t);
        return;
    }
    int side = g->side_of[seat];
    for (int i = 0; i < g->n_hands; i++) {
        const Hand *hand = &g->hands[i];
        if (hand->seat != seat && g->side_of[hand->seat] == side &&
            place_picture(g, hand->place) == picture) {
            int refs[2] = {hand->place, place};
            take(g, seat, refs, t);
            return;
        }
    }
    maybe_tie(g, picture, t);
}

/* Time attack: turn a centre card over (_turn_over); nothing settles until the next move. */
static void turn_over(Game *g, int seat, int slot, long long t) {
    t = record_touch(g, seat, t);
    g->up[g->centre[slot]] ^= 1;
}

/* A round starts (_start): the box, shuffled and turned as env.py drew it, is the centre. */
static void start_round(Game *g, const int *cards, const uint8_t *up, long long t) {
    if (t < g->clock) t = g->clock;
    for (int i = 0; i < g->box_size; i++) {
        g->centre[i] = cards[i];
        g->up[cards[i]] = up[i];
    }
    g->centre_size = g->box_size;
    g->box_size = 0;
    g->phase = PHASE_PLAY;
    g->clock = t;
    g->ends_ms = t + g->duration_ms;
    for (int side = 0; side < g->sides; side++) g->round_points[side] = 0;
}

/* The round's time is up (_end_round): its points count; time attack boxes every card
 * for the next round, or the game ends. */
static void end_round(Game *g) {
    for (int side = 0; side < g->sides; side++) g->points[side] += g->round_points[side];
    g->ends_ms = -1;
    g->n_hands = 0;
    if (g->mode == MODE_TIME_ATTACK && g->round_no < g->rounds) {
        g->box_size = 0;
        for (int slot = 0; slot < g->centre_size; slot++)
            if (g->centre[slot] >= 0) g->box[g->box_size++] = g->centre[slot];
        for (int side = 0; side < g->sides; side++) {
            for (int index = 0; index < g->sets[side]; index++)
                for (int i = 0; i < g->set_size[side][index]; i++)
                    g->box[g->box_size++] = g->set_card[side][index][i];
            g->sets[side] = 0;
        }
        g->centre_size = 0;
        g->round_no++;
        g->phase = PHASE_READY;
        return;
    }
    int best = 1; /* coop: everyone together */
    if (g->mode == MODE_TIME_ATTACK) {
        long long top = g->points[0];
        for (int side = 1; side < g->sides; side++)
            if (g->points[side] > top) top = g->points[side];
        best = 0;
        for (int side = 0; side < g->sides; side++)
            if (g->points[side] == top) best |= 1 << side;
    }
    finish(g, best, END_TARGET);
}

static long long deadline(const Game *g) {
    long long due = -1;
    if (g->phase != PHASE_PLAY) return -1;
    for (int i = 0; i < g->n_hands; i++)
        if (due < 0 || g->hands[i].lift_ms < due) due = g->hands[i].lift_ms;
    for (int p = 0; p < PICTURES; p++)
        if (g->triple_due[p] >= 0 && (due < 0 || g->triple_due[p] < due)) due = g->triple_due[p];
    if (g->finish_due >= 0 && (due < 0 || g->finish_due < due)) due = g->finish_due;
    if (g->ends_ms >= 0 && (due < 0 || g->ends_ms < due)) due = g->ends_ms;
    return due;
}

/* The table's tick at ``t``: hands lift, triples turn over (_run_timers), as an action. */
static void run_timers(Game *g, long long t) {
    if (t < g->clock) t = g->clock;
    g->clock = t;
    for (int i = g->n_hands - 1; i >= 0; i--)
        if (g->hands[i].lift_ms <= t) drop_hand(g, i);
    int due[PICTURES], n_due = 0;
    for (int p = 0; p < PICTURES; p++)
        if (g->triple_due[p] >= 0 && g->triple_due[p] <= t) due[n_due++] = p;
    for (int d = 0; d < n_due; d++) {
        int picture = due[d];
        g->triple_due[picture] = -1;
        int places[PLACES], pictures[PLACES], refs[2 * MAX_SEATS + CARDS], n = 0;
        int shown = visible(g, places, pictures);
        for (int i = 0; i < shown && places[i] < P_SET; i++)
            if (pictures[i] == picture) refs[n++] = places[i];
        for (int i = 0; i < n; i++) lift_at(g, refs[i]);
        flip_places(g, refs, n);
    }
    if (g->finish_due >= 0 && g->finish_due <= t) {
        g->finish_due = -1;
        if (!(g->finishers & (g->finishers - 1))) {
            finish(g, g->finishers, END_TARGET);
            return;
        }
        for (int seat = 0; seat < g->players; seat++)
            if (g->finishers >> g->side_of[seat] & 1) g->contenders |= 1 << seat;
        g->n_hands = 0;
        g->turn = next_turn(g, g->turn >= 0 ? g->turn : 0);
    }
    if (g->ends_ms >= 0 && g->ends_ms <= t) {
        end_round(g);
        return;
    }
    settle(g, t);
}

/* Every timer run out by ``now``, each at its own deadline (core.table_engine.run_timers
 * and Game.apply of a tick). */
static void fire_timers(Game *g, long long now) {
    while (g->phase != PHASE_OVER) {
        long long due = deadline(g);
        if (due < 0 || due > now) break;
        run_timers(g, due);
        g->version++;
        if (g->started_ms < 0) g->started_ms = g->clock;
    }
}

static inline int too_fast(const Game *g, int seat, long long t) {
    return g->n_touches[seat] >= MAX_TOUCHES && g->touches[seat][0] > t - 1000;
}

/* Whether ``index`` is one of the seat's legal moves now (env.py legal_indices). */
static int is_legal(const Game *g, int seat, long index) {
    if (g->phase == PHASE_OVER || !plays(g, seat)) return 0;
    if (g->phase == PHASE_READY) return index == START_INDEX;
    if (index == FLIP_INDEX) return g->turn == seat && g->pile_size[seat];
    if (index < TOUCH_BASE || index >= N_ACTIONS || too_fast(g, seat, g->now)) return 0;
    int place = (int)(index < TURN_BASE ? index - TOUCH_BASE : index - TURN_BASE);
    if (index >= TURN_BASE && !TIMED(g)) return 0;
    if (g->mode == MODE_TIME_ATTACK && place >= P_SET && place < P_TABOO &&
        (place - P_SET) / MAX_SETS != g->side_of[seat])
        return 0; /* no steals in time attack */
    return place_picture(g, place) >= 0 && hand_at(g, place) < 0;
}

/* Each seat's score: its side's sets, or against the clock its points with the running
 * round's. */
static void scores_of(const Game *g, int *scores) {
    for (int seat = 0; seat < g->players; seat++) {
        int side = g->side_of[seat];
        scores[seat] = !TIMED(g) ? g->sets[side]
            : (int)(g->points[side] + (g->phase == PHASE_PLAY ? g->round_points[side] : 0));
    }
}

/* One AEC step of ``seat`` (env.py raw_env.play): 0 refused (nothing changed), 1 played,
 * 2 played and some seat's score changed. */
static int step(Game *g, int seat, long index, const int *cards, const uint8_t *up) {
    if (g->phase == PHASE_OVER || (index != WAIT && !is_legal(g, seat, index))) return 0;
    scores_of(g, g->scores_before);
    if (index != WAIT) {
        long long t = g->now;
        fire_timers(g, t); /* none is due: the last tick fired them all */
        if (index == FLIP_INDEX) flip(g, seat, t);
        else if (index == START_INDEX) start_round(g, cards, up, t);
        else if (index >= TURN_BASE) turn_over(g, seat, (int)(index - TURN_BASE), t);
        else touch(g, seat, (int)(index - TOUCH_BASE), t);
        g->version++;
        if (g->started_ms < 0) g->started_ms = g->clock;
    }
    if (++g->position == g->players && g->phase != PHASE_OVER) {
        g->tick++;
        g->now += g->dt;
        fire_timers(g, g->now);
        g->position = 0;
    }
    int scores[MAX_SEATS];
    scores_of(g, scores);
    return memcmp(scores, g->scores_before, sizeof(int) * (size_t)g->players) ? 2 : 1;
}

static void write_mask(const Game *g, int seat, int8_t *mask) {
    memset(mask, 0, N_ACTIONS);
    if (g->phase == PHASE_OVER) return;
    mask[WAIT] = 1;
    if (!plays(g, seat)) return;
    if (g->phase == PHASE_READY) {
        mask[START_INDEX] = 1;
        return;
    }
    if (g->turn == seat && g->pile_size[seat]) mask[FLIP_INDEX] = 1;
    if (too_fast(g, seat, g->now)) return;
    int places[PLACES], pictures[PLACES];
    int shown = visible(g, places, pictures);
    int8_t *touch_mask = mask + TOUCH_BASE, *turn_mask = mask + TURN_BASE;
    for (int i = 0; i < shown; i++) touch_mask[places[i]] = 1;
    if (g->mode == MODE_TIME_ATTACK) /* no steals: another side's sets are not touched */
        for (int side = 0; side < g->sides; side++)
            if (side != g->side_of[seat])
                memset(touch_mask + P_SET + side * MAX_SETS, 0, MAX_SETS);
    if (TIMED(g))
        for (int slot = 0; slot < g->centre_size; slot++) turn_mask[slot] = touch_mask[slot];
    for (int i = 0; i < g->n_hands; i++) {
        touch_mask[g->hands[i].place] = 0;
        if (TIMED(g) && g->hands[i].place < P_PILE) turn_mask[g->hands[i].place] = 0;
    }
}

static inline float unit(double value) {
    return (float)(value < 0.0 ? 0.0 : value > 1.0 ? 1.0 : value);
}

static void write_observation(const Game *g, int me, float *out) {
    memset(out, 0, sizeof(float) * O_SIZE);
    long long now = g->now;
    int places[PLACES], pictures[PLACES], copies[PICTURES] = {0};
    int shown = visible(g, places, pictures);
    for (int i = 0; i < shown; i++) copies[pictures[i]]++;
    for (int i = 0; i < shown; i++) {
        out[O_PICTURE + places[i]] = (float)(pictures[i] + 1);
        out[O_COPIES + places[i]] = (float)(copies[pictures[i]] - 1);
    }
    for (int i = 0; i < g->n_hands; i++) {
        const Hand *hand = &g->hands[i];
        int kind = hand->seat == me ? O_MY_HAND
            : g->side_of[hand->seat] == g->side_of[me] ? O_ALLY_HAND : O_RIVAL_HAND;
        out[kind + hand->place] = 1.0f;
        out[O_LIFT + hand->place] = unit((double)(hand->lift_ms - now) / (double)g->hold_ms);
    }
    for (int i = 0; i < shown; i++)
        if (banned_for(g, me, pictures[i])) out[O_BANNED + places[i]] = 1.0f;
    for (int i = 0; i < shown && places[i] < P_SET; i++) {
        long long due = g->triple_due[pictures[i]];
        if (due >= 0)
            out[O_TRIPLE + places[i]] = unit((double)(due - now) / (double)g->triple_timeout_ms);
    }
    int side = g->side_of[me];
    out[O_ME + me] = 1.0f;
    out[O_MY_SIDE + side] = 1.0f;
    int scores[MAX_SEATS];
    scores_of(g, scores);
    for (int seat = 0; seat < g->players; seat++) {
        out[O_ALLIES + seat] = g->side_of[seat] == side ? 1.0f : 0.0f;
        out[O_PRESENT + seat] = 1.0f;
        out[O_PILES + seat] = (float)((double)g->pile_size[seat] / CARDS);
        out[O_SCORES + seat] = (float)(scores[seat] < PICTURES ? scores[seat] : PICTURES);
    }
    if (g->turn >= 0 && g->turn < g->players && g->phase != PHASE_OVER)
        out[O_TURN + g->turn] = 1.0f;
    out[O_MODE + g->mode] = 1.0f;
    for (int seat = 0; seat < g->players; seat++)
        if (g->contenders >> seat & 1) out[O_CONTENDERS + seat] = 1.0f;
    out[O_EDITION + g->ko] = 1.0f;
    out[O_PHASE + g->phase] = 1.0f;
    if (g->ends_ms >= 0)
        out[O_TIME_LEFT] = unit((double)(g->ends_ms - now) / (double)g->duration_ms);
    if (g->mode == MODE_TIME_ATTACK) out[O_ROUND] = (float)((double)g->round_no / g->rounds);
    if (!TIMED(g)) out[O_TARGET] = (float)((double)g->sets_to_win / 20);
    int within = 0;
    for (int i = 0; i < g->n_touches[me]; i++) within += g->touches[me][i] > now - 1000;
    out[O_TOUCHES_LEFT] = (float)((double)(within < MAX_TOUCHES ? MAX_TOUCHES - within : 0)
                                  / MAX_TOUCHES);
}

/* ---- the Python type -------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Game g;
} Engine;

static PyTypeObject EngineType;

static void clear_game(Game *g) {
    memset(g->up, 0, sizeof g->up);
    memset(g->pile_size, 0, sizeof g->pile_size);
    memset(g->sets, 0, sizeof g->sets);
    memset(g->taboo_size, 0, sizeof g->taboo_size);
    memset(g->n_touches, 0, sizeof g->n_touches);
    memset(g->takes, 0, sizeof g->takes);
    memset(g->errors, 0, sizeof g->errors);
    memset(g->claims, 0, sizeof g->claims);
    memset(g->claim_ms, 0, sizeof g->claim_ms);
    for (int p = 0; p < PICTURES; p++) g->triple_due[p] = g->pair_since[p] = -1;
    g->centre_size = g->n_hands = 0;
    g->turn = 0;
    g->phase = PHASE_PLAY;
    g->winners = 0;
    g->end_reason = END_NONE;
    g->finish_due = -1;
    g->finishers = g->contenders = 0;
    g->box_size = 0;
    g->round_no = 1;
    g->ends_ms = -1;
    memset(g->round_points, 0, sizeof g->round_points);
    memset(g->points, 0, sizeof g->points);
    g->clock = g->version = 0;
    g->started_ms = -1;
    g->flips = g->steals = g->ties = 0;
    g->now = g->tick = 0;
    g->position = 0;
}

static int engine_init(Engine *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"players", "mode", "side_of", "ko", "sets_to_win", "hold_ms",
                            "triple_timeout_ms", "finish_window_ms", "duration_ms", "rounds",
                            "dt", "max_ticks", "faces", NULL};
    int players, mode, ko, sets_to_win, rounds;
    PyObject *side_of;
    long long hold, timeout, window, duration, dt, max_ticks;
    Py_buffer faces;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiOpiLLLLiLLy*", names, &players, &mode,
                                     &side_of, &ko, &sets_to_win, &hold, &timeout, &window,
                                     &duration, &rounds, &dt, &max_ticks, &faces))
        return -1;
    Game *g = &self->g;
    memset(g, 0, sizeof *g);
    int ok = faces.len == (Py_ssize_t)sizeof g->face;
    if (ok) memcpy(g->face, faces.buf, sizeof g->face);
    PyBuffer_Release(&faces);
    for (int card = 0; ok && card < CARDS; card++)
        ok = g->face[card][0] < PICTURES && g->face[card][1] < PICTURES;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "faces must be 135 x 2 pictures below 90, as bytes");
        return -1;
    }
    if (players < 1 || players > MAX_SEATS || mode < MODE_COMPETITIVE ||
        mode > MODE_TIME_ATTACK || sets_to_win < 1 || hold < 1 || timeout < 1 || window < 0 ||
        duration < 1 || rounds < 1 || dt < 1 || max_ticks < 0) {
        PyErr_SetString(PyExc_ValueError, "options out of range");
        return -1;
    }
    PyObject *sides = PySequence_Fast(side_of, "side_of must be a sequence");
    if (sides == NULL) return -1;
    ok = PySequence_Fast_GET_SIZE(sides) == players;
    int largest = 0;
    for (int seat = 0; ok && seat < players; seat++) {
        long side = PyLong_AsLong(PySequence_Fast_GET_ITEM(sides, seat));
        ok = mode == MODE_TEAM ? side == 0 || side == 1
            : mode == MODE_COOP ? side == 0 : side == seat;
        g->side_of[seat] = (int)side;
        if (ok && side > largest) largest = (int)side;
    }
    Py_DECREF(sides);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "side_of: team 0 or 1 in team play, 0 in coop, "
                                              "else the seat's own side");
        return -1;
    }
    g->mode = mode;
    g->duration_ms = duration;
    g->rounds = rounds;
    g->sides = largest + 1;
    g->players = players;
    g->sets_to_win = sets_to_win;
    g->ko = ko;
    g->finish_window_ms = window;
    g->hold_ms = hold;
    g->triple_timeout_ms = timeout;
    g->dt = dt;
    g->max_ticks = max_ticks;
    clear_game(g);
    return 0;
}

/* Cards from a sequence of sequences into rows of at most ``room`` (a pile or a taboo
 * row per entry), each card once over every call; 0 with an error set otherwise. */
static int load_rows(PyObject *rows, int count, int room, int *cards, int *sizes, int stride,
                     int *seen) {
    PyObject *outer = PySequence_Fast(rows, "expected a sequence of rows");
    if (outer == NULL) return 0;
    int ok = PySequence_Fast_GET_SIZE(outer) == count;
    for (int row = 0; ok && row < count; row++) {
        PyObject *inner = PySequence_Fast(PySequence_Fast_GET_ITEM(outer, row),
                                          "a row must be a sequence");
        if (inner == NULL) {
            ok = 0;
            break;
        }
        Py_ssize_t size = PySequence_Fast_GET_SIZE(inner);
        ok = size <= room;
        for (Py_ssize_t i = 0; ok && i < size; i++) {
            long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(inner, i));
            ok = card >= 0 && card < CARDS && !seen[card];
            if (ok) {
                seen[card] = 1;
                cards[row * stride + sizes[row]++] = (int)card;
            }
        }
        Py_DECREF(inner);
    }
    Py_DECREF(outer);
    if (!ok && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "a deal is a pile per seat and a taboo row per "
                                          "side of distinct cards");
    return ok;
}

/* load(piles, taboo, box, up): a new game from a deal (deal.py): each seat's pile, bottom
 * first, each side's taboo row, the box (the modes against the clock, which then wait for
 * a start), and which face of each card shows. */
static PyObject *engine_load(Engine *self, PyObject *args) {
    PyObject *piles, *taboo, *box, *up;
    if (!PyArg_ParseTuple(args, "OOOO", &piles, &taboo, &box, &up)) return NULL;
    Game *g = &self->g;
    clear_game(g);
    int seen[CARDS] = {0};
    PyObject *up_seq = PySequence_Fast(up, "up must be a sequence");
    if (up_seq == NULL) return NULL;
    int ok = PySequence_Fast_GET_SIZE(up_seq) == CARDS;
    for (int card = 0; ok && card < CARDS; card++) {
        long face = PyLong_AsLong(PySequence_Fast_GET_ITEM(up_seq, card));
        ok = face == 0 || face == 1;
        g->up[card] = (uint8_t)face;
    }
    Py_DECREF(up_seq);
    if (!ok) {
        clear_game(g);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "up: a face (0 or 1) per card");
        return NULL;
    }
    if (!load_rows(piles, g->players, CARDS, &g->pile[0][0], g->pile_size, CARDS, seen) ||
        !load_rows(taboo, g->sides, TABOO_CARDS, &g->taboo[0][0], g->taboo_size, TABOO_CARDS,
                   seen)) {
        clear_game(g);
        return NULL;
    }
    PyObject *boxes = PyTuple_Pack(1, box);
    int loaded = boxes && load_rows(boxes, 1, CARDS, g->box, &g->box_size, CARDS, seen);
    Py_XDECREF(boxes);
    if (!loaded) {
        clear_game(g);
        return NULL;
    }
    if (TIMED(g)) {
        g->phase = PHASE_READY;
        g->turn = -1;
    }
    Py_RETURN_NONE;
}

/* step(seat, index[, cards, up]): a start takes the box as env.py shuffled it and the face
 * it drew for each card. */
static PyObject *engine_step(Engine *self, PyObject *const *args, Py_ssize_t nargs) {
    int seat;
    if (nargs != 2 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "step(seat, index[, cards, up])");
        return NULL;
    }
    if (glue_seat(args[0], self->g.players, &seat) < 0) return NULL;
    int overflow = 0;
    long index = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (index == -1 && PyErr_Occurred()) return NULL;
    if (overflow) return PyLong_FromLong(0);
    Game *g = &self->g;
    int cards[CARDS];
    uint8_t up[CARDS];
    if (index == START_INDEX && is_legal(g, seat, index)) {
        PyObject *card_seq = nargs == 4 ? PySequence_Fast(args[2], "cards: a sequence") : NULL;
        PyObject *up_seq = nargs == 4 ? PySequence_Fast(args[3], "up: a sequence") : NULL;
        int ok = card_seq && up_seq && PySequence_Fast_GET_SIZE(card_seq) == g->box_size &&
                 PySequence_Fast_GET_SIZE(up_seq) == g->box_size;
        int in_box[CARDS] = {0};
        for (int i = 0; ok && i < g->box_size; i++) in_box[g->box[i]] = 1;
        for (int i = 0; ok && i < g->box_size; i++) {
            long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(card_seq, i));
            long face = PyLong_AsLong(PySequence_Fast_GET_ITEM(up_seq, i));
            ok = card >= 0 && card < CARDS && in_box[card] && (face == 0 || face == 1);
            if (ok) {
                in_box[card] = 0;
                cards[i] = (int)card;
                up[i] = (uint8_t)face;
            }
        }
        Py_XDECREF(card_seq);
        Py_XDECREF(up_seq);
        if (!ok) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a start takes the box's cards, shuffled, "
                                                  "and a face (0 or 1) for each");
            return NULL;
        }
    }
    return PyLong_FromLong(step(g, seat, index, cards, up));
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

static PyObject *long_list(const long long *items, int count) {
    PyObject *list = PyList_New(count);
    if (list == NULL) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(list, i, PyLong_FromLongLong(items[i]));
    return list;
}

static PyObject *int_list(const int *items, int count) {
    PyObject *list = PyList_New(count);
    if (list == NULL) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(items[i]));
    return list;
}

/* The seat that acts next: the tick's next seat in its rotating order. */
static PyObject *get_next_seat(Engine *self, void *Py_UNUSED(unused)) {
    const Game *g = &self->g;
    return PyLong_FromLong((long)((g->tick + g->position) % g->players));
}

static PyObject *get_scores(Engine *self, void *Py_UNUSED(unused)) {
    int scores[MAX_SEATS];
    scores_of(&self->g, scores);
    return glue_int_tuple(scores, self->g.players);
}

static PyObject *get_scores_before(Engine *self, void *Py_UNUSED(unused)) {
    return glue_int_tuple(self->g.scores_before, self->g.players);
}

static PyObject *get_winners(Engine *self, void *Py_UNUSED(unused)) {
    int seats[MAX_SEATS], n = 0;
    for (int seat = 0; seat < self->g.players; seat++)
        if (self->g.winners >> seat & 1) seats[n++] = seat;
    return glue_int_tuple(seats, n);
}

static PyObject *get_over(Engine *self, void *Py_UNUSED(unused)) {
    return PyBool_FromLong(self->g.phase == PHASE_OVER);
}

static PyObject *get_truncated(Engine *self, void *Py_UNUSED(unused)) {
    const Game *g = &self->g;
    return PyBool_FromLong(g->max_ticks && g->tick >= g->max_ticks && g->phase != PHASE_OVER);
}

static PyObject *get_box(Engine *self, void *Py_UNUSED(unused)) {
    return int_list(self->g.box, self->g.box_size);
}

static PyObject *get_ready(Engine *self, void *Py_UNUSED(unused)) {
    return PyBool_FromLong(self->g.phase == PHASE_READY);
}

static PyObject *get_now(Engine *self, void *Py_UNUSED(unused)) {
    return PyLong_FromLongLong(self->g.now);
}

static PyObject *get_tick(Engine *self, void *Py_UNUSED(unused)) {
    return PyLong_FromLongLong(self->g.tick);
}

/* Every field of rules' TwinItState the engine changes, as plain Python values (env.py's
 * state_of builds the state from them). */
static PyObject *engine_fields(Engine *self, PyObject *Py_UNUSED(unused)) {
    const Game *g = &self->g;
    int players = g->players, up[CARDS];
    PyObject *piles = PyList_New(players), *sets = PyList_New(g->sides);
    PyObject *taboo = PyList_New(g->sides);
    PyObject *touches = PyList_New(players), *hands = PyList_New(g->n_hands);
    PyObject *triples = PyDict_New(), *since = PyDict_New();
    if (!piles || !sets || !taboo || !touches || !hands || !triples || !since) goto fail;
    for (int seat = 0; seat < players; seat++) {
        PyObject *pile = int_list(g->pile[seat], g->pile_size[seat]);
        PyObject *times = long_list(g->touches[seat], g->n_touches[seat]);
        if (pile) PyList_SET_ITEM(piles, seat, pile);
        if (times) PyList_SET_ITEM(touches, seat, times);
        if (!pile || !times) goto fail;
    }
    for (int side = 0; side < g->sides; side++) {
        PyObject *cards = int_list(g->taboo[side], g->taboo_size[side]);
        if (!cards) goto fail;
        PyList_SET_ITEM(taboo, side, cards);
        PyObject *row = PyList_New(g->sets[side]);
        if (!row) goto fail;
        PyList_SET_ITEM(sets, side, row);
        for (int index = 0; index < g->sets[side]; index++) {
            PyObject *group = int_list(g->set_card[side][index], g->set_size[side][index]);
            if (!group) goto fail;
            PyList_SET_ITEM(row, index, group);
        }
    }
    for (int i = 0; i < g->n_hands; i++) {
        PyObject *hand = Py_BuildValue("(iiL)", g->hands[i].seat, g->hands[i].place,
                                       g->hands[i].lift_ms);
        if (!hand) goto fail;
        PyList_SET_ITEM(hands, i, hand);
    }
    for (int p = 0; p < PICTURES; p++) {
        const long long *values[2] = {g->triple_due, g->pair_since};
        PyObject *dicts[2] = {triples, since};
        for (int d = 0; d < 2; d++) {
            if (values[d][p] < 0) continue;
            PyObject *key = PyLong_FromLong(p), *value = PyLong_FromLongLong(values[d][p]);
            int failed = !key || !value || PyDict_SetItem(dicts[d], key, value) < 0;
            Py_XDECREF(key);
            Py_XDECREF(value);
            if (failed) goto fail;
        }
    }
    for (int card = 0; card < CARDS; card++) up[card] = g->up[card];
    int winners[MAX_SEATS], n_winners = 0, contenders[MAX_SEATS], n_contenders = 0;
    int finishers[MAX_SEATS], n_finishers = 0;
    for (int seat = 0; seat < players; seat++) {
        if (g->winners >> seat & 1) winners[n_winners++] = seat;
        if (g->contenders >> seat & 1) contenders[n_contenders++] = seat;
    }
    for (int side = 0; side < g->sides; side++)
        if (g->finishers >> side & 1) finishers[n_finishers++] = side;
    return Py_BuildValue(
        "{s:L,s:L,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:N,s:L,s:N,s:N,s:N,s:N,s:L,s:L,"
        "s:L,s:i,s:L,s:L,s:N,s:L,s:N,s:N,s:N,s:L,s:i,s:N,s:N}",
        "version", g->version, "clock", g->clock, "phase", g->phase,
        "up", int_list(up, CARDS), "piles", piles,
        "centre", int_list(g->centre, g->centre_size), "sets", sets, "hands", hands,
        "touches", touches, "triple_due", triples, "pair_since", since, "turn", g->turn,
        "winners", glue_int_tuple(winners, n_winners), "started_ms", g->started_ms,
        "takes", long_list(g->takes, players), "errors", long_list(g->errors, players),
        "claims", long_list(g->claims, players), "claim_ms", long_list(g->claim_ms, players),
        "flips", g->flips, "steals", g->steals, "ties", g->ties, "end_reason", g->end_reason,
        "now", g->now, "tick", g->tick, "taboo", taboo, "finish_due", g->finish_due,
        "finishers", glue_int_tuple(finishers, n_finishers),
        "contenders", g->contenders ? glue_int_tuple(contenders, n_contenders) : Py_NewRef(Py_None),
        "box", int_list(g->box, g->box_size), "ends_ms", g->ends_ms, "round_no", g->round_no,
        "round_points", long_list(g->round_points, g->sides),
        "points", long_list(g->points, g->sides));
fail:
    Py_XDECREF(piles);
    Py_XDECREF(sets);
    Py_XDECREF(taboo);
    Py_XDECREF(touches);
    Py_XDECREF(hands);
    Py_XDECREF(triples);
    Py_XDECREF(since);
    return NULL;
}

static PyMethodDef engine_methods[] = {
    {"load", (PyCFunction)engine_load, METH_VARARGS,
     "load(piles, taboo, box, up): a new game from a deal, at tick 0"},
    {"step", (PyCFunction)(void (*)(void))engine_step, METH_FASTCALL,
     "step(seat, index[, cards, up]) -> 0 refused, 1 played, 2 played and a score changed"},
    {"encode", (PyCFunction)(void (*)(void))engine_encode, METH_FASTCALL,
     "encode(seat, observation, mask): write the seat's observation and mask"},
    {"fields", (PyCFunction)engine_fields, METH_NOARGS, "the state's fields, as Python values"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef engine_getset[] = {
    {"next_seat", (getter)get_next_seat, NULL, "the seat that acts next (AEC order)", NULL},
    {"scores", (getter)get_scores, NULL, "every seat's score (its side's sets)", NULL},
    {"scores_before", (getter)get_scores_before, NULL, "every seat's sets before the last "
     "step", NULL},
    {"winners", (getter)get_winners, NULL, "the winning seats, ascending", NULL},
    {"over", (getter)get_over, NULL, "whether the game is over", NULL},
    {"truncated", (getter)get_truncated, NULL, "whether the episode cap cut the game", NULL},
    {"now", (getter)get_now, NULL, "the virtual clock (ms)", NULL},
    {"box", (getter)get_box, NULL, "the cards in the box, in order", NULL},
    {"ready", (getter)get_ready, NULL, "whether a round waits for its start", NULL},
    {"tick", (getter)get_tick, NULL, "ticks played", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twintable.games.twinit._native.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Twin It game for the environment: Engine(players, mode, side_of, ko, "
              "sets_to_win, hold_ms, triple_timeout_ms, finish_window_ms, duration_ms, rounds, "
              "dt, max_ticks, faces)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)engine_init,
    .tp_methods = engine_methods,
    .tp_getset = engine_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Twin It rules in C for the environment.", -1, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = glue_module_with_engine(&module, &EngineType);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "N_ACTIONS", N_ACTIONS) < 0 ||
        PyModule_AddIntConstant(m, "OBSERVATION_SIZE", O_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "PLACES", PLACES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
