/* CPython's Mersenne Twister (MT19937) in C, seeded and used as random.Random(int) is:
 * the C engines' copy of core/rng.py, shared by every game's engine (Timo's Twist's
 * games/timo/_native.c, Twins' games/twins/_native.c, Twinz's games/twinz/_native.c).
 *
 * core/rng.py draws each use of chance from a fresh random.Random((seed << 32) ^ counter);
 * twister_seed seeds a Twister the same way, twister_below and twister_shuffle draw
 * below n and shuffle as random.py does, and cpython_next / cpython_below continue a
 * random.Random's own state as getstate() hands it over. The engines' tests
 * (tests/games/timo/test_native.py, tests/games/timo/research/test_vector.py,
 * tests/games/twins/test_native.py, tests/games/twinz/test_native.py) check the draws
 * against the Python rules, which use random.Random.
 *
 * A header of static functions: each extension that includes it gets its own copy (and
 * its own twister_base, filled once by twister_make_base at the module's import). Built
 * with include_dirs pointing here (setup.py).
 */
#ifndef TWINTABLE_MT19937_H
#define TWINTABLE_MT19937_H

#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index;
} Twister;

/* init_genrand(19650218), where every seeding starts: computed once, at import. */
static uint32_t twister_base[MT_N];

static inline void twister_make_base(void) {
    twister_base[0] = 19650218U;
    for (int i = 1; i < MT_N; i++) {
        uint32_t prev = twister_base[i - 1];
        twister_base[i] = 1812433253U * (prev ^ (prev >> 30)) + (uint32_t)i;
    }
}

/* CPython's init_by_array for a key of 1 to 4 words, unrolled: each word depends on the one
 * before, so the chain is carried in a register (no store-to-load round trip per word) and
 * the wrap-arounds of CPython's loop (i back to 1 after 623; j back to 0 after the key's
 * last word) are written out. Seeding is a sequential chain of 1247 multiplies, the
 * largest single cost of a reshuffle; tests/games/timo (against random.Random) and
 * tests/games/timo/research/test_vector.py check that the words are CPython's. */
static inline void twister_init_by_array(Twister *t, const uint32_t *key, int length) {
    uint32_t *mt = t->state, addend[4];
    memcpy(mt, twister_base, sizeof twister_base);
    for (int j = 0; j < length; j++) addend[j] = key[j] + (uint32_t)j;
    uint32_t prev = mt[0];
    int j = 0;
    /* first pass: MT_N steps over i = 1 .. MT_N - 1, then i = 1 again */
    for (int i = 1; i < MT_N; i++) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + addend[j];
        mt[i] = prev;
        if (++j == length) j = 0;
    }
    mt[0] = prev;
    prev = (mt[1] ^ ((prev ^ (prev >> 30)) * 1664525U)) + addend[j];
    mt[1] = prev;
    /* second pass: MT_N - 1 steps over i = 2 .. MT_N - 1, then i = 1 */
    for (int i = 2; i < MT_N; i++) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - (uint32_t)i;
        mt[i] = prev;
    }
    mt[0] = prev;
    mt[1] = (mt[1] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - 1U;
    mt[0] = 0x80000000U;
    t->index = 0;
}

/* Regenerate word ``kk`` in place from the words beside it (MT19937's twist step). */
static inline void twister_twist_word(uint32_t *mt, int kk) {
    uint32_t y = (mt[kk] & 0x80000000U) | (mt[kk + 1 == MT_N ? 0 : kk + 1] & 0x7fffffffU);
    mt[kk] = mt[kk + MT_M < MT_N ? kk + MT_M : kk + MT_M - MT_N] ^ (y >> 1) ^
             ((y & 1U) ? 0x9908b0dfU : 0U);
}

static inline uint32_t twister_temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* CPython regenerates all 624 words before the first output; this regenerates each word
 * just before it is used, in the same order and in place, which reads the same old and
 * new words and so gives the same outputs. A game's shuffles use a few dozen words of
 * each stream, so most of the regeneration is never needed. */
static inline uint32_t twister_next(Twister *t) {
    int kk = t->index;
    twister_twist_word(t->state, kk);
    t->index = kk + 1 == MT_N ? 0 : kk + 1;
    return twister_temper(t->state[kk]);
}

/* random.Random((seed << 32) ^ counter): the key is the number's 32-bit words, low first. */
static inline void twister_seed(Twister *t, uint64_t seed, uint64_t counter) {
    unsigned __int128 value = ((unsigned __int128)seed << 32) ^ counter;
    uint32_t key[4];
    int used = 0;
    if (value == 0) key[used++] = 0;
    while (value) {
        key[used++] = (uint32_t)value;
        value >>= 32;
    }
    twister_init_by_array(t, key, used);
}

/* random.py's _randbelow_with_getrandbits, for 0 < n < 2**31. */
static inline uint32_t twister_below(Twister *t, uint32_t n) {
    int bits = 32 - __builtin_clz(n);
    uint32_t r = twister_next(t) >> (32 - bits);
    while (r >= n) r = twister_next(t) >> (32 - bits);
    return r;
}

static inline void twister_shuffle(Twister *t, uint8_t *items, int length) {
    for (int i = length - 1; i > 0; i--) {
        int j = (int)twister_below(t, (uint32_t)i + 1);
        uint8_t swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}

/* A random.Random's own generator, as getstate() hands it over: CPython regenerates all
 * 624 words at once when its index reaches the end, so an imported state (which may be
 * half used) continues exactly as it would have in Python. */
static inline uint32_t cpython_next(Twister *t) {
    if (t->index >= MT_N) {
        for (int kk = 0; kk < MT_N; kk++) twister_twist_word(t->state, kk);
        t->index = 0;
    }
    return twister_temper(t->state[t->index++]);
}

/* random.Random.choice's index: _randbelow_with_getrandbits(n). */
static inline uint32_t cpython_below(Twister *t, uint32_t n) {
    int bits = 32 - __builtin_clz(n);
    uint32_t r = cpython_next(t) >> (32 - bits);
    while (r >= n) r = cpython_next(t) >> (32 - bits);
    return r;
}

#endif /* TWINTABLE_MT19937_H */
