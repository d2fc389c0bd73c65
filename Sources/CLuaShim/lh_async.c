// lh_async.c: async Swift functions, which suspend the calling coroutine while a Swift
// task runs, and the steps by which Swift drives such a coroutine.
//
// Why C: suspending is a yield (lua_yieldk), which unwinds with longjmp, and resuming with
// an error is a raise in the continuation; both must happen after the Swift frames are gone.
//
// The protocol, for a task-driven coroutine `co` (marked with lh_markdriven):
// * An async function's C closure asks Swift to start the operation (lh_swift_dispatch
//   stores it and returns 0), then yields one value, &lh_async_marker.
// * Swift runs one step at a time with lh_pcall(lh_step, co, values...) on the main
//   thread. A step resumes co; it returns co's results and `false` when co finished, or
//   `true` when co is waiting for an operation. An error in co is raised from the step
//   (with co's frames recorded by the message handler), and so is a pending stop.
// * Swift awaits the operation, then resumes co with `true, results...`, or with
//   `false, error value`, which the continuation raises inside co, where the call was.
#include "lh_private.h"

static const char lh_async_marker = 0;

/* The continuation of an async function: the values the step resumed co with. */
static int lh_async_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  (void)ctx;
  /* Swift pushed the results or the error with the limit off: they must fit now, as a
   * sync call's must (lh_dispatchboxed), or the call fails here with a memory error. */
  lh_checkresults(L, lh_getstate(L), lua_gettop(L));
  if (!lua_toboolean(L, 1)) {
    lua_settop(L, 2);
    return lua_error(L);
  }
  return lua_gettop(L) - 1;
}

/* The C closure of an async Swift function. */
static int lh_async_trampoline(lua_State *L) {
  if (!lh_threaddriven(L))
    return luaL_error(L, "attempt to call an async function outside a task-driven coroutine "
                         "(not inside coroutine.wrap or coroutine.resume)");
  if (!lua_isyieldable(L)) return luaL_error(L, "attempt to yield across a C-call boundary");
  if (lh_dispatchboxed(L) < 0) return lh_raiseswifterror(L);
  lua_settop(L, 0);
  lua_pushlightuserdata(L, (void *)&lh_async_marker);
  return lua_yieldk(L, 1, 0, lh_async_k);
}

void lh_pushswiftasyncfunction(lua_State *L, void *box) {
  lh_pushswiftfunction(L, box); /* the box userdata and its metatable, as for any closure */
  lua_getupvalue(L, -1, 1);
  lua_remove(L, -2);
  lua_pushcclosure(L, lh_async_trampoline, 1);
}

int lh_step(lua_State *L) {
  lh_state *S = lh_getstate(L);
  lua_State *co = lua_tothread(L, 1);
  if (co == NULL) return luaL_error(L, "lh_step: no coroutine");
  int narg = lua_gettop(L) - 1;
  if (lua_status(co) == LUA_OK && lua_gettop(co) == 0) {
    /* An empty thread (fresh, or reused after it finished): argument 2 is the function. */
    if (narg < 1 || !lua_isfunction(L, 2)) return luaL_error(L, "lh_step: no function to start");
    lua_pushvalue(L, 2);
    lua_xmove(L, co, 1);
    lua_remove(L, 2);
    narg--;
  }
  /* The values co is resumed with exist already: the host pushed them, with the limit
   * off. Room for them on co's stack is made with the limit off too (lh_resumethread then
   * finds it), so that what they cost is checked inside co, by the continuation that
   * receives them (lh_async_k), where the script's pcall can catch the memory error: a
   * refusal here would fail the step, out of the script's reach. */
  int enforce = S->enforce;
  S->enforce = 0;
  int room = lua_checkstack(co, narg);
  S->enforce = enforce;
  if (!room) return luaL_error(L, "too many arguments to resume");
  S->stepping = L;
  S->stepped = co;
  int n = lh_resumethread(L, co, narg);
  if (n < 0) return lua_error(L); /* lh_msgh records co's frames, then forgets `stepped` */
  S->stepped = NULL;
  if (lua_status(co) != LUA_YIELD) {
    lua_pushboolean(L, 0);
    return n + 1;
  }
  if (n != 1 || lua_touserdata(L, -1) != &lh_async_marker) {
    lua_settop(L, 0);
    return luaL_error(L, "attempt to yield from outside a coroutine");
  }
  lua_pop(L, 1);
  lua_pushboolean(L, 1);
  return 1;
}

void lh_pushstep(lua_State *L) { lua_pushcfunction(L, lh_step); }

lua_State *lh_pushdriven(lua_State *L) {
  lua_State *co = lua_newthread(L);
  lh_markdriven(co);
  return co;
}

lua_State *lh_newdriven(lua_State *L) {
  lua_State *co = lua_newthread(L);
  lh_markdriven(co);
  lua_rotate(L, -2, 1); /* the thread below the function */
  lua_xmove(L, co, 1);  /* the function, as coroutine.create puts it */
  return co;
}
