// diff.h: what the differential harness's files share (see differential.c).
#ifndef LH_DIFF_H
#define LH_DIFF_H

#include <stddef.h>
#include <stdint.h>

/* ---- A growing byte buffer ---- */

typedef struct Buf {
  char *p;
  size_t n, cap;
} Buf;

void buf_putn(Buf *b, const void *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends bytes as a Lua string literal: "...", with \ddd for anything not printable. */
void buf_lualit(Buf *b, const char *s, size_t n);
void buf_free(Buf *b);

/* ---- Randomness: a seeded PRNG, or (fuzzing) the fuzzer's bytes first ---- */

typedef struct Rng {
  uint64_t s;
  const uint8_t *data; /* the fuzzer's input, consumed one decision at a time */
  size_t len, pos;
} Rng;

void rng_seed(Rng *r, uint64_t seed, uint64_t index);
uint32_t rng_below(Rng *r, uint32_t n); /* 0 .. n-1; n >= 1 */
static inline int rng_chance(Rng *r, uint32_t percent) { return rng_below(r, 100) < percent; }

/* ---- A generated case ---- */

/* How the two outcomes are compared (see differential.c, "Comparison modes"). */
enum { CMP_FULL = 0, CMP_TYPES = 1, CMP_SORT_OUTCOME = 2 };

typedef struct Case {
  Buf code;           /* the Lua chunk run in both states */
  const char *family; /* which generator made it */
  int mode;           /* CMP_* */
  int binary_load;    /* loads a chunk whose first byte is ESC (see ALLOWED DIFFERENCES) */
  int big;            /* may allocate a lot in stock: collect afterwards */
  int touches_gc;     /* changes collector settings: put them back afterwards */
} Case;

/* Fills c (whose code is empty) with case number `index` drawn from r. `big_ok`: may
 * generate cases where stock allocates up to a few hundred MiB. */
void gen_case(Rng *r, Case *c, int big_ok);

/* The sandbox's memory limit in the harness. The sandbox's default is 64 MiB; 16 MiB keeps
 * the cases that go past it cheap in stock (which really allocates and fills the string). */
#define DIFF_SHIM_LIMIT ((size_t)16 << 20)
/* Stock's allocator refuses beyond this, so that a case never really allocates more. */
#define DIFF_STOCK_CAP ((size_t)1 << 30)

#endif
