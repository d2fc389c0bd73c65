// lh_lib.c: the sandbox's versions of library functions whose one C call could run long.
//
// Why C: a hook reaches only Lua instructions. A library function whose loop a script
// controls without paying for it in memory (a count, a `__len` result, an empty string
// repeated, the parser's work between two pieces of input) would run past every limit.
// Each function here behaves as liblua's (same results, same messages) and calls
// lh_poll every LH_LIB_POLL steps, so a deadline, an interrupt or the instruction budget
// stops it within one poll interval.
//
// Audit of the standard library (5.4.4) for such loops, and where each is bounded:
//   string.rep, table.concat/insert/remove/move: here, polled; load: lh_load.c.
//   string.find/match/gmatch/gsub: lh_strlib.c on lh_match.c, polled; a plain find uses
//   memmem (linear).
//   table.sort: liblua's sort, given a comparator from here that polls (same order),
//   unless its work is bounded already (see lh_sort_direct).
//   os.date: handed to liblua in pieces, polled (strftime runs once per conversion).
//   Linear in a string or table the script already holds (memory bounds them, and each
//   pass is one call that returns to Lua): string.byte/char/format/len/lower/upper/
//   reverse/sub/pack/packsize/unpack, utf8.*, tostring, tonumber, table.unpack and
//   select (both bounded by the C stack, LUAI_MAXSTACK), print. About 3.5 ns a byte:
//   0.2 s for a 64 MiB string, the most the default plugin limit lets a script hold.
//   Constant time: math.*, os.clock/time/difftime, the rest of base and coroutine.
//   The collector (collectgarbage, allocation steps) is bounded by the memory limit.
#include "lh_private.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LH_LIB_POLL 1024
/* The longest string.rep result liblua's lstrlib.c allows (its MAXSIZE): INT_MAX bytes,
 * beyond which it says "resulting string too large" instead of trying to allocate. */
#define LH_REP_MAXSIZE ((size_t)INT_MAX)

/* A counter that polls every LH_LIB_POLL steps. */
typedef struct lh_steps {
  lua_State *L;
  long long count;
} lh_steps;

static inline void lh_step(lh_steps *t, long long n) {
  t->count += n;
  if (t->count >= LH_LIB_POLL) {
    long long count = t->count;
    t->count = 0;
    lh_poll(t->L, count);
  }
}

/* ---- string.rep ---- */

static int lh_rep(lua_State *L) {
  size_t l, lsep;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  if (n <= 0 || l + lsep == 0) { /* nothing to repeat: no loop at all */
    lua_pushliteral(L, "");
    return 1;
  }
  if (l + lsep < l || l + lsep > LH_REP_MAXSIZE / (size_t)n)
    return luaL_error(L, "resulting string too large");
  size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
  /* Scratch space as a plain userdata, not a luaL_Buffer: a buffer's box is freed only by
   * its finalizer, so one abandoned by a stop would hold its memory until the collector
   * gets round to finalizers, while a userdata goes at the next (even emergency) cycle. */
  char *start = lua_newuserdatauv(L, total, 0); /* the memory limit refuses a huge one */
  /* One unit (s, then sep), then the rest copied from the filled part, doubling: a few
   * large copies instead of n small ones, each charged and polled. The result repeats
   * with period `unit`, so each byte equals the one `back` bytes before it, for `back` the
   * largest multiple of unit filled so far: a copy of at most `back` bytes from there
   * never overlaps itself nor reads a byte not yet written, whatever unit is (a unit over
   * the 1 MiB poll chunk once rounded the chunk to nothing and copied unwritten bytes). */
  size_t unit = l + lsep;
  memcpy(start, s, l);
  if (lsep > 0 && n > 1) memcpy(start + l, sep, lsep);
  size_t filled = n > 1 ? unit : l;
  lh_steps steps = {L, 0};
  while (filled < total) {
    size_t back = filled - filled % unit; /* >= unit: filled starts at unit when n > 1 */
    size_t chunk = back < total - filled ? back : total - filled;
    if (chunk > (1u << 20)) chunk = 1u << 20; /* poll at least every MiB */
    memcpy(start + filled, start + filled - back, chunk);
    filled += chunk;
    lh_step(&steps, 1 + (long long)(chunk >> 6));
  }
  lua_pushlstring(L, start, total);
  return 1;
}

