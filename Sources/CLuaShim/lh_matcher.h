// lh_matcher.h: the sandbox's pattern matcher (lh_match.c), shared with the string
// functions built on it (lh_strlib.c).
#ifndef LH_MATCHER_H
#define LH_MATCHER_H

#include "lh_private.h"

#define LH_MAXCAPTURES 32 /* LUA_MAXCAPTURES */
#define LH_MAXDEPTH 200   /* MAXCCALLS of lstrlib: "pattern too complex" beyond it */
#define LH_CAP_UNFINISHED (-1)
#define LH_CAP_POSITION (-2)
#define LH_MATCH_POLL 1024

typedef struct lh_matcher {
  lua_State *L;
  const char *src_init, *src_end, *p_end;
  unsigned steps;
  int depth; /* recursion levels left */
  int level; /* captures open or closed */
  struct {
    const char *init;
    ptrdiff_t len;
  } capture[LH_MAXCAPTURES];
} lh_matcher;

/* n steps of work; every LH_MATCH_POLL steps, lh_poll charges them and raises a stop. */
static inline void lh_tick(lh_matcher *m, unsigned n) {
  m->steps += n;
  if (m->steps >= LH_MATCH_POLL) {
    long long steps = m->steps;
    m->steps = 0;
    lh_poll(m->L, steps);
  }
}

/// Where a match of p (up to p_end) starting at s ends, or NULL. Raises Lua errors for
/// malformed patterns, and pending stops every LH_MATCH_POLL steps.
const char *lh_do_match(lh_matcher *m, const char *s, const char *p);
/// Sets up m for subject s and pattern p; then lh_matcher_reset before each attempt.
void lh_matcher_init(lh_matcher *m, lua_State *L, const char *s, size_t ls, const char *p,
                     size_t lp);
void lh_matcher_reset(lh_matcher *m);
/// Capture i of a match from s to e (see lh_match.c). Pushes an integer for a position.
ptrdiff_t lh_capture(lh_matcher *m, int i, const char *s, const char *e, const char **cap);
void lh_push_capture(lh_matcher *m, int i, const char *s, const char *e);
/// Pushes every capture, or the whole match when there are none and s is not NULL.
int lh_push_captures(lh_matcher *m, const char *s, const char *e);

#endif
