// lh_box.c: Swift closures and objects as Lua values, and the trampoline that raises
// their errors once no Swift frame is left.
#include "lh_private.h"


/* Registry keys reserved by LuaHost (light userdata addresses, so no string interning). */
static const char lh_callback_mt_key = 0;  /* metatable of Swift closure boxes */
static const char lh_object_marker = 0;    /* rawget(mt, &marker) == true on object metatables */

/* ---- Swift closures and objects ---- */

/* __gc of a box userdata: hand the box back to Swift exactly once. Lua may skip a
 * finalizer that fails to start (a GC step at the C-stack limit raises "C stack overflow"
 * inside GCTM, which only warns); Swift keeps a list of live boxes and releases those that
 * were never handed back when the state closes. */
static int lh_box_gc(lua_State *L) {
  void **slot = lua_touserdata(L, 1);
  if (slot != NULL && *slot != NULL) {
    void *box = *slot;
    *slot = NULL;
    lh_swift_release(L, box);
  }
  return 0;
}

/* The only place a Swift closure's failure becomes a Lua error: lh_swift_dispatch has
 * returned, so no Swift frame is left between here and the enclosing pcall. */
static int lh_trampoline(lua_State *L) {
  int n = lh_dispatchboxed(L);
  if (n < 0) return lua_error(L);
  return n;
}

int lh_dispatchboxed(lua_State *L) {
  void **slot = lua_touserdata(L, lua_upvalueindex(1));
  lh_state *S = lh_getstate(L);
  int enforce = S->enforce; /* Swift's allocations never fail: see lh_state.enforce */
  S->enforce = 0;
  int n = lh_swift_dispatch(L, *slot);
  S->enforce = enforce;
  return n;
}

void lh_pushswiftfunction(lua_State *L, void *box) {
  /* The caller has made room for 3 slots (lua_checkstack), so nothing here but memory can raise,
   * and the allocator does not fail while Swift is on the stack. */
  void **slot = lua_newuserdatauv(L, sizeof(void *), 0);
  *slot = box;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lh_callback_mt_key) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, lh_box_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_callback_mt_key);
  }
  lua_setmetatable(L, -2);
  lua_pushcclosure(L, lh_trampoline, 1);
}

void lh_markobjectmetatable(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, lh_box_gc);
  lua_setfield(L, idx, "__gc");
  lua_pushboolean(L, 1);
  lua_rawsetp(L, idx, &lh_object_marker);
}

void lh_pushobject(lua_State *L, void *box, int mtindex) {
  mtindex = lua_absindex(L, mtindex);
  void **slot = lua_newuserdatauv(L, sizeof(void *), 0);
  *slot = box;
  lua_pushvalue(L, mtindex);
  lua_setmetatable(L, -2);
}

void *lh_toobject(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return NULL;
  int marked = lua_rawgetp(L, -1, &lh_object_marker) == LUA_TBOOLEAN;
  lua_pop(L, 2);
  if (!marked) return NULL;
  return *(void **)lua_touserdata(L, idx);
}
