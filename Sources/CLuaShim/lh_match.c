// lh_match.c: the sandbox's pattern matcher, which a stop reaches (used by lh_strlib.c
// for string.find, match, gmatch and gsub).
//
// Why C: one call to liblua's pattern functions runs entirely inside its C matcher, where
// no hook can stop it: a backtracking pattern takes seconds on a short subject
// (("a"):rep(150):find(".-.-.-.-b") takes ~4 s), and gsub's replacement work can be
// quadratic without allocating. This matcher, written here from the Lua 5.4 manual's
// description of patterns, behaves as liblua's (same results, same error messages) and
// counts its steps: every LH_MATCH_POLL steps it calls lh_poll, which charges the
// instruction budget and raises a pending stop. So there is no size threshold and no
// fixed step budget: linear work runs at any size, and superlinear work runs until the
// deadline or the budget stops it, within one poll interval.
//
// Subjects and patterns are Lua strings, which end in a '\0' that may be read (at
// src_end and p_end), as liblua's matcher also relies on.
#include "lh_matcher.h"

#include <ctype.h>
#include <string.h>

/* A set is scanned from its start for every character tested: charge its length, or a
 * pattern with a huge set would do unpaid work at each step. */
static inline unsigned lh_set_cost(const char *p, const char *ep) {
  return (unsigned)((size_t)(ep - p) >> 4);
}

/* The end of the set that starts at p, at its '['. */
static const char *lh_set_end(lh_matcher *m, const char *p) {
  const char *start = ++p;
  if (*p == '^') p++;
  do { /* the first character after '[' (or "[^") belongs to the set, even a ']' */
    if (p == m->p_end) luaL_error(m->L, "malformed pattern (missing ']')");
    if (*(p++) == '%' && p < m->p_end) p++;
  } while (*p != ']');
  lh_tick(m, lh_set_cost(start, p));
  return p + 1;
}

/* The end of the single-character class that starts at p. Inline: the matcher's loop
 * asks this of every pattern item it passes, and sets are the only long case. */
static inline __attribute__((always_inline)) const char *lh_class_end(lh_matcher *m,
                                                                      const char *p) {
  switch (*p) {
    case '%':
      if (p + 1 == m->p_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
      return p + 2;
    case '[': return lh_set_end(m, p);
    default: return p + 1;
  }
}

#ifdef __GLIBC__
/* Each of glibc's <ctype.h> tests is one lookup in the current locale's table of masks
 * (isalpha(c) is (*__ctype_b_loc())[c] & _ISalpha). Decoding a class letter to its mask
 * by this constant table, instead of tolower(cl), a switch and isupper(cl) for every
 * character tested, makes the test a load and an AND. It still reads the locale's table,
 * as liblua's does; the letters themselves are decoded as ASCII, which is what tolower
 * and isupper give for them in every locale glibc ships. */
static const unsigned short lh_class_masks[128] = {
    ['a'] = _ISalpha, ['c'] = _IScntrl, ['d'] = _ISdigit, ['g'] = _ISgraph,
    ['l'] = _ISlower, ['p'] = _ISpunct, ['s'] = _ISspace, ['u'] = _ISupper,
    ['w'] = _ISalnum, ['x'] = _ISxdigit, ['A'] = _ISalpha, ['C'] = _IScntrl,
    ['D'] = _ISdigit, ['G'] = _ISgraph, ['L'] = _ISlower, ['P'] = _ISpunct,
    ['S'] = _ISspace, ['U'] = _ISupper, ['W'] = _ISalnum, ['X'] = _ISxdigit,
};

/* Whether c is in the class %cl (an upper-case letter is the complement); a character
 * that names no class stands for itself. */
static inline __attribute__((always_inline)) int lh_class(int c, int cl) {
  if (cl < 128) {
    unsigned short mask = lh_class_masks[cl];
    int r;
    if (mask != 0) r = ((*__ctype_b_loc())[c] & mask) != 0;
    else if ((cl | 0x20) == 'z') r = c == '\0'; /* deprecated since 5.2 (use "\0"), still in 5.4's liblua */
    else return cl == c;
    return cl >= 'a' ? r : !r;
  }
  return cl == c;
}
#else
/* Whether c is in the class %cl (an upper-case letter is the complement); a character
 * that names no class stands for itself. */
static int lh_class(int c, int cl) {
  int r;
  switch (tolower(cl)) {
    case 'a': r = isalpha(c); break;
    case 'c': r = iscntrl(c); break;
    case 'd': r = isdigit(c); break;
    case 'g': r = isgraph(c); break;
    case 'l': r = islower(c); break;
    case 'p': r = ispunct(c); break;
    case 's': r = isspace(c); break;
    case 'u': r = isupper(c); break;
    case 'w': r = isalnum(c); break;
    case 'x': r = isxdigit(c); break;
    case 'z': r = c == '\0'; break; /* deprecated since 5.2 (use "\0"), still in 5.4's liblua */
    default: return cl == c;
  }
  if (isupper(cl)) r = !r;
  return r != 0;
}
#endif

/* Whether c is in the set [p .. ec], where p is at '[' and ec at the closing ']'. */
static int lh_in_set(int c, const char *p, const char *ec) {
  int wanted = 1;
  if (*(p + 1) == '^') {
    wanted = 0;
    p++;
  }
  while (++p < ec) {
    if (*p == '%') {
      p++;
      if (lh_class(c, (unsigned char)*p)) return wanted;
    } else if (*(p + 1) == '-' && p + 2 < ec) {
      p += 2;
      if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p) return wanted;
    } else if ((unsigned char)*p == c) {
      return wanted;
    }
  }
  return !wanted;
}

