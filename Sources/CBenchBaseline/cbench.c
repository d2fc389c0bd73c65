// cbench.c: raw-C-API baselines; see cbench.h. Plain Lua API use, no LuaHost code.
#include "cbench.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

lua_State *cb_newstate(void) {
  lua_State *L = luaL_newstate();
  if (L != NULL) luaL_openlibs(L);
  return L;
}

lua_State *cb_newstate_safe(void) {
  static const luaL_Reg libs[] = {
    {LUA_GNAME, luaopen_base},          {LUA_COLIBNAME, luaopen_coroutine},
    {LUA_TABLIBNAME, luaopen_table},    {LUA_STRLIBNAME, luaopen_string},
    {LUA_MATHLIBNAME, luaopen_math},    {LUA_UTF8LIBNAME, luaopen_utf8},
    {LUA_OSLIBNAME, luaopen_os},        {NULL, NULL},
  };
  lua_State *L = luaL_newstate();
  if (L == NULL) return NULL;
  for (const luaL_Reg *lib = libs; lib->func != NULL; lib++) {
    luaL_requiref(L, lib->name, lib->func, 1);
    lua_pop(L, 1);
  }
  return L;
}

void cb_close(lua_State *L) { lua_close(L); }

long long cb_memory(lua_State *L) {
  return (long long)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + lua_gc(L, LUA_GCCOUNTB, 0);
}

int cb_ref_chunk(lua_State *L, const char *code) {
  if (luaL_loadstring(L, code) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return -1;
  }
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

static int cb_add(lua_State *L) {
  lua_pushinteger(L, lua_tointeger(L, 1) + lua_tointeger(L, 2));
  return 1;
}

void cb_register_add(lua_State *L) { lua_register(L, "add", cb_add); }

long long cb_call_add(lua_State *L, int ref, long long n) {
  long long sum = 0;
  for (long long i = 0; i < n; i++) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_pushinteger(L, i);
    lua_pushinteger(L, 1);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) return -1;
    sum += lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  return sum;
}

long long cb_call0(lua_State *L, int ref) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return -1;
  }
  long long result = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return result;
}

/* The message handler lua.c uses: the message plus luaL_traceback. */
static int cb_traceback(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) msg = "(error object is not a string)";
  luaL_traceback(L, L, msg, 1);
  return 1;
}

long long cb_error_traceback(lua_State *L, int ref, long long n) {
  long long total = 0;
  for (long long i = 0; i < n; i++) {
    lua_pushcfunction(L, cb_traceback);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    if (lua_pcall(L, 0, 0, -2) == LUA_OK) return -1;
    size_t len = 0;
    lua_tolstring(L, -1, &len);
    total += (long long)len;
    lua_pop(L, 2);
  }
  return total;
}

int cb_array_build(lua_State *L, long long count) {
  lua_createtable(L, (int)count, 0);
  for (long long i = 1; i <= count; i++) {
    lua_pushinteger(L, i);
    lua_rawseti(L, -2, i);
  }
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

long long cb_array_read(lua_State *L, int ref, long long count) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  long long sum = 0;
  for (long long i = 1; i <= count; i++) {
    lua_rawgeti(L, -1, i);
    sum += lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return sum;
}

int cb_dict_build(lua_State *L, const char *const *keys, long long count) {
  lua_createtable(L, 0, (int)count);
  for (long long i = 0; i < count; i++) {
    lua_pushinteger(L, i);
    lua_setfield(L, -2, keys[i]);
  }
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

long long cb_dict_read(lua_State *L, int ref) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  long long sum = 0;
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    size_t len = 0;
    lua_tolstring(L, -2, &len);
    sum += (long long)len + lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return sum;
}

void cb_unref(lua_State *L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }

typedef struct {
  long long depth;
  long long id;
} cb_view;

static int cb_view_index(lua_State *L) {
  const cb_view *view = luaL_checkudata(L, 1, "cb.view");
  const char *key = luaL_checkstring(L, 2);
  if (strcmp(key, "depth") == 0) {
    lua_pushinteger(L, view->depth);
  } else if (strcmp(key, "id") == 0) {
    lua_pushinteger(L, view->id);
  } else {
    lua_pushnil(L);
  }
  return 1;
}

void cb_register_view(lua_State *L, long long depth) {
  cb_view *view = lua_newuserdatauv(L, sizeof *view, 0);
  view->depth = depth;
  view->id = 1;
  if (luaL_newmetatable(L, "cb.view")) {
    lua_pushcfunction(L, cb_view_index);
    lua_setfield(L, -2, "__index");
  }
  lua_setmetatable(L, -2);
  lua_setglobal(L, "button");
}

/* Case 5a's baseline: button:tap() runs the action as a coroutine (so that it could wait),
 * as a tap does, with nothing else: the method is a C function in the metatable's __index
 * table; the action and one reusable coroutine are the userdata's user values. */
static int cb_button_tap(lua_State *L) {
  luaL_checkudata(L, 1, "cb.button");
  lua_getiuservalue(L, 1, 2); /* the coroutine, reused while it finishes cleanly */
  lua_State *co = lua_tothread(L, -1);
  lua_getiuservalue(L, 1, 1); /* the action */
  lua_pushvalue(L, 1);        /* self */
  lua_xmove(L, co, 2);
  int results = 0;
  int status = lua_resume(co, L, 1, &results);
  if (status == LUA_OK) {
    lua_pop(co, results);
  } else if (status != LUA_YIELD) {
    lua_resetthread(co); /* an error: the coroutine is reset for the next tap */
  }
  lua_pushboolean(L, status == LUA_OK || status == LUA_YIELD);
  return 1;
}

void cb_register_button(lua_State *L, int action_ref) {
  lua_newuserdatauv(L, 1, 2);
  lua_rawgeti(L, LUA_REGISTRYINDEX, action_ref);
  lua_setiuservalue(L, -2, 1);
  lua_newthread(L);
  lua_setiuservalue(L, -2, 2);
  if (luaL_newmetatable(L, "cb.button")) {
    lua_newtable(L);
    lua_pushcfunction(L, cb_button_tap);
    lua_setfield(L, -2, "tap");
    lua_setfield(L, -2, "__index");
  }
  lua_setmetatable(L, -2);
  lua_setglobal(L, "button");
}

#include <malloc.h>

long long cb_heap_bytes(void) { return (long long)mallinfo2().uordblks; }
