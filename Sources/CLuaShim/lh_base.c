// lh_base.c: the sandbox's print, xpcall, setmetatable and require.
//
// Why C: written in Lua, these wrappers showed up in error messages and tracebacks as the
// sandbox's own code ("luahost:sandbox:24: ... 'rawsetmetatable'"). As C functions they raise
// exactly where liblua's do, with the same messages.
#include "lh_private.h"

#include <string.h>

/* print: the line goes to the host's writer (upvalue 1) as one Lua string, bytes intact. */
static int lh_print(lua_State *L) {
  int n = lua_gettop(L);
  luaL_Buffer b;
  lua_pushvalue(L, lua_upvalueindex(1));
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    size_t l;
    const char *s = luaL_tolstring(L, i, &l); /* runs __tostring and __name as print does */
    if (i > 1) {
      lua_pop(L, 1);
      luaL_addchar(&b, '\t');
      lua_pushlstring(L, s, l);
    }
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  lua_call(L, 1, 0);
  return 0;
}

/* xpcall's message handler: a host stop passes through untouched (the script's handler
 * could loop in it with hooks off); anything else goes to the script's handler. */
int lh_xpcall_handler(lua_State *L) {
  if (lh_stop_reason(L, 1) != LH_STOP_NONE) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

static int lh_finishpcall(lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2); /* the error value */
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

static int lh_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, lh_xpcall_handler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1); /* the first result when nothing fails */
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2); /* f, handler, true, f, arguments... */
  int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, lh_finishpcall);
  return lh_finishpcall(L, status, 2);
}

/* setmetatable. A metatable with __gc does not mark the object for Lua's collector,
 * which would run the finalizer with hooks off (a looping one would hang the host): the
 * field is hidden while Lua marks, and the object is registered for a deferred finalizer
 * that runs under the script's limits instead (lh_gc.c). Upvalue 1 is the string "__gc",
 * pushed by lua_pushvalue (a lua_pushliteral looks it up in the string cache each time);
 * upvalues 2 and 3 cache the sentinels' metatable and the table of registered objects
 * (nil until the first finalizer). */
static int lh_setmetatable(lua_State *L) {
  int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
    return luaL_error(L, "cannot change a protected metatable");
  lua_settop(L, 2);
  int finalized = 0;
  if (t == LUA_TTABLE) {
    lua_pushvalue(L, lua_upvalueindex(1));
    finalized = lua_rawget(L, 2) != LUA_TNIL; /* stack: t, mt, gc */
  }
  if (finalized) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushnil(L);
    lua_rawset(L, 2);
    lua_pushvalue(L, 2);
    lua_setmetatable(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 3);
    lua_rawset(L, 2);
    lh_register_finalizer(L, 1, lua_upvalueindex(2), lua_upvalueindex(3));
  } else {
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
  }
  lua_settop(L, 1);
  return 1;
}

/* ---- require, over the package table (upvalue 1) and the host's reader (upvalue 2) ---- */

#define LH_WHY 3 /* the stack slot of require that collects why nothing was found */
#define LH_WHY_MAX 4096 /* the longest that message grows */
#define LH_PATH_MAX 4096 /* a candidate file name longer than this cannot exist */

/* Appends the string on top to the message at LH_WHY. [-1, +0] */
static void lh_why(lua_State *L) {
  lua_pushvalue(L, LH_WHY);
  if (lua_rawlen(L, -1) > LH_WHY_MAX) { /* enough reasons: the rest would only cost */
    lua_pop(L, 2);
    return;
  }
  lua_insert(L, -2);
  lua_concat(L, 2);
  lua_replace(L, LH_WHY);
}

/* Pushes the loader of `name` and its data (":preload:"), or notes why there is none and
 * pushes nothing. Returns whether a loader was found. */
static int lh_preload(lua_State *L, const char *name) {
  /* The registry's table, as stock's searcher reads it: replacing package.preload does
   * not change what require finds. */
  if (lua_getfield(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE) != LUA_TTABLE)
    luaL_error(L, "'package.preload' must be a table");
  if (lua_getfield(L, -1, name) == LUA_TNIL) {
    lua_pop(L, 2);
    lua_pushfstring(L, "\n\tno field package.preload['%s']", name);
    lh_why(L);
    return 0;
  }
  lua_remove(L, -2);
  lua_pushliteral(L, ":preload:");
  return 1;
}

/* The same for each template of package.path, read through the host's reader, which
 * returns the file's text only for a regular file inside the module folder. */
