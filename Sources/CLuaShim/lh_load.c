// lh_load.c: the sandbox's load, and the loading of every chunk: the source is handed to
// the parser in pieces, with a poll in between, so that a stop reaches the parser.
//
// Why C: the parser runs inside one lua_load call, where no hook reaches; its work can be
// quadratic in the chunk (labels and gotos, `or` chains). Only the reader, called
// between pieces, can stop it.
#include "lh_private.h"

#include <string.h>
#include <time.h>

#define LH_LOAD_PIECE 256

typedef struct lh_pieces {
  const char *rest;  /* what is left of the current piece of source */
  size_t left;
  int function;      /* the source comes from a reader function (argument 1) */
  int started;       /* the first byte has been checked */
  long long since;   /* when the previous piece was handed over (lh_nanoseconds) */
} lh_pieces;

static long long lh_nanoseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The reader lua_load calls: hands the source on LH_LOAD_PIECE bytes at a time and polls
 * in between. It runs inside lua_load's protected parser, where raising is allowed (as
 * liblua's own reader for `load(f)` raises the errors of f). */
static const char *lh_piece(lua_State *L, void *ud, size_t *size) {
  lh_pieces *r = ud;
  /* The parser's work between two pieces is not proportional to their size (an `or`
   * chain is quadratic): the budget is charged by the time it took, at an instruction
   * per 2 ns, about what one costs. */
  long long now = lh_nanoseconds();
  long long spent = r->since > 0 ? (now - r->since) / 2 : 0;
  r->since = now;
  lh_poll(L, spent > LH_LOAD_PIECE / 4 ? spent : LH_LOAD_PIECE / 4);
  if (r->left == 0 && r->function) {
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      *size = 0;
      return NULL;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
    lua_replace(L, 5); /* keeps the piece alive while the parser reads it */
    r->rest = lua_tolstring(L, 5, &r->left);
  }
  if (r->left == 0) {
    *size = 0;
    return NULL;
  }
  if (!r->started) {
    r->started = 1;
    if (r->rest[0] == LUA_SIGNATURE[0])
      luaL_error(L, "attempt to load a binary chunk (not allowed in the sandbox)");
  }
  size_t n = r->left < LH_LOAD_PIECE ? r->left : LH_LOAD_PIECE;
  const char *piece = r->rest;
  r->rest += n;
  r->left -= n;
  *size = n;
  return piece;
}

void lh_skipprefix(const char **source, size_t *size) {
  if (*size >= 3 && memcmp(*source, "\xEF\xBB\xBF", 3) == 0) {
    *source += 3;
    *size -= 3;
  }
  if (*size > 0 && **source == '#') {
    const char *newline = memchr(*source, '\n', *size);
    size_t skipped = newline ? (size_t)(newline - *source) : *size;
    if (skipped + 1 < *size && (*source)[skipped + 1] == LUA_SIGNATURE[0]) skipped++;
    *source += skipped;
    *size -= skipped;
  }
}

int lh_loadpieces(lua_State *L, const char *buf, size_t len, const char *chunkname,
                  const char *mode) {
  lh_pieces r = {buf, len, 0, 1, 0}; /* binary chunks are the caller's choice here */
  return lua_load(L, lh_piece, &r, chunkname, mode);
}

int lh_sbload(lua_State *L) {
  size_t len = 0;
  const char *s = lua_tolstring(L, 1, &len);
  const char *mode = luaL_optstring(L, 3, "bt");
  int env = !lua_isnone(L, 4) ? 4 : 0;
  /* Without 'b' in the mode, lua_load refuses a binary chunk itself, with stock's message. */
  lh_pieces r = {s, len, s == NULL, strchr(mode, 'b') == NULL, 0};
  const char *chunkname;
  if (s != NULL) {
    chunkname = luaL_optstring(L, 2, s);
  } else {
    chunkname = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
  }
  /* The host's own chunks carry this prefix, and the debug slice keeps its hands off
   * their functions (lh_debug.c): a script may not name a chunk so. (A source text used
   * as its own name cannot start with '=' and compile.) */
  if (strncmp(chunkname, LH_HOSTCHUNK, sizeof LH_HOSTCHUNK - 1) == 0) {
    luaL_pushfail(L); /* as load fails: nil and the reason */
    lua_pushliteral(L, "chunk names starting with '" LH_HOSTCHUNK "' are the host's");
    return 2;
  }
  lua_settop(L, 5); /* slot 5 keeps the current piece of a reader function */
  int status = lua_load(L, lh_piece, &r, chunkname, mode);
  if (status == LUA_OK) {
    if (env) {
      lua_pushvalue(L, env);
      if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
  }
  if (lh_stop_reason(L, -1) != LH_STOP_NONE) return lua_error(L); /* a stop is no result */
  luaL_pushfail(L);
  lua_insert(L, -2);
  return 2;
}