/* Whether the character at s matches the single-character class p .. ep. Inline: the
 * repetitions test it once per character. */
static inline __attribute__((always_inline)) int lh_single(lh_matcher *m, const char *s,
                                                           const char *p, const char *ep) {
  if (s >= m->src_end) return 0;
  int c = (unsigned char)*s;
  switch (*p) {
    case '.': return 1;
    case '%': return lh_class(c, (unsigned char)*(p + 1));
    case '[':
      lh_tick(m, lh_set_cost(p, ep));
      return lh_in_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
  }
}

static const char *lh_balance(lh_matcher *m, const char *s, const char *p) {
  if (p >= m->p_end - 1) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
  if (*s != *p) return NULL;
  int open = *p, close = *(p + 1), depth = 1;
  while (++s < m->src_end) {
    lh_tick(m, 1);
    if (*s == close) {
      if (--depth == 0) return s + 1;
    } else if (*s == open) {
      depth++;
    }
  }
  return NULL;
}

static const char *lh_max_expand(lh_matcher *m, const char *s, const char *p, const char *ep) {
  ptrdiff_t i = 0;
  while (lh_single(m, s + i, p, ep)) { /* counted in a register, paid every 1,024 */
    if ((++i & 1023) == 0) lh_tick(m, 1024);
  }
  for (; i >= 0; i--) { /* try the longest run first, then shorter ones */
    const char *r = lh_do_match(m, s + i, ep + 1);
    if (r) return r;
  }
  return NULL;
}

static const char *lh_min_expand(lh_matcher *m, const char *s, const char *p, const char *ep) {
  for (;;) {
    const char *r = lh_do_match(m, s, ep + 1);
    if (r) return r;
    if (!lh_single(m, s, p, ep)) return NULL;
    s++;
  }
}

static const char *lh_start_capture(lh_matcher *m, const char *s, const char *p, ptrdiff_t what) {
  if (m->level >= LH_MAXCAPTURES) luaL_error(m->L, "too many captures");
  m->capture[m->level].init = s;
  m->capture[m->level].len = what;
  m->level++;
  const char *r = lh_do_match(m, s, p);
  if (r == NULL) m->level--;
  return r;
}

static const char *lh_end_capture(lh_matcher *m, const char *s, const char *p) {
  int l = m->level - 1;
  while (l >= 0 && m->capture[l].len != LH_CAP_UNFINISHED) l--;
  if (l < 0) luaL_error(m->L, "invalid pattern capture");
  m->capture[l].len = s - m->capture[l].init;
  const char *r = lh_do_match(m, s, p);
  if (r == NULL) m->capture[l].len = LH_CAP_UNFINISHED;
  return r;
}

static const char *lh_back_reference(lh_matcher *m, const char *s, int digit) {
  int l = digit - '1';
  if (l < 0 || l >= m->level || m->capture[l].len == LH_CAP_UNFINISHED)
    luaL_error(m->L, "invalid capture index %%%d", l + 1);
  size_t len = (size_t)m->capture[l].len; /* a position capture is huge here: no match */
  if ((size_t)(m->src_end - s) < len) return NULL;
  lh_tick(m, (unsigned)(len >> 6));
  return memcmp(m->capture[l].init, s, len) == 0 ? s + len : NULL;
}