static int lh_searchpath(lua_State *L, const char *name) {
  int base = lua_gettop(L);
  lua_getfield(L, lua_upvalueindex(1), "path");
  const char *path = lua_tostring(L, -1); /* a number converts, as in stock */
  if (path == NULL) luaL_error(L, "'package.path' must be a string");
  const char *file = luaL_gsub(L, name, ".", "/");
  int top = lua_gettop(L);
  for (const char *t = path; *t != '\0';) {
    const char *end = strchr(t, ';');
    size_t len = end ? (size_t)(end - t) : strlen(t);
    /* A script chose package.path: each template costs a call to the host's reader, about
     * what a few hundred instructions cost, so that is what it is charged. */
    lh_poll(L, 256 + (long long)(len >> 4));
    size_t marks = 0;
    for (size_t i = 0; i < len; i++) marks += t[i] == '?';
    if (len > LH_PATH_MAX || marks * strlen(file) > LH_PATH_MAX) { /* no such file */
      lua_pushliteral(L, "\n\tno file (name too long)");
      lh_why(L);
    } else if (len > 0) {
      lua_pushlstring(L, t, len);
      const char *filename = luaL_gsub(L, lua_tostring(L, -1), "?", file);
      lua_pushvalue(L, lua_upvalueindex(2));
      lua_pushstring(L, filename);
      lua_call(L, 1, 1);
      if (lua_type(L, -1) == LUA_TSTRING) {
        size_t size;
        const char *source = lua_tolstring(L, -1, &size);
        lh_skipprefix(&source, &size); /* a BOM and a first line with # */
        lua_pushfstring(L, "@%s", filename);
        if (lh_loadpieces(L, source, size, lua_tostring(L, -1), "t") != LUA_OK) {
          /* Raised as stock's searcher raises it, from below require: no position. */
          lua_pushfstring(L, "error loading module '%s' from file '%s':\n\t%s", name, filename,
                          lua_tostring(L, -1));
          lua_error(L);
        }
        lua_replace(L, base + 1); /* the loader */
        lua_pushstring(L, filename);
        lua_replace(L, base + 2); /* its data */
        lua_settop(L, base + 2);
        return 1;
      }
      lua_pop(L, 1);
      lua_pushfstring(L, "\n\tno file '%s'", filename);
      lh_why(L);
      lua_settop(L, top);
    }
    t += len + (end != NULL);
  }
  lua_settop(L, base);
  return 0;
}

static int lh_require(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  lua_settop(L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* 2: package.loaded */
  lua_getfield(L, 2, name);
  if (lua_toboolean(L, -1)) return 1;
  lua_pop(L, 1);
  lua_pushliteral(L, ""); /* LH_WHY */
  if (!lh_preload(L, name) && !lh_searchpath(L, name))
    return luaL_error(L, "module '%s' not found:%s", name, lua_tostring(L, LH_WHY));
  /* stack: name, loaded, why, loader, data */
  lua_pushvalue(L, 4);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 5);
  lua_call(L, 2, 1);
  if (!lua_isnil(L, -1)) lua_setfield(L, 2, name);
  else lua_pop(L, 1);
  if (lua_getfield(L, 2, name) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, 2, name);
  }
  lua_pushvalue(L, 5);
  return 2;
}

/* print's writer when the host gives none: the line to stdout, as lua.c's print writes. */
static int lh_stdoutwriter(lua_State *L) {
  size_t len;
  const char *line = lua_tolstring(L, 1, &len);
  if (line != NULL) lh_writeline(line, len);
  return 0;
}

/* The module reader of a sandbox without a folder: it finds nothing. */
static int lh_nomodulereader(lua_State *L) {
  lua_pushnil(L);
  return 1;
}

void lh_pushstdoutwriter(lua_State *L) { lua_pushcfunction(L, lh_stdoutwriter); }
void lh_pushnomodulereader(lua_State *L) { lua_pushcfunction(L, lh_nomodulereader); }

void lh_setbasefuncs(lua_State *L, int G, int writer, int package, int reader) {
  G = lua_absindex(L, G);
  lua_pushcfunction(L, lh_xpcall);
  lua_setfield(L, G, "xpcall");
  lua_pushcfunction(L, lh_error); /* counts levels past xpcall's handler wrapper */
  lua_setfield(L, G, "error");
  lua_pushliteral(L, "__gc");
  lua_pushnil(L);
  lua_pushnil(L);
  lua_pushcclosure(L, lh_setmetatable, 3);
  lua_setfield(L, G, "setmetatable");
  lua_pushvalue(L, writer);
  lua_pushcclosure(L, lh_print, 1);
  lua_setfield(L, G, "print");
  if (package != 0) {
    lua_pushvalue(L, package);
    lua_pushvalue(L, reader);
    lua_pushcclosure(L, lh_require, 2);
    lua_setfield(L, G, "require");
  }
}