/* ---- table functions ---- */

enum { LH_TAB_R = 1, LH_TAB_W = 2, LH_TAB_L = 4 };

/* Argument arg must be a table, or have the metamethods that the operations in `what` use. */
static void lh_checktab(lua_State *L, int arg, int what) {
  if (lua_type(L, arg) == LUA_TTABLE) return;
  if (lua_getmetatable(L, arg)) {
    static const char *const fields[] = {"__index", "__newindex", "__len"};
    int n = 1, ok = 1;
    for (int k = 0; k < 3 && ok; k++) {
      if (!(what & (1 << k))) continue;
      lua_pushstring(L, fields[k]);
      n++;
      ok = lua_rawget(L, -n) != LUA_TNIL;
    }
    lua_pop(L, n);
    if (ok) return;
  }
  luaL_checktype(L, arg, LUA_TTABLE); /* raises the usual message */
}

static lua_Integer lh_length(lua_State *L, int arg, int what) {
  lh_checktab(L, arg, what | LH_TAB_L);
  return luaL_len(L, arg);
}

/* Copies n slots in order, dst[to + k] = src[from + k] for k from 0 (or, descending, from
 * n - 1), through metamethods as liblua's loops do: the shifts of table.insert and remove,
 * and table.move. It polls after every LH_LIB_POLL slots, so the inner loop is liblua's
 * own, with no counter in it. */
static void lh_copy_slots(lua_State *L, int src, lua_Integer from, int dst, lua_Integer to,
                          lua_Integer n, int descending) {
  for (lua_Integer done = 0; done < n;) {
    lua_Integer chunk = n - done < LH_LIB_POLL ? n - done : LH_LIB_POLL;
    if (descending) {
      for (lua_Integer k = n - 1 - done, last = n - done - chunk; k >= last; k--) {
        lua_geti(L, src, from + k);
        lua_seti(L, dst, to + k);
      }
    } else {
      for (lua_Integer k = done, end = done + chunk; k < end; k++) {
        lua_geti(L, src, from + k);
        lua_seti(L, dst, to + k);
      }
    }
    done += chunk;
    if (chunk == LH_LIB_POLL) lh_poll(L, LH_LIB_POLL);
  }
}

static int lh_insert(lua_State *L) {
  lua_Integer e = lh_length(L, 1, LH_TAB_R | LH_TAB_W);
  e = (lua_Integer)((lua_Unsigned)e + 1u); /* the first empty slot */
  lua_Integer pos;
  switch (lua_gettop(L)) {
    case 2: pos = e; break;
    case 3: {
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
      if (e > pos) lh_copy_slots(L, 1, pos, 1, pos + 1, e - pos, 1); /* shift up */
      break;
    }
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

static int lh_remove(lua_State *L) {
  lua_Integer size = lh_length(L, 1, LH_TAB_R | LH_TAB_W);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size) /* liblua 5.4.4 names argument #1 here (its ltablib.c does) */
    luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
  lua_geti(L, 1, pos);
  if (pos < size) { /* shift down */
    lh_copy_slots(L, 1, pos + 1, 1, pos, size - pos, 0);
    pos = size;
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

static int lh_move(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  lua_Integer t = luaL_checkinteger(L, 4);
  int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
  lh_checktab(L, 1, LH_TAB_R);
  lh_checktab(L, tt, LH_TAB_W);
  if (e >= f) {
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    lua_Integer n = e - f + 1;
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
    /* overlapping and moving up: copy from the end */
    int descending = !(t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ)));
    lh_copy_slots(L, 1, f, tt, t, n, descending);
  }
  lua_pushvalue(L, tt);
  return 1;
}

static void lh_addfield(lua_State *L, luaL_Buffer *b, lua_Integer i) {
  lua_geti(L, 1, i);
  if (!lua_isstring(L, -1))
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1),
               (LUAI_UACINT)i);
  luaL_addvalue(b);
}

