// lh_debug.c: the sandbox's slice of `debug`: traceback, getinfo without the function
// field, upvalueid, and upvaluejoin for Lua functions.
//
// Why C: both read the call stack (lua_getstack, lua_getinfo), which only C can. The slice
// cannot break out: it hands out no function, no local, no upvalue's value, no metatable
// and no hook; upvaluejoin rewires only Lua closures, which hold values of the script's
// own state and run under its limits (every host function is a C function). `traceback` names functions as liblua's does, by searching package.loaded, but
// that search runs over tables the script controls, so it polls for stops (lh_poll).
#include "lh_private.h"

#include <limits.h>
#include <string.h>

#define LH_TB_HEAD 10 /* levels shown before "...", as luaL_traceback */
#define LH_TB_TAIL 11 /* and after */

/* Searches the table on top, to `depth` levels, for the value at objidx. On success the
 * table stays, with the dotted name above it, and 1 is returned; else 0, with the stack as
 * it was. Polls as it goes. */
static int lh_findfield(lua_State *L, int objidx, int depth, long long *steps) {
  if (depth == 0 || !lua_istable(L, -1)) return 0;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (++*steps >= 1024) {
      lh_poll(L, *steps);
      *steps = 0;
    }
    if (lua_type(L, -2) == LUA_TSTRING) {
      if (lua_rawequal(L, objidx, -1)) {
        lua_pop(L, 1);
        return 1;
      }
      if (lh_findfield(L, objidx, depth - 1, steps)) { /* stack: t key value name */
        lua_pushliteral(L, ".");
        lua_replace(L, -3); /* t key "." name */
        lua_concat(L, 3);   /* t "key.name" */
        return 1;
      }
    }
    lua_pop(L, 1);
  }
  return 0;
}

/* Pushes the global name of the function of `ar` ("string.rep", "print"), or nothing.
 * Returns whether it pushed. */
