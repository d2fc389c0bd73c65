// lh_box.c: Swift closures and objects as Lua values, and the trampoline that raises
// their errors once no Swift frame is left.
#include "lh_private.h"


/* Registry key reserved by LuaHost (a light userdata address, so no string interning). */
static const char lh_callback_mt_key = 0; /* metatable of Swift closure boxes */

/* ---- Swift closures and objects ---- */

/* The block of a box userdata: the retained Swift box and a tag saying which kind of box it
 * is. Lua code cannot write the bytes of a userdata, so a script cannot forge the tag, even
 * with the debug library: a userdata given another's metatable (debug.setmetatable), or a
 * __gc called by hand on another value, fails the check below instead of handing Swift a
 * pointer that is no box. (A metatable marker was forgeable that way, and cost a metatable
 * read on every method call.) A Swift closure's own upvalue is not checked on each call:
 * see lh_dispatchboxed. */
typedef struct {
  void *box;
  const char *tag;
  /* Calls of a closure's box under way (lh_dispatchboxed). Swift borrows the box for a call
   * without retaining it, so a __gc called by hand meanwhile (trusted code can reach the
   * metatable with debug.getmetatable) must not release it: the release waits for the
   * collector's own __gc, which cannot come while the closure runs. */
  size_t calls;
} lh_slot;

static const char lh_callback_tag = 0; /* a closure of lh_pushswiftfunction */
static const char lh_object_tag = 0;   /* an object of lh_pushobject */

/* The slot of a box userdata at idx with this tag, or NULL for any other value. A light
 * userdata has length 0 and a string is no userdata, so only a box's block passes. */
static lh_slot *lh_toslot(lua_State *L, int idx, const char *tag) {
  lh_slot *slot = lua_touserdata(L, idx);
  if (slot == NULL || lua_rawlen(L, idx) != sizeof(lh_slot) || slot->tag != tag) return NULL;
  return slot;
}

static lh_slot *lh_newslot(lua_State *L, void *box, const char *tag) {
  lh_slot *slot = lua_newuserdatauv(L, sizeof(lh_slot), 0);
  slot->box = box;
  slot->tag = tag;
  slot->calls = 0;
  return slot;
}

/* __gc of a box userdata: hand the box back to Swift exactly once. Lua may skip a
 * finalizer that fails to start (a GC step at the C-stack limit raises "C stack overflow"
 * inside GCTM, which only warns); Swift keeps a list of live boxes and releases those that
 * were never handed back when the state closes. */
static int lh_box_gc(lua_State *L) {
  lh_slot *slot = lh_toslot(L, 1, &lh_object_tag);
  if (slot == NULL) slot = lh_toslot(L, 1, &lh_callback_tag);
  if (slot != NULL && slot->box != NULL && slot->calls == 0) {
    void *box = slot->box;
    slot->box = NULL;
    lh_swift_release(L, box);
  }
  return 0;
}

/* Runs the Swift closure of the running C closure (see lh_dispatchboxed). Written into
 * both trampolines below (a call fewer on every call from Lua to Swift); lh_dispatchboxed
 * is the same for lh_async.c.
 * Upvalue 1 is not checked here, on the hottest path (it would cost a lua_rawlen, about 7%
 * of a Lua-to-Swift call): only debug.setupvalue can replace it, and trusted code can break
 * stock C closures the same way (string.gmatch's iterator reads its state from an upvalue
 * just as unchecked). The sandbox's own debug has no setupvalue; the full library, granted
 * with --allow debug (or a plugin's debug capability), breaks both, as SECURITY.md says. */
static inline __attribute__((always_inline)) int lh_dispatch(lua_State *L) {
  lh_slot *slot = lua_touserdata(L, lua_upvalueindex(1));
  if (slot->box == NULL) { /* released by a __gc called by hand */
    lua_pushliteral(L, "a Swift function called after its box was released");
    return -1;
  }
  lh_state *S = lh_getstate(L);
  int enforce = S->enforce; /* Swift's allocations never fail: see lh_state.enforce */
  lua_State *outer = S->current;
  S->enforce = 0;
  S->current = L; /* Swift code the closure runs uses the thread that called it */
  slot->calls++;  /* lh_swift_dispatch always returns: no Swift frame is ever unwound */
  int n = lh_swift_dispatch(L, slot->box);
  slot->calls--;
  /* What Swift dropped during the call is freed before Lua runs on: a script's own
   * collectgarbage, or the emergency collection of a memory error, would otherwise still
   * find it held by the registry until Swift next entered the state. Done here, not in
   * Swift, so that the Swift entry stays one small frame. */
  if (lh_has_releases(S)) lh_swift_drain(L);
  S->current = outer;
  S->enforce = enforce;
  /* What Swift charged meanwhile (a timer handle's task) counts toward the collector's
   * pace, as Lua's own allocations do: see lh_gc_pressure. */
  if (lh_has_gc_pressure(S)) lh_gc_pressure(L, S);
  /* Swift pushed its results, or its error value, with the limit off: they must fit under
   * it now, or a script at its limit could keep calling a function that returns new
   * tables, or fails with a message quoting a string of the script's, and keep each
   * result or error in slots it allocated before (hostile reviews held 92 MB and 400 MB
   * under 8 MB so). An error that does not fit becomes the memory error. Unlimited states
   * pay one comparison. */
  lh_checkresults(L, S, n >= 0 ? n : 1);
  return n;
}