static int lh_concat(lua_State *L) {
  luaL_Buffer b;
  lua_Integer last = lh_length(L, 1, LH_TAB_R);
  size_t lsep;
  const char *sep = luaL_optlstring(L, 2, "", &lsep);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  last = luaL_optinteger(L, 4, last);
  luaL_buffinit(L, &b);
  lh_steps steps = {L, 0};
  for (; i < last; i++) {
    lh_addfield(L, &b, i);
    luaL_addlstring(&b, sep, lsep);
    lh_step(&steps, 1 + (long long)(lsep >> 6));
  }
  if (i == last) lh_addfield(L, &b, i);
  luaL_pushresult(&b);
  return 1;
}

/* table.sort's comparator: the script's (upvalue 1) or `<`, polled. liblua's sort asks
 * the same questions in the same order either way, so the order it produces is stock's. */
static int lh_sortless(lua_State *L) {
  lh_poll(L, 1);
  if (lua_isnil(L, lua_upvalueindex(1))) {
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_settop(L, 3);
  lua_call(L, 2, 1);
  return 1;
}

/* What liblua's sort may run on, for the table at 1 (see lh_sort_direct). */
enum { LH_SORT_POLLED, LH_SORT_DIRECT_PLAIN, LH_SORT_DIRECT_COPY };

/* Whether liblua's sort may run on the table at 1 without a polled comparator, and how:
 * a Lua comparator runs under hooks itself, and so does a comparison a Lua __lt makes; a
 * plain table of at most LH_SORT_MAX_DIRECT numbers, short strings without NUL bytes and
 * objects with a Lua __lt sorts quickly (~20 ms for the first two).
 * Anything else (long strings, whose comparisons cost their length; C comparators; huge
 * tables; __len and __index) goes through lh_sortless.
 * With objects that have a Lua __lt, the script runs during the sort, and could put long
 * strings in the table's slots between two of its comparisons: the sort would then compare
 * them in C, unpolled, for as long as they are long. So the sort reads a copy of its own
 * (LH_SORT_DIRECT_COPY, lh_pushcopyview): only the values checked here are compared. */
#define LH_SORT_MAX_DIRECT 200000
static int lh_shortplain(lua_State *L, int idx) {
  size_t len;
  const char *s = lua_tolstring(L, idx, &len);
  return len <= 64 && memchr(s, '\0', len) == NULL;
}

static int lh_sort_direct(lua_State *L) {
  if (!lua_isnoneornil(L, 2)) return lua_iscfunction(L, 2) ? LH_SORT_POLLED : LH_SORT_DIRECT_PLAIN;
  if (lua_type(L, 1) != LUA_TTABLE || lua_getmetatable(L, 1)) {
    if (lua_type(L, 1) == LUA_TTABLE) lua_pop(L, 1);
    return LH_SORT_POLLED;
  }
  lua_Unsigned n = lua_rawlen(L, 1);
  if (n > LH_SORT_MAX_DIRECT) return LH_SORT_POLLED;
  int objects = 0;
  for (lua_Unsigned i = 1; i <= n; i++) {
    int type = lua_rawgeti(L, 1, (lua_Integer)i);
    /* A short string without NUL bytes: liblua compares strings piece by piece between
     * NULs (a strcoll and a strlen each), so 64 bytes of NULs cost 64 calls a comparison,
     * 2 s for a table of them (a hostile review). */
    int cheap = type == LUA_TNUMBER || (type == LUA_TSTRING && lh_shortplain(L, -1));
    /* An object whose __lt is a Lua function: its comparisons run under hooks, as stock
     * runs them, straight from sort (through lh_sortless, one more C level each: errors
     * raised with a level counted it, and nested sorts overflowed at half stock's depth).
     * One that changes its __lt to a C function meanwhile gets one bounded by n. */
    if (!cheap && (type == LUA_TTABLE || type == LUA_TUSERDATA)) {
      if (luaL_getmetafield(L, -1, "__lt") != LUA_TNIL) {
        cheap = lua_isfunction(L, -1) && !lua_iscfunction(L, -1);
        objects |= cheap;
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    if (!cheap) return LH_SORT_POLLED;
  }
  return objects ? LH_SORT_DIRECT_COPY : LH_SORT_DIRECT_PLAIN;
}

/* A stand-in for an object whose length comes from __len, handed to liblua's sort once
 * lh_sort has read that length (so __len runs once, as in stock): an empty table whose
 * metamethods read and write the object (upvalue 1), through its own metamethods, and
 * give the length read (upvalue 2). */
static int lh_view_index(lua_State *L) {
  lua_geti(L, lua_upvalueindex(1), lua_tointeger(L, 2));
  return 1;
}

static int lh_view_newindex(lua_State *L) {
  lua_settop(L, 3);
  lua_seti(L, lua_upvalueindex(1), lua_tointeger(L, 2));
  return 0;
}

static int lh_view_len(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(2));
  return 1;
}

static void lh_pushview(lua_State *L, int obj, lua_Integer n) {
  static const luaL_Reg meta[] = {
    {"__index", lh_view_index}, {"__newindex", lh_view_newindex}, {"__len", lh_view_len}, {NULL, NULL},
  };
  lua_createtable(L, 0, 0);
  lua_createtable(L, 0, 3);
  lua_pushvalue(L, obj);
  lua_pushinteger(L, n);
  luaL_setfuncs(L, meta, 2);
  lua_setmetatable(L, -2);
}

/* The table a sort with a Lua __lt reads (an empty table, whose metamethods have upvalues:
 * 1 the copy, 2 its length, 3 the script's table): it reads the copy, and each write goes
 * to the copy and then to the script's table, through its metamethods as stock's sort
 * writes (so the script sees the table as stock's sort leaves it, also after an error).
 * What the script writes to its table during the sort is what the sort does not see. */
static int lh_copy_index(lua_State *L) {
  lua_rawgeti(L, lua_upvalueindex(1), lua_tointeger(L, 2));
  return 1;
}

static int lh_copy_newindex(lua_State *L) {
  lua_settop(L, 3);
  lua_Integer i = lua_tointeger(L, 2);
  lua_pushvalue(L, 3);
  lua_rawseti(L, lua_upvalueindex(1), i);
  lua_seti(L, lua_upvalueindex(3), i);
  return 0;
}

/* Replaces the table at 1 (n elements, checked by lh_sort_direct) with its copy's view. */
static void lh_pushcopyview(lua_State *L, lua_Integer n) {
  static const luaL_Reg meta[] = {
    {"__index", lh_copy_index}, {"__newindex", lh_copy_newindex}, {"__len", lh_view_len}, {NULL, NULL},
  };
  lua_createtable(L, 0, 0);
  lua_createtable(L, 0, 3);
  lua_createtable(L, (int)n, 0);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    lua_rawseti(L, -2, i);
  }
  lua_pushinteger(L, n);
  lua_pushvalue(L, 1);
  luaL_setfuncs(L, meta, 3);
  lua_setmetatable(L, -2);
  lua_replace(L, 1);
}

/* upvalue 1: liblua's table.sort. Its argument checks run here first, in its order (raised
 * by liblua's sort from under this C function, they would name '?' and lack the script's
 * position): the table, its length, and only for more than one element the comparator. */
static int lh_sort(lua_State *L) {
  lh_checktab(L, 1, LH_TAB_R | LH_TAB_W | LH_TAB_L);
  int by_len = luaL_getmetafield(L, 1, "__len") != LUA_TNIL;
  if (by_len) lua_pop(L, 1);
  lua_Integer n = luaL_len(L, 1);
  if (n <= 1) return 0; /* stock does nothing more either */
  luaL_argcheck(L, n < INT_MAX, 1, "array too big");
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  if (by_len) {
    lh_pushview(L, 1, n);
    lua_replace(L, 1);
  }
  switch (lh_sort_direct(L)) {
  case LH_SORT_POLLED:
    lua_pushcclosure(L, lh_sortless, 1); /* the comparator (or nil) becomes its upvalue */
    break;
  case LH_SORT_DIRECT_COPY:
    lh_pushcopyview(L, n);
    break;
  }
  /* liblua's sort runs as this function, called directly rather than through lua_call: a
   * call from C would count one more C level per sort, and nested sorts (a comparator
   * that sorts) would overflow the C stack at half stock's depth. */
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* ---- os.exit ---- */

/* os.exit as liblua's, for a script that runs in a coroutine (as every chunk the host runs
 * does). With `close`, lua.c's os.exit closes the state, and lua_close closes the pending
 * to-be-closed variables of the main thread, where lua.c runs the script: here that is
 * the running thread, whose variables lua_close would skip. So they are closed first (the
 * thread is reset: its frames end here, and exit follows), then the sandbox's deferred
 * finalizers run (lh_gc.c), as the host's close runs them, then lua_close runs the rest. */
int lh_os_exit(lua_State *L) {
  int status;
  if (lua_isboolean(L, 1))
    status = lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE;
  else
    status = (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
  if (lua_toboolean(L, 2)) {
    lh_requeue_draining(L); /* called by a finalizer: the ones after it still run */
    if (L != lh_getstate(L)->main) lua_resetthread(L); /* __close errors only warn, as at close */
    lh_finalize_all(L);
    lua_close(L);
  }
  exit(status);
}

/* ---- os.date ---- */

#define LH_DATE_PIECE 1024

/* The length of the conversion or plain character at p (a '%' with its E or O modifier
 * and its letter is one token: a piece must not end inside one). */
static size_t lh_date_token(const char *p, const char *end) {
  if (*p != '%' || p + 1 >= end) return 1;
  if ((p[1] == 'E' || p[1] == 'O') && p + 2 < end) return 3;
  return 2;
}

/* Pushes the original (upvalue 1) and its arguments for the format bytes [p, p + n): "!"
 * first for UTC, which applies to every piece, and the moment `when`. */
static void lh_date_call(lua_State *L, int utc, const char *p, size_t n, lua_Integer when) {
  lua_pushvalue(L, lua_upvalueindex(1));
  if (utc) {
    lua_pushliteral(L, "!");
    lua_pushlstring(L, p, n);
    lua_concat(L, 2);
  } else {
    lua_pushlstring(L, p, n);
  }
  lua_pushinteger(L, when);
}

/* os.date, with upvalue 1 the original: strftime runs once per conversion in one C call,
 * so a huge format is handed to the original in pieces, polling in between, all for the
 * same moment (read once when none is given). */
static int lh_osdate(lua_State *L) {
  size_t len;
  const char *format = luaL_optlstring(L, 1, "%c", &len);
  const char *body = format[0] == '!' ? format + 1 : format;
  if (len <= LH_DATE_PIECE || strcmp(body, "*t") == 0) { /* stock's test for "*t" */
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lh_call_wrapped(L, n, 1);
    return 1;
  }
  lua_Integer when = lua_isnoneornil(L, 2) ? (lua_Integer)time(NULL) : luaL_checkinteger(L, 2);
  const char *end = format + len;
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (const char *piece = body; piece < end;) {
    /* Plain '!' and '*' are copied here: at the start of a piece, the original would take
     * them for the UTC mark or the "*t" format. */
    const char *stop = piece;
    while (stop < end && (*stop == '!' || *stop == '*') && (size_t)(stop - piece) < LH_DATE_PIECE) stop++;
    if (stop > piece) {
      lh_poll(L, (long long)(stop - piece));
      luaL_addlstring(&b, piece, (size_t)(stop - piece));
      piece = stop;
      continue;
    }
    while (stop < end && (size_t)(stop - piece) < LH_DATE_PIECE) stop += lh_date_token(stop, end);
    lh_poll(L, (long long)(stop - piece));
    lh_date_call(L, body != format, piece, (size_t)(stop - piece), when);
    int status = lua_pcall(L, 2, 1, 0);
    if (status == LUA_ERRMEM) return lua_error(L);
    if (status != LUA_OK) {
      /* The piece has an invalid conversion (or the moment no date): stock's message quotes
       * the whole rest of the format, so the original runs again on all of it (a copy of
       * the rest, as long as that message) and stops at the same place, in this piece. */
      lua_pop(L, 1);
      lh_date_call(L, body != format, piece, (size_t)(end - piece), when);
      lh_call_wrapped(L, 2, 1);
      stop = end; /* it raises; if it did not, it formatted all the rest */
    }
    luaL_addvalue(&b);
    piece = stop;
  }
  luaL_pushresult(&b);
  return 1;
}

/* ---- Calling the original from a wrapper ----
 *
 * liblua's own function, called from our C wrapper instead of from the script, raises its
 * errors one level too deep: luaL_argerror finds no name for it ("bad argument #1 to
 * '?'": the original is no longer in package.loaded) and luaL_error takes the position
 * of its caller, our C wrapper (none), not the script's line. lh_call_wrapped notes, in a
 * message handler, whether the original raised the error itself, and if so raises it
 * again from the wrapper, which stands where stock's function stood. */

/* Upvalue 1: the original; upvalue 2 becomes true if the error comes from its own frame
 * (level 1 here: the function that raised). */
static int lh_wrapped_handler(lua_State *L) {
  lua_Debug ar;
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "f", &ar)) {
    lua_pushboolean(L, lua_rawequal(L, -1, lua_upvalueindex(1)));
    lua_replace(L, lua_upvalueindex(2));
  }
  lua_settop(L, 1);
  return 1;
}

/* Raises the message on top (the original's own) as the wrapper would have raised it. */
static int lh_reraise_own(lua_State *L) {
  static const char head[] = "bad argument #", unnamed[] = " to '?' (";
  size_t len;
  const char *msg = lua_tolstring(L, -1, &len);
  if (strncmp(msg, head, sizeof head - 1) == 0) {
    char *after;
    long arg = strtol(msg + sizeof head - 1, &after, 10);
    if (strncmp(after, unnamed, sizeof unnamed - 1) == 0 && msg[len - 1] == ')') {
      const char *extra = after + sizeof unnamed - 1;
      lua_pushlstring(L, extra, (size_t)(msg + len - 1 - extra));
      return luaL_argerror(L, (int)arg, lua_tostring(L, -1)); /* names the wrapper */
    }
  }
  luaL_where(L, 1); /* a luaL_error: the position of the wrapper's caller */
  lua_insert(L, -2);
  lua_concat(L, 2);
  return lua_error(L);
}

int lh_call_wrapped(lua_State *L, int nargs, int nresults) {
  int func = lua_gettop(L) - nargs;
  lua_pushvalue(L, func);
  lua_pushboolean(L, 0);
  lua_pushcclosure(L, lh_wrapped_handler, 2);
  lua_insert(L, func);
  int status = lua_pcall(L, nargs, nresults, func);
  lua_getupvalue(L, func, 2);
  int own = lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_remove(L, func);
  if (status == LUA_OK) return lua_gettop(L) - func + 1;
  /* A memory error reaches no handler (own stays 0); lua_error raises it as one again. */
  if (own && status == LUA_ERRRUN && lua_type(L, -1) == LUA_TSTRING) return lh_reraise_own(L);
  return lua_error(L);
}

/* ---- The replacements, installed over liblua's own (lh_sandbox.c, the differential) ---- */

/* t[name] = f as a C closure over the original t[name]. [-0, +0]; raises if that is no
 * function (it is one in a state whose libraries are open). */
static void lh_wrapfield(lua_State *L, int t, const char *name, lua_CFunction f) {
  if (lua_getfield(L, t, name) != LUA_TFUNCTION) luaL_error(L, "'%s' is no function", name);
  lua_pushcclosure(L, f, 1);
  lua_setfield(L, t, name);
}

void lh_setreplacements(lua_State *L, int G) {
  static const luaL_Reg string_functions[] = {{"rep", lh_rep}, {NULL, NULL}};
  static const luaL_Reg table_functions[] = {
    {"concat", lh_concat}, {"insert", lh_insert}, {"remove", lh_remove},
    {"move", lh_move},     {NULL, NULL},
  };
  G = lua_absindex(L, G);
  luaL_checkstack(L, 4, NULL);
  lua_pushcfunction(L, lh_sbload);
  lua_setfield(L, G, "load");
  lh_wrapfield(L, G, "collectgarbage", lh_sbcollectgarbage);
  lua_getfield(L, G, "string");
  luaL_setfuncs(L, string_functions, 0);
  lh_pushmatchlib(L);
  lua_getfield(L, G, "table");
  luaL_setfuncs(L, table_functions, 0);
  lh_wrapfield(L, lua_gettop(L), "sort", lh_sort);
  lua_getfield(L, G, "os");
  lh_wrapfield(L, lua_gettop(L), "date", lh_osdate);
  lua_pop(L, 3);
}

static int lh_installreplacements_k(lua_State *L) {
  lua_pushglobaltable(L);
  lh_setreplacements(L, -1);
  return 0;
}

int lh_installreplacements(lua_State *L) {
  if (!lua_checkstack(L, 2)) return LH_ERRSTACK;
  lua_pushcfunction(L, lh_installreplacements_k);
  return lh_pcall(L, 0, 0);
}
