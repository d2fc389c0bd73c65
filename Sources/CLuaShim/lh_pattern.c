// lh_pattern.c: a step-counting dry run of Lua's pattern matching, for the sandbox.
//
// Why C: one call to string.find/match/gmatch/gsub runs entirely inside liblua's C
// matcher, where no hook can stop it, and a backtracking pattern can take seconds on a
// short subject (("a"):rep(150):find(".-.-.-.-b") takes ~4 s). The sandbox first runs this
// matcher, written here from the Lua manual's description of patterns, with a step budget;
// only if the work stays within the budget does it call the real function, so results are
// always liblua's own. Anything this matcher does not understand (a malformed pattern) is
// left to liblua, which raises its usual error quickly.
#include "lh_shim.h"

#include <ctype.h>
#include <string.h>

#define LH_MAXCAPTURES 32
#define LH_MAXDEPTH 200
#define LH_CAP_UNFINISHED (-1)
#define LH_CAP_POSITION (-2)

typedef struct lh_matcher {
  const char *src_init, *src_end, *p_end;
  long long steps, budget;
  int depth, level;
  int over; /* 1: budget exceeded; 2: malformed or too deep, which liblua reports itself */
  struct { const char *init; ptrdiff_t len; } capture[LH_MAXCAPTURES];
} lh_matcher;

static const char *lh_do_match(lh_matcher *m, const char *s, const char *p);

static int lh_tick(lh_matcher *m) {
  if (++m->steps > m->budget) m->over = 1;
  return !m->over;
}

/* The end of the single-character class starting at p, or NULL if malformed. */
static const char *lh_class_end(lh_matcher *m, const char *p) {
  if (p >= m->p_end) return NULL;
  char c = *p++;
  if (c == '%') return p < m->p_end ? p + 1 : NULL;
  if (c == '[') {
    if (p < m->p_end && *p == '^') p++;
    do {
      if (p >= m->p_end) return NULL;
      c = *p++;
      if (c == '%') {
        if (p >= m->p_end) return NULL;
        p++;
      }
    } while (p >= m->p_end || *p != ']');
    return p + 1;
  }
  return p;
}

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
    default: return cl == c;
  }
  if (isupper(cl)) r = !r;
  return r != 0;
}

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

static int lh_single(lh_matcher *m, const char *s, const char *p, const char *ep) {
  if (s >= m->src_end || !lh_tick(m)) return 0;
  int c = (unsigned char)*s;
  switch (*p) {
    case '.': return 1;
    case '%': return lh_class(c, (unsigned char)*(p + 1));
    case '[': return lh_in_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
  }
}

static const char *lh_max_expand(lh_matcher *m, const char *s, const char *p, const char *ep) {
  ptrdiff_t i = 0;
  while (lh_single(m, s + i, p, ep)) i++;
  while (i >= 0 && !m->over) {
    const char *r = lh_do_match(m, s + i, ep + 1);
    if (r) return r;
    i--;
  }
  return NULL;
}

static const char *lh_min_expand(lh_matcher *m, const char *s, const char *p, const char *ep) {
  for (;;) {
    const char *r = lh_do_match(m, s, ep + 1);
    if (r || m->over) return r;
    if (lh_single(m, s, p, ep)) s++; else return NULL;
  }
}