static int lh_globalname(lua_State *L, lua_Debug *ar, lua_State *L1) {
  int top = lua_gettop(L);
  lua_getinfo(L1, "f", ar); /* pushes the function on L1 */
  lua_xmove(L1, L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  long long steps = 0;
  if (lh_findfield(L, top + 1, 2, &steps)) {
    const char *name = lua_tostring(L, -1);
    if (strncmp(name, LUA_GNAME ".", 3) == 0) {
      lua_pushstring(L, name + 3);
      lua_remove(L, -2);
    }
    lua_copy(L, -1, top + 1);
    lua_settop(L, top + 1);
    return 1;
  }
  lua_settop(L, top);
  return 0;
}

static void lh_funcname(lua_State *L, lua_Debug *ar, lua_State *L1) {
  if (lh_globalname(L, ar, L1)) {
    lua_pushfstring(L, "function '%s'", lua_tostring(L, -1));
    lua_remove(L, -2);
  } else if (*ar->namewhat != '\0') {
    lua_pushfstring(L, "%s '%s'", ar->namewhat, ar->name);
  } else if (*ar->what == 'm') {
    lua_pushliteral(L, "main chunk");
  } else if (*ar->what != 'C') {
    lua_pushfstring(L, "function <%s:%d>", ar->short_src, ar->linedefined);
  } else {
    lua_pushliteral(L, "?");
  }
}

/* Levels as the script sees them: frames of the sandbox's xpcall handler wrapper
 * (lh_xpcall_handler) are skipped, so `debug.traceback(msg, 2)` in a handler starts where
 * it does in stock Lua. Only the top LH_HIDDEN_SCAN frames are examined (handlers run
 * there): lua_getstack costs its level, so a deeper scan would make every call quadratic
 * in the stack's depth. */
#define LH_HIDDEN_SCAN 64

static int lh_hidden(lua_State *L1, lua_Debug *ar) {
  if (!lua_checkstack(L1, 1)) return 0;
  lua_getinfo(L1, "f", ar);
  int hidden = lua_tocfunction(L1, -1) == lh_xpcall_handler;
  lua_pop(L1, 1);
  return hidden;
}

/* The real level of visible level `level`, or -1 if there is none. */
static int lh_reallevel(lua_State *L1, int level) {
  lua_Debug ar;
  int hidden = 0;
  for (int real = 0, visible = 0; real < LH_HIDDEN_SCAN; real++) {
    if (!lua_getstack(L1, real, &ar)) return -1;
    if (lh_hidden(L1, &ar)) {
      hidden++;
      continue;
    }
    if (visible++ == level) return real;
  }
  int real = level + hidden; /* below the scanned frames, levels map one to one */
  return lua_getstack(L1, real, &ar) ? real : -1;
}

static int lh_getstack(lua_State *L1, int level, lua_Debug *ar) {
  int real = lh_reallevel(L1, level);
  return real >= 0 && lua_getstack(L1, real, ar);
}

/* error(message [, level]), as liblua's, with levels counted as the script sees them
 * (lh_getstack): in a handler given to the sandbox's xpcall, error(msg, 2) names the
 * function that failed, as in stock Lua, not the handler's wrapper (which has no line,
 * so the message had no position). */
int lh_error(lua_State *L) {
  int level = (int)luaL_optinteger(L, 2, 1); /* as stock: cast, so 2^32 + 1 is level 1 */
  lua_settop(L, 1);
  if (lua_type(L, 1) == LUA_TSTRING && level > 0) {
    lua_Debug ar;
    if (lh_getstack(L, level, &ar)) {
      lua_getinfo(L, "Sl", &ar);
      if (ar.currentline > 0) { /* as luaL_where */
        lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
      }
    }
  }
  return lua_error(L);
}

/* debug.traceback([thread,] [message [, level]]), formatted as luaL_traceback does. */
static int lh_traceback(lua_State *L) {
  int arg = 0;
  lua_State *L1 = L;
  if (lua_type(L, 1) == LUA_TTHREAD) {
    arg = 1;
    L1 = lua_tothread(L, 1);
  }
  const char *msg = lua_tostring(L, arg + 1);
  if (msg == NULL && !lua_isnoneornil(L, arg + 1)) { /* a non-string message: as is */
    lua_pushvalue(L, arg + 1);
    return 1;
  }
  int first = (int)luaL_optinteger(L, arg + 2, L == L1 ? 1 : 0); /* cast, as stock */
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (msg != NULL) {
    luaL_addstring(&b, msg);
    luaL_addchar(&b, '\n');
  }
  luaL_addstring(&b, "stack traceback:");
  int level = first < 0 ? -1 : lh_reallevel(L1, first);
  int last = lh_depth(L1) - 1;
  int limit = level >= 0 && last - level > LH_TB_HEAD + LH_TB_TAIL ? LH_TB_HEAD : -1;
  lua_Debug ar;
  while (level >= 0 && lua_getstack(L1, level++, &ar)) {
    if (level <= LH_HIDDEN_SCAN && lh_hidden(L1, &ar)) continue;
    if (limit-- == 0) { /* as luaL_traceback: the first levels, then the last ones */
      int n = last - level - LH_TB_TAIL + 1;
      lua_pushfstring(L, "\n\t...\t(skipping %d levels)", n);
      luaL_addvalue(&b);
      level += n;
      continue;
    }
    lua_getinfo(L1, "Slnt", &ar);
    if (ar.currentline <= 0) lua_pushfstring(L, "\n\t%s: in ", ar.short_src);
    else lua_pushfstring(L, "\n\t%s:%d: in ", ar.short_src, ar.currentline);
    luaL_addvalue(&b);
    lh_funcname(L, &ar, L1);
    luaL_addvalue(&b);
    if (ar.istailcall) luaL_addstring(&b, "\n\t(...tail calls...)");
  }
  luaL_pushresult(&b);
  return 1;
}

static void lh_setfield_string(lua_State *L, const char *key, const char *value) {
  lua_pushstring(L, value);
  lua_setfield(L, -2, key);
}

static void lh_setfield_integer(lua_State *L, const char *key, lua_Integer value) {
  lua_pushinteger(L, value);
  lua_setfield(L, -2, key);
}

static void lh_setfield_boolean(lua_State *L, const char *key, int value) {
  lua_pushboolean(L, value);
  lua_setfield(L, -2, key);
}

/* debug.getinfo([thread,] f | level [, what]), as liblua's, without option 'f' (the
 * function itself), which would hand out functions from the stack. */
static int lh_getinfo(lua_State *L) {
  int arg = 0;
  lua_State *L1 = L;
  if (lua_type(L, 1) == LUA_TTHREAD) {
    arg = 1;
    L1 = lua_tothread(L, 1);
  }
  const char *options = luaL_optstring(L, arg + 2, "lnSrtu"); /* stock's "flnSrtu" less f */
  if (strchr(options, 'f') != NULL)
    return luaL_argerror(L, arg + 2, "option 'f' is not allowed in the sandbox");
  luaL_argcheck(L, options[0] != '>', arg + 2, "invalid option '>'"); /* as stock, first */
  luaL_checkstack(L, 3, "not enough stack");
  if (L1 != L && !lua_checkstack(L1, 2)) return luaL_error(L, "stack overflow");
  lua_Debug ar;
  int function = lua_isfunction(L, arg + 1);
  if (!function) {
    int level = (int)luaL_checkinteger(L, arg + 1); /* cast, as stock */
    if (level < 0 || !lh_getstack(L1, level, &ar)) {
      luaL_pushfail(L); /* a level out of range fails before the options are read, as stock */
      return 1;
    }
  }
  /* Checked before lua_getinfo, which may push onto the other thread and then fail. Each
   * letter once (stock takes any number of repeats): they fit `what` whatever the length. */
  if (options[strspn(options, "SlnrtuL")] != '\0')
    return luaL_argerror(L, arg + 2, "invalid option");
  char what[16];
  size_t n = 0;
  if (function) what[n++] = '>';
  for (const char *letter = "SlnrtuL"; *letter != '\0'; letter++)
    if (strchr(options, *letter) != NULL) what[n++] = *letter;
  what[n] = '\0';
  if (function) {
    lua_pushvalue(L, arg + 1);
    lua_xmove(L, L1, 1);
  }
  if (!lua_getinfo(L1, what, &ar)) return luaL_argerror(L, arg + 2, "invalid option");
  int lines = strchr(options, 'L') != NULL;
  if (lines) lua_xmove(L1, L, 1); /* the lines table lua_getinfo pushed on L1 */
  lua_newtable(L);
  if (strchr(options, 'S')) {
    lua_pushlstring(L, ar.source, ar.srclen);
    lua_setfield(L, -2, "source");
    lh_setfield_string(L, "short_src", ar.short_src);
    lh_setfield_integer(L, "linedefined", ar.linedefined);
    lh_setfield_integer(L, "lastlinedefined", ar.lastlinedefined);
    lh_setfield_string(L, "what", ar.what);
  }
  if (strchr(options, 'l')) lh_setfield_integer(L, "currentline", ar.currentline);
  if (strchr(options, 'u')) {
    lh_setfield_integer(L, "nups", ar.nups);
    lh_setfield_integer(L, "nparams", ar.nparams);
    lh_setfield_boolean(L, "isvararg", ar.isvararg);
  }
  if (strchr(options, 'n')) {
    lh_setfield_string(L, "name", ar.name);
    lh_setfield_string(L, "namewhat", ar.namewhat);
  }
  if (strchr(options, 'r')) {
    lh_setfield_integer(L, "ftransfer", ar.ftransfer);
    lh_setfield_integer(L, "ntransfer", ar.ntransfer);
  }
  if (strchr(options, 't')) lh_setfield_boolean(L, "istailcall", ar.istailcall);
  if (lines) {
    lua_insert(L, -2);
    lua_setfield(L, -2, "activelines");
  }
  return 1;
}

int lh_hostfunction(lua_State *L, int idx) {
  lua_Debug ar;
  if (lua_iscfunction(L, idx) || !lua_isfunction(L, idx)) return 0;
  lua_pushvalue(L, idx);
  lua_getinfo(L, ">S", &ar);
  return strncmp(ar.source, LH_HOSTCHUNK, sizeof LH_HOSTCHUNK - 1) == 0;
}

/* The upvalue `n` (argument at argn) of the function at argf must exist, and the function
 * must be the script's: the host's Lua functions (its preludes) keep their upvalues. */
static int lh_upvalue_index(lua_State *L, int argf, int argn) {
  luaL_checktype(L, argf, LUA_TFUNCTION);
  luaL_argcheck(L, !lh_hostfunction(L, argf), argf, "function of the host's code");
  lua_Integer n = luaL_checkinteger(L, argn);
  int valid = n > 0 && n <= 255 && lua_getupvalue(L, argf, (int)n) != NULL;
  if (valid) lua_pop(L, 1);
  luaL_argcheck(L, valid, argn, "invalid upvalue index");
  return (int)n;
}

/* debug.upvalueid(f, n): an identity for the upvalue, nothing more. */
static int lh_upvalueid(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  luaL_argcheck(L, !lh_hostfunction(L, 1), 1, "function of the host's code");
  lua_Integer n = luaL_checkinteger(L, 2);
  void *id = n > 0 && n <= 255 ? lua_upvalueid(L, 1, (int)n) : NULL;
  if (id != NULL) lua_pushlightuserdata(L, id);
  else luaL_pushfail(L);
  return 1;
}

/* debug.upvaluejoin(f1, n1, f2, n2), for Lua functions only (as stock): it rewires the
 * script's own closures, whose upvalues hold only Lua values of its own state. */
static int lh_upvaluejoin(lua_State *L) {
  int n1 = lh_upvalue_index(L, 1, 2);
  int n2 = lh_upvalue_index(L, 3, 4);
  luaL_argcheck(L, !lua_iscfunction(L, 1), 1, "Lua function expected");
  luaL_argcheck(L, !lua_iscfunction(L, 3), 3, "Lua function expected");
  lua_upvaluejoin(L, 1, n1, 3, n2);
  return 0;
}

void lh_newdebuglib(lua_State *L) {
  static const luaL_Reg functions[] = {
    {"traceback", lh_traceback},     {"getinfo", lh_getinfo},
    {"upvalueid", lh_upvalueid},     {"upvaluejoin", lh_upvaluejoin},
    {NULL, NULL},
  };
  luaL_newlib(L, functions);
}