int lh_dispatchboxed(lua_State *L) { return lh_dispatch(L); }

/* Where a Swift closure's failure becomes a Lua error: lh_swift_dispatch has returned, so
 * no Swift frame is left between here and the enclosing pcall. A stop pending now is
 * raised instead of the closure's error: a Swift loop over data the script controls gives
 * up when it sees one (LuaState.checkForStop), and the stop is what must travel, as the
 * sandbox's C loops raise it (lh_poll). A Ctrl-C is taken here, so it is raised once, as
 * "interrupted!", and not again at the next instruction. */
int lh_raiseswifterror(lua_State *L) {
  lh_poll(L, 0);
  return lua_error(L);
}

static int lh_trampoline(lua_State *L) {
  int n = lh_dispatch(L);
  if (n < 0) return lh_raiseswifterror(L);
  return n;
}

/* What Swift left on top passes the memory limit. The collector runs first, as Lua
 * collects before it refuses an allocation of its own, so garbage does not count and the
 * values stay if they fit then. If they still do not, they are dropped first (a coroutine
 * that dies of the error keeps its stack, and with it anything left there), then a block
 * larger than the whole limit is asked for: Lua refuses it even after its emergency
 * collection and raises LUA_ERRMEM ("not enough memory", recorded where the limit was
 * hit), as for any allocation over the limit. Cold. */
__attribute__((noinline, cold)) void lh_refuse_results(lua_State *L, int count) {
  lh_state *S = lh_getstate(L);
  lua_gc(L, LUA_GCCOLLECT);
  if (lh_fits(S, 0)) return;
  if (count > 0) lua_pop(L, count > lua_gettop(L) ? lua_gettop(L) : count);
  /* A slot for the request (a C function has LUA_MINSTACK; only a frame that Swift's
   * arguments filled has none, and growing it is refused now): drop a value, as it all
   * goes. */
  if (!lua_checkstack(L, 1) && lua_gettop(L) > 0) lua_pop(L, 1);
  lua_newuserdatauv(L, S->limit + 1, 0); /* raises */
  lua_pushliteral(L, "not enough memory"); /* not reached: the block cannot be allocated */
  lua_error(L);
}

/* Pushes the userdata that holds a Swift closure's box, with its metatable. [-0, +1] */
static void lh_pushcallbackbox(lua_State *L, void *box) {
  lh_newslot(L, box, &lh_callback_tag);
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
}

void lh_pushswiftfunction(lua_State *L, void *box) {
  /* The caller has made room for 3 slots (lua_checkstack), so nothing here but memory can raise,
   * and the allocator does not fail while Swift is on the stack. */
  lh_pushcallbackbox(L, box);
  lua_pushcclosure(L, lh_trampoline, 1);
}

/* A userdata type's __index. Upvalue 2 is the type's member table: a method's name maps to
 * its function, a property's to its slot (an integer). A method is returned from here,
 * without entering Swift (its own call checks its receiver); any other key goes to the
 * Swift __index (the box of upvalue 1) as (self, key, slot or nil). */
static int lh_index_trampoline(lua_State *L) {
  lua_settop(L, 2);
  /* The table's type is checked: trusted code can swap the upvalue (debug.setupvalue), and
   * lua_rawget on another value would read it as a table. */
  if (lua_type(L, 2) == LUA_TSTRING && lua_type(L, lua_upvalueindex(2)) == LUA_TTABLE) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TFUNCTION) return 1;
  } else {
    lua_pushnil(L);
  }
  int n = lh_dispatch(L);
  if (n < 0) return lh_raiseswifterror(L);
  return n;
}

void lh_pushindexfunction(lua_State *L, void *box) {
  /* Room for 3 more slots, as lh_pushswiftfunction; the member table is at the top. */
  lh_pushcallbackbox(L, box);
  lua_insert(L, -2);
  lua_pushcclosure(L, lh_index_trampoline, 2);
}

void lh_markobjectmetatable(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, lh_box_gc);
  lua_setfield(L, idx, "__gc");
}

void lh_pushobject(lua_State *L, void *box, int mtindex) {
  mtindex = lua_absindex(L, mtindex);
  lh_newslot(L, box, &lh_object_tag);
  lua_pushvalue(L, mtindex);
  lua_setmetatable(L, -2);
}

int lh_islent(lh_state *S, void *object) {
  for (int i = 0; i < S->lent_count; i++) {
    if (S->lent[i] == object) return 1;
  }
  return 0;
}

void *lh_toobject(lua_State *L, int idx) {
  lh_slot *slot = lh_toslot(L, idx, &lh_object_tag);
  return slot != NULL ? slot->box : NULL;
}