static const char *lh_do_match(lh_matcher *m, const char *s, const char *p) {
  if (m->over) return NULL;
  if (++m->depth > LH_MAXDEPTH) { /* liblua raises "pattern too complex" here itself */
    m->over = 2;
    return NULL;
  }
  while (p < m->p_end && !m->over) {
    if (!lh_tick(m)) break;
    switch (*p) {
      case '(': {
        if (m->level >= LH_MAXCAPTURES) { m->over = 2; break; }
        int position = p + 1 < m->p_end && *(p + 1) == ')';
        m->capture[m->level].init = s;
        m->capture[m->level].len = position ? LH_CAP_POSITION : LH_CAP_UNFINISHED;
        m->level++;
        const char *r = lh_do_match(m, s, p + (position ? 2 : 1));
        if (!r) m->level--;
        m->depth--;
        return r;
      }
      case ')': {
        int l = m->level - 1;
        while (l >= 0 && m->capture[l].len != LH_CAP_UNFINISHED) l--;
        if (l < 0) { m->over = 2; break; }
        m->capture[l].len = s - m->capture[l].init;
        const char *r = lh_do_match(m, s, p + 1);
        if (!r) m->capture[l].len = LH_CAP_UNFINISHED;
        m->depth--;
        return r;
      }
      case '$':
        if (p + 1 == m->p_end) {
          m->depth--;
          return s == m->src_end ? s : NULL;
        }
        goto plain;
      case '%':
        if (p + 1 < m->p_end && *(p + 1) == 'b') {
          if (p + 3 >= m->p_end) { m->over = 2; break; }
          if (s >= m->src_end || *s != *(p + 2)) { s = NULL; goto done; }
          int open = *(p + 2), close = *(p + 3), cont = 1;
          const char *q = s;
          while (++q < m->src_end && lh_tick(m)) {
            if (*q == close) { if (--cont == 0) break; }
            else if (*q == open) cont++;
          }
          if (q >= m->src_end || m->over) { s = NULL; goto done; }
          s = q + 1;
          p += 4;
          continue;
        }
        if (p + 1 < m->p_end && *(p + 1) == 'f') {
          p += 2;
          if (p >= m->p_end || *p != '[') { m->over = 2; break; }
          const char *ep = lh_class_end(m, p);
          if (!ep) { m->over = 2; break; }
          int prev = s == m->src_init ? 0 : (unsigned char)*(s - 1);
          int cur = s < m->src_end ? (unsigned char)*s : 0;
          if (!lh_in_set(prev, p, ep - 1) && lh_in_set(cur, p, ep - 1)) { p = ep; continue; }
          s = NULL;
          goto done;
        }
        if (p + 1 < m->p_end && isdigit((unsigned char)*(p + 1))) {
          int l = *(p + 1) - '1';
          if (l < 0 || l >= m->level || m->capture[l].len == LH_CAP_UNFINISHED) { m->over = 2; break; }
          size_t len = m->capture[l].len == LH_CAP_POSITION ? 0 : (size_t)m->capture[l].len;
          m->steps += (long long)len;
          if ((size_t)(m->src_end - s) >= len && memcmp(m->capture[l].init, s, len) == 0) {
            s += len;
            p += 2;
            continue;
          }
          s = NULL;
          goto done;
        }
        goto plain;
      default:
      plain: {
        const char *ep = lh_class_end(m, p);
        if (!ep) { m->over = 2; break; }
        char q = ep < m->p_end ? *ep : '\0';
        if (!lh_single(m, s, p, ep)) {
          if (q == '*' || q == '?' || q == '-') { p = ep + 1; continue; }
          s = NULL;
        } else if (q == '?') {
          const char *r = lh_do_match(m, s + 1, ep + 1);
          if (r) { s = r; goto done; }
          p = ep + 1;
          continue;
        } else if (q == '+') {
          s = lh_max_expand(m, s + 1, p, ep);
        } else if (q == '*') {
          s = lh_max_expand(m, s, p, ep);
        } else if (q == '-') {
          s = lh_min_expand(m, s, p, ep);
        } else {
          s++;
          p = ep;
          continue;
        }
        goto done;
      }
    }
  }
  if (m->over) s = NULL;
done:
  m->depth--;
  return s;
}

int lh_pattern_within_budget(const char *s, size_t ls, const char *p, size_t lp, size_t init,
                             int all, long long limit, long long budget) {
  lh_matcher m;
  memset(&m, 0, sizeof m);
  m.src_init = s;
  m.src_end = s + ls;
  m.budget = budget;
  int anchor = lp > 0 && *p == '^';
  if (anchor) { p++; lp--; }
  m.p_end = p + lp;
  const char *start = s + (init > ls ? ls : init);
  long long matches = 0;
  do {
    m.level = 0;
    m.depth = 0;
    const char *e = lh_do_match(&m, start, p);
    if (m.over) return m.over == 2;
    if (e != NULL) {
      matches++;
      if (!all || (limit >= 0 && matches >= limit)) return 1;
      start = e > start ? e : start + 1;
    } else {
      start++;
    }
  } while (start <= m.src_end && !anchor && lh_tick(&m));
  return m.over != 1;
}
