// lh_strlib.c: string.find, match, gmatch and gsub for the sandbox, on the matcher of
// lh_match.c: the same results and messages as liblua's, and a stop reaches them.
#define _GNU_SOURCE /* memmem */
#include "lh_matcher.h"

#include <ctype.h>
#include <string.h>

#define LH_SPECIALS "^$*+?.([%-"

/* A 1-based, possibly negative start position as a 0-based offset (ls + 1 past the end). */
static size_t lh_start(lua_State *L, int arg, size_t ls) {
  lua_Integer pos = luaL_optinteger(L, arg, 1);
  if (pos > 0) return (size_t)pos - 1;
  if (pos == 0 || pos < -(lua_Integer)ls) return 0;
  return ls + (size_t)pos;
}

static int lh_has_specials(const char *p, size_t lp) {
  size_t upto = 0;
  do { /* strpbrk stops at a '\0', and patterns may contain them */
    if (strpbrk(p + upto, LH_SPECIALS)) return 1;
    upto += strlen(p + upto) + 1;
  } while (upto <= lp);
  return 0;
}

static int lh_find_aux(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = lh_start(L, 3, ls);
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || !lh_has_specials(p, lp))) {
    /* glibc's memmem is linear in the subject, so a plain find needs no polling */
    const char *hit = lp == 0 ? s + init : memmem(s + init, ls - init, p, lp);
    if (hit != NULL) {
      lua_pushinteger(L, (hit - s) + 1);
      lua_pushinteger(L, (lua_Integer)((hit - s) + lp));
      return 2;
    }
  } else {
    lh_matcher m;
    int anchor = *p == '^';
    if (anchor) {
      p++;
      lp--;
    }
    lh_matcher_init(&m, L, s, ls, p, lp);
    const char *start = s + init;
    do {
      lh_matcher_reset(&m);
      const char *e = lh_do_match(&m, start, p);
      if (e != NULL) {
        if (!find) return lh_push_captures(&m, start, e);
        lua_pushinteger(L, (start - s) + 1);
        lua_pushinteger(L, e - s);
        return lh_push_captures(&m, NULL, NULL) + 2;
      }
    } while (start++ < m.src_end && !anchor);
  }
  luaL_pushfail(L);
  return 1;
}

static int lh_find(lua_State *L) { return lh_find_aux(L, 1); }
static int lh_match(lua_State *L) { return lh_find_aux(L, 0); }

/* gmatch's iterator: upvalues are the subject, the pattern and this state. */
typedef struct lh_gmatch_state {
  const char *src, *p, *lastmatch;
  lh_matcher m;
} lh_gmatch_state;

static int lh_gmatch_next(lua_State *L) {
  lh_gmatch_state *g = lua_touserdata(L, lua_upvalueindex(3));
  g->m.L = L; /* the iterator may run on another coroutine than the one that made it */
  for (const char *src = g->src; src <= g->m.src_end; src++) {
    lh_matcher_reset(&g->m);
    const char *e = lh_do_match(&g->m, src, g->p);
    if (e != NULL && e != g->lastmatch) {
      g->src = g->lastmatch = e;
      return lh_push_captures(&g->m, src, e);
    }
  }
  return 0;
}

/* A leading '^' is no anchor here (it would stop the iteration): it matches itself. */
static int lh_gmatch(lua_State *L) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = lh_start(L, 3, ls);
  lua_settop(L, 2);
  lh_gmatch_state *g = lua_newuserdatauv(L, sizeof *g, 0);
  if (init > ls) init = ls + 1;
  lh_matcher_init(&g->m, L, s, ls, p, lp);
  g->src = s + init;
  g->p = p;
  g->lastmatch = NULL;
  lua_pushcclosure(L, lh_gmatch_next, 3);
  return 1;
}

/* Appends the replacement string (argument 3), with %0-%9 and %% expanded. */
static void lh_add_string(lh_matcher *m, luaL_Buffer *b, const char *s, const char *e) {
  lua_State *L = m->L;
  size_t l;
  const char *news = lua_tolstring(L, 3, &l);
  const char *p;
  while ((p = memchr(news, '%', l)) != NULL) {
    lh_tick(m, 1 + (unsigned)((size_t)(p - news) >> 6));
    luaL_addlstring(b, news, (size_t)(p - news));
    p++;
    if (*p == '%') {
      luaL_addchar(b, *p);
    } else if (*p == '0') {
      luaL_addlstring(b, s, (size_t)(e - s));
    } else if (isdigit((unsigned char)*p)) {
      const char *cap;
      ptrdiff_t len = lh_capture(m, *p - '1', s, e, &cap);
      if (len == LH_CAP_POSITION) luaL_addvalue(b);
      else luaL_addlstring(b, cap, (size_t)len);
    } else {
      luaL_error(L, "invalid use of '%c' in replacement string", '%');
    }
    l -= (size_t)(p + 1 - news);
    news = p + 1;
  }
  luaL_addlstring(b, news, l);
}

/* Appends the replacement for a match from s to e; returns whether it changed the text. */
static int lh_add_value(lh_matcher *m, luaL_Buffer *b, const char *s, const char *e, int tr) {
  lua_State *L = m->L;
  if (tr == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int n = lh_push_captures(m, s, e);
    lua_call(L, n, 1);
  } else if (tr == LUA_TTABLE) {
    lh_push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    lh_add_string(m, b, s, e);
    return 1;
  }
  if (!lua_toboolean(L, -1)) { /* nil or false: keep the original text */
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1))
    return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
}

static int lh_gsub(lua_State *L) {
  size_t srcl, lp;
  const char *src = luaL_checklstring(L, 1, &srcl);
  const char *p = luaL_checklstring(L, 2, &lp);
  const char *lastmatch = NULL;
  int tr = lua_type(L, 3);
  lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
  int anchor = *p == '^';
  lua_Integer n = 0;
  int changed = 0;
  luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE,
                   3, "string/function/table");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (anchor) {
    p++;
    lp--;
  }
  lh_matcher m;
  lh_matcher_init(&m, L, src, srcl, p, lp);
  while (n < max_s) {
    lh_matcher_reset(&m);
    const char *e = lh_do_match(&m, src, p);
    if (e != NULL && e != lastmatch) {
      n++;
      changed = lh_add_value(&m, &b, src, e, tr) | changed;
      src = lastmatch = e;
    } else if (src < m.src_end) {
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchor) break;
  }
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&b, src, (size_t)(m.src_end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  return 2;
}

void lh_pushmatchlib(lua_State *L) {
  static const luaL_Reg functions[] = {
    {"find", lh_find}, {"match", lh_match}, {"gmatch", lh_gmatch}, {"gsub", lh_gsub}, {NULL, NULL},
  };
  luaL_setfuncs(L, functions, 0);
}
