// lh_sandbox.c: the sandbox's policy, applied once to a fresh state before any script runs.
//
// It replaces globals with the sandbox's versions (C functions that behave as liblua's but
// stop: lh_setreplacements in lh_lib.c, lh_setbasefuncs in lh_base.c) and removes what a
// script must not reach. Scripts can reach only what it leaves.
//
// Why C: this was a Lua prelude, compiled once per process and loaded as bytecode. Loading
// and running it cost about 67,000 instructions of the 293,000 a sandbox took to make
// (case 7a in BENCHMARKS.md); these API calls cost a fraction of that. It makes no Lua
// function, so nothing of it shows in a script's tracebacks either way.
#include "lh_private.h"

/* t[name] = from[name]. [-0, +0] */
static void lh_take(lua_State *L, int t, int from, const char *name) {
  lua_getfield(L, from, name);
  lua_setfield(L, t, name);
}

/* loaded[name] = G[name] = the value on top. [-1, +0] */
static void lh_install(lua_State *L, int G, int loaded, const char *name) {
  lua_pushvalue(L, -1);
  lua_setfield(L, G, name);
  lua_setfield(L, loaded, name);
}

/* Arguments: the print writer, the module reader, package.path and the LH_SANDBOX_* bits.
 * Every function is stored straight into the table it belongs to (an intermediate table of
 * them cost about 10,000 instructions a sandbox). */
static int lh_applysandbox_k(lua_State *L) {
  enum { WRITE = 1, READMODULE, PATH, FLAGS, G, LOADED, WORK };
  unsigned flags = (unsigned)lua_tointeger(L, FLAGS);
  lua_settop(L, FLAGS);
  luaL_checkstack(L, 8, NULL);
  lua_pushglobaltable(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* package.loaded */

  lh_setreplacements(L, G);
  lua_pushnil(L);
  lua_setfield(L, G, "dofile");
  lua_pushnil(L);
  lua_setfield(L, G, "loadfile");
  lua_getfield(L, G, "string");
  lua_pushnil(L);
  lua_setfield(L, WORK, "dump");
  lua_settop(L, LOADED);

  /* The strings' metatable is the one table every script shares. */
  lua_pushliteral(L, "");
  if (!lua_getmetatable(L, -1)) return luaL_error(L, "strings have no metatable");
  lua_pushliteral(L, "locked");
  lua_setfield(L, -2, "__metatable");
  lua_settop(L, LOADED);

  if (!(flags & LH_SANDBOX_OS)) {
    static const char *const os_names[] = {"clock", "time", "date", "difftime"};
    lua_getfield(L, G, "os");
    lua_createtable(L, 0, 4);
    for (size_t i = 0; i < sizeof os_names / sizeof os_names[0]; i++)
      lh_take(L, WORK + 1, WORK, os_names[i]);
    lh_install(L, G, LOADED, "os");
    lua_settop(L, LOADED);
  }

  if (!(flags & LH_SANDBOX_DEBUG)) {
    lh_newdebuglib(L);
    lh_install(L, G, LOADED, "debug");
  }

  int package = 0;
  if (!(flags & LH_SANDBOX_PACKAGE)) {
    lua_createtable(L, 0, 4);
    lua_pushliteral(L, "/\n;\n?\n!\n-\n");
    lua_setfield(L, WORK, "config");
    lua_pushvalue(L, LOADED);
    lua_setfield(L, WORK, "loaded");
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE); /* require's, as in stock */
    lua_setfield(L, WORK, "preload");
    lua_pushvalue(L, PATH);
    lua_setfield(L, WORK, "path");
    lua_pushvalue(L, WORK);
    lh_install(L, G, LOADED, "package"); /* as stock lists every library, package too */
    package = WORK;
  }
  lh_setbasefuncs(L, G, WRITE, package, READMODULE);
  return 0;
}

int lh_applysandbox(lua_State *L, unsigned flags) {
  if (!lua_checkstack(L, 3)) return LH_ERRSTACK;
  lua_pushinteger(L, (lua_Integer)flags);
  lua_pushcfunction(L, lh_applysandbox_k);
  lua_insert(L, -5);
  return lh_pcall(L, 4, 0);
}