const char *lh_do_match(lh_matcher *m, const char *s, const char *p) {
  if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
  lh_tick(m, 1);
  /* Each pass of this loop consumes pattern; a long pattern is paid for every 64 items
   * (counted in a register: this loop is the matcher's hottest). */
  for (unsigned items = 0;; items++) {
    if ((items & 63) == 63) lh_tick(m, 64);
    if (p == m->p_end) break;
    switch (*p) {
      case '(':
        if (*(p + 1) == ')') s = lh_start_capture(m, s, p + 2, LH_CAP_POSITION);
        else s = lh_start_capture(m, s, p + 1, LH_CAP_UNFINISHED);
        goto done;
      case ')':
        s = lh_end_capture(m, s, p + 1);
        goto done;
      case '$':
        if (p + 1 != m->p_end) goto single; /* '$' is an anchor only at the end */
        if (s != m->src_end) s = NULL;
        goto done;
      case '%':
        switch (*(p + 1)) {
          case 'b':
            s = lh_balance(m, s, p + 2);
            if (s == NULL) goto done;
            p += 4;
            continue;
          case 'f': {
            p += 2;
            if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
            const char *ep = lh_class_end(m, p);
            lh_tick(m, 2 * lh_set_cost(p, ep));
            int prev = s == m->src_init ? '\0' : (unsigned char)*(s - 1);
            if (!lh_in_set(prev, p, ep - 1) && lh_in_set((unsigned char)*s, p, ep - 1)) {
              p = ep;
              continue;
            }
            s = NULL;
            goto done;
          }
          case '0': case '1': case '2': case '3': case '4':
          case '5': case '6': case '7': case '8': case '9':
            s = lh_back_reference(m, s, (unsigned char)*(p + 1));
            if (s == NULL) goto done;
            p += 2;
            continue;
          default: goto single;
        }
      default:
      single: {
        const char *ep = lh_class_end(m, p);
        if (!lh_single(m, s, p, ep)) {
          if (*ep == '*' || *ep == '?' || *ep == '-') { /* zero repetitions are fine */
            p = ep + 1;
            continue;
          }
          s = NULL;
          goto done;
        }
        switch (*ep) {
          case '?': {
            const char *r = lh_do_match(m, s + 1, ep + 1);
            if (r != NULL) {
              s = r;
              goto done;
            }
            p = ep + 1;
            continue;
          }
          case '+': s = lh_max_expand(m, s + 1, p, ep); goto done;
          case '*': s = lh_max_expand(m, s, p, ep); goto done;
          case '-': s = lh_min_expand(m, s, p, ep); goto done;
          default:
            s++;
            p = ep;
            continue;
        }
      }
    }
  }
done:
  m->depth++;
  return s;
}

void lh_matcher_init(lh_matcher *m, lua_State *L, const char *s, size_t ls, const char *p,
                            size_t lp) {
  m->L = L;
  m->src_init = s;
  m->src_end = s + ls;
  m->p_end = p + lp;
  m->steps = 0;
}

/* Before each attempt at a position. */
void lh_matcher_reset(lh_matcher *m) {
  m->level = 0;
  m->depth = LH_MAXDEPTH;
}

/* ---- Captures ---- */

/* Capture i of a match from s to e (the whole match if there are no captures and i is 0).
 * Pushes an integer for a position capture; returns the capture's length (or
 * LH_CAP_POSITION) and sets *cap to its start. */
ptrdiff_t lh_capture(lh_matcher *m, int i, const char *s, const char *e, const char **cap) {
  if (i >= m->level) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    *cap = s;
    return e - s;
  }
  ptrdiff_t len = m->capture[i].len;
  *cap = m->capture[i].init;
  if (len == LH_CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
  if (len == LH_CAP_POSITION) lua_pushinteger(m->L, (m->capture[i].init - m->src_init) + 1);
  return len;
}

void lh_push_capture(lh_matcher *m, int i, const char *s, const char *e) {
  const char *cap;
  ptrdiff_t len = lh_capture(m, i, s, e, &cap);
  if (len != LH_CAP_POSITION) lua_pushlstring(m->L, cap, (size_t)len);
}

/* Pushes every capture, or the whole match when there are none and s is not NULL. */
int lh_push_captures(lh_matcher *m, const char *s, const char *e) {
  int n = (m->level == 0 && s != NULL) ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) lh_push_capture(m, i, s, e);
  return n;
}
