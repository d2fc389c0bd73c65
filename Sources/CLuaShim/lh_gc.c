// lh_gc.c: the sandbox's finalizers, deferred to where hooks and limits apply.
//
// Why C: Lua runs `__gc` metamethods from inside the collector with hooks off (GCTM), so
// a script's looping finalizer would hang the host, lua_close included. The sandbox's
// setmetatable therefore never lets Lua see a script's `__gc` when it marks an object:
// the object gets a sentinel instead, a userdata of ours with a C finalizer that only
// queues the object. The script's finalizer (read from the metatable then, as Lua reads
// it) runs later, as an ordinary protected call, under the script's deadline and budget:
//   * after collectgarbage("collect") or ("step"), so code that collects and then checks
//     what was finalized works as in stock Lua;
//   * at the next instruction of the running thread (a safe point), for finalizers the
//     collector queued on its own, so a loop that waits for a finalizer ends as in stock
//     Lua: queueing hooks that thread, and the hook runs the queue in a thread of its own
//     (lh_finalize_at_safe_point). A hook cannot run them itself: code it calls runs with
//     hooks off, so a looping finalizer could never be stopped. Hooks cost nothing until
//     something is queued;
//   * when the outermost call from the host ends (lh_pcallh), for what is still queued
//     (the collector ran while no Lua code did);
//   * when the state closes (lh_finalize_all), for every object still registered, as
//     lua_close finalizes everything.
// Order is stock's: sentinels are marked in the order the objects were, so the collector
// queues them in the order it would have finalized the objects.
//
// Registry keys (light userdata addresses): lh_fin_registered, a table with weak keys
// mapping each object to its sentinel; lh_fin_queue, the sequence of objects to finalize;
// lh_fin_sentinel_mt, the sentinels' metatable; lh_fin_draining, the queue a drain runs
// (its entry S->fin_next runs now).
#include "lh_private.h"

#include <stdlib.h>
#include <string.h>

static const char lh_fin_registered = 0;
static const char lh_fin_queue = 0;
static const char lh_fin_sentinel_mt = 0;
static const char lh_fin_thread = 0;
static const char lh_fin_draining = 0;

/* Pushes the registry table at key, creating it (with mode, if any) when missing. [-0,+1] */
static void lh_registry_table(lua_State *L, const void *key, const char *mode) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  if (mode != NULL) {
    lua_createtable(L, 0, 1);
    lua_pushstring(L, mode);
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
  }
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* A sentinel's finalizer, run by the collector with hooks off: it only queues the object
 * (its user value) and returns. */
static int lh_sentinel_gc(lua_State *L) {
  lh_registry_table(L, &lh_fin_queue, NULL);
  lua_getiuservalue(L, 1, 1);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, (lua_Integer)lua_rawlen(L, -3) + 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lh_fin_registered) == LUA_TTABLE) {
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) == LUA_TUSERDATA && lua_rawequal(L, -1, 1)) {
      lua_pop(L, 1);
      lua_pushvalue(L, -2);
      lua_pushnil(L);
      lua_rawset(L, -3); /* queued once: no longer registered */
    }
  }
  lh_state *S = lh_getstate(L);
  S->fin_pending = 1;
  /* The thread the finalizers will run in, made here, where an error (memory) is only a
   * warning, and kept in the registry. */
  if (S->fin_thread == NULL) {
    S->fin_thread = lua_newthread(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_thread);
  }
  lua_State *running = atomic_load(&S->running);
  if (running != NULL && !S->finalizing) lh_arm(running); /* runs them at its next instruction */
  return 0;
}

/* Pushes the table cached in slot, or (nil there) the one the registry holds at key,
 * creating it with mode when missing, and caches it in slot. [-0, +1] */
static void lh_cached_table(lua_State *L, int slot, const void *key, const char *mode) {
  if (lua_type(L, slot) == LUA_TTABLE) {
    lua_pushvalue(L, slot);
    return;
  }
  lh_registry_table(L, key, mode);
  lua_copy(L, -1, slot);
}

void lh_register_finalizer(lua_State *L, int idx, int mt_cache, int registered_cache) {
  idx = lua_absindex(L, idx);
  luaL_checkstack(L, 4, NULL);
  /* The registry's table is replaced only at close (lh_finalize_all_k), after which, as in
   * stock Lua, nothing marked is finalized any more: the cache may keep the old one. */
  lh_cached_table(L, registered_cache, &lh_fin_registered, "k");
  lua_pushvalue(L, idx);
  if (lua_rawget(L, -2) != LUA_TNIL) { /* marked already: Lua marks an object once */
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, idx);
  /* The sentinel holds its registration's number: lua_close finalizes in reverse order of
   * marking, and so does lh_finalize_all. */
  lua_Integer *order = lua_newuserdatauv(L, sizeof(lua_Integer), 1);
  *order = ++lh_getstate(L)->fin_count;
  lua_pushvalue(L, idx);
  lua_setiuservalue(L, -2, 1);
  if (lua_type(L, mt_cache) == LUA_TTABLE) {
    lua_pushvalue(L, mt_cache);
  } else {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lh_fin_sentinel_mt) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_createtable(L, 0, 1);
      lua_pushcfunction(L, lh_sentinel_gc);
      lua_setfield(L, -2, "__gc");
      lua_pushvalue(L, -1);
      lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_sentinel_mt);
    }
    lua_copy(L, -1, mt_cache); /* never replaced: the registry keeps it for the state's life */
  }
  lua_setmetatable(L, -2); /* marks the sentinel for finalization */
  lua_rawset(L, -3);       /* registered[object] = sentinel */
  lua_pop(L, 1);
}

/* Warns as Lua's collector does when a finalizer fails: "error in __gc (message)". */
static void lh_warn_gc_error(lua_State *L) {
  const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                       : "error object is not a string";
  lua_warning(L, "error in ", 1);
  lua_warning(L, "__gc", 1);
  lua_warning(L, " (", 1);
  lua_warning(L, message, 1);
  lua_warning(L, ")", 0);
}

/* Pushes the error stock Lua raises for a __gc at idx that cannot be called, which
 * names the metamethod, since the collector calls it: "attempt to call a boolean value
 * (metamethod '__gc')"; a plain call of it would not say so. Stock follows __call from
 * value to value, and names the first that has none: so does this, for a few steps (a
 * longer chain is left to the call, which fails as stock's does, without the name).
 * Returns 0, pushing nothing, for a value that can be called. [-0, +(0|1)] */
#define LH_GC_CALL_CHAIN 8
static int lh_gc_not_callable(lua_State *L, int idx) {
  int top = lua_gettop(L);
  lua_pushvalue(L, idx);
  for (int step = 0; step < LH_GC_CALL_CHAIN && !lua_isfunction(L, -1); step++) {
    if (luaL_getmetafield(L, -1, "__call") != LUA_TNIL) continue; /* on to its __call */
    /* named as Lua names a value in its errors: by a string __name, else by its type */
    int named = luaL_getmetafield(L, -1, "__name") != LUA_TNIL; /* pushed only if found */
    const char *type = named && lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                               : luaL_typename(L, -1 - named);
    lua_pushfstring(L, "attempt to call a %s value (metamethod '__gc')", type);
    lua_replace(L, top + 1);
    lua_settop(L, top + 1);
    return 1;
  }
  lua_settop(L, top);
  return 0;
}

/* Replaces the queue with its entries from `first` on. [-0, +0] */
static void lh_requeue_from(lua_State *L, int queue, lua_Integer first) {
  lua_createtable(L, 0, 0);
  lua_Integer j = 1;
  for (lua_Integer i = first; lua_rawgeti(L, queue, i) != LUA_TNIL; i++) lua_rawseti(L, -2, j++);
  lua_pop(L, 1); /* the nil */
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_queue);
}

/* The drained queue at `queue` ends early, after its entry `done`: what did not run goes
 * back in front of what was queued meanwhile, to run later. [-0, +0] */
static void lh_requeue_rest(lua_State *L, int queue, lua_Integer done) {
  lh_registry_table(L, &lh_fin_queue, NULL);
  int later = lua_gettop(L);
  lua_Integer n = (lua_Integer)lua_rawlen(L, queue);
  for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, later); i++) {
    lua_rawgeti(L, later, i);
    lua_rawseti(L, queue, ++n);
  }
  lh_requeue_from(L, queue, done + 1);
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_draining);
  lh_getstate(L)->fin_pending = 1;
}

/* os.exit(_, true) inside a finalizer: the drain it runs in never goes on (its thread is
 * reset, its queue with it), so the finalizers after this one go back to the queue, for
 * the close to run them as lua_close would. [-0, +0] */
void lh_requeue_draining(lua_State *L) {
  lh_state *S = lh_getstate(L);
  if (!S->finalizing || !lua_checkstack(L, 4)) return;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lh_fin_draining) == LUA_TTABLE)
    lh_requeue_rest(L, lua_gettop(L), S->fin_next);
  lua_pop(L, 1);
  S->finalizing = 0;
}

/* Runs the queued finalizers, oldest first. A failing one warns, as in stock Lua; a stop
 * is raised, and what did not run stays queued. [-0, +0]; raises only stops. */
int lh_drain_finalizers(lua_State *L) {
  lh_state *S = lh_getstate(L);
  S->fin_pending = 0;
  S->finalizing = 1; /* cleared at the end, on a stop, and by the callers after an error */
  lh_registry_table(L, &lh_fin_queue, NULL);
  int queue = lua_gettop(L);
  lua_pushvalue(L, queue);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_draining);
  lua_newtable(L); /* finalizers that queue more objects queue them in a fresh table */
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_queue);
  for (lua_Integer next = 1; lua_rawgeti(L, queue, next) != LUA_TNIL; next++) {
    S->fin_next = next;
    int object = lua_gettop(L);
    if (lua_getmetatable(L, object)) {
      lua_pushliteral(L, "__gc");
      if (lua_rawget(L, -2) != LUA_TNIL) { /* as Lua reads it: raw, when finalizing */
        lua_pushvalue(L, object);
        unsigned signals = S->signals_taken;
        if (lh_gc_not_callable(L, -2)) {
          lh_warn_gc_error(L);
          lua_settop(L, object);
        } else if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
          /* A stop, or a Ctrl-C taken inside the finalizer (its "interrupted!" is a plain
           * string), ends the drain and goes on to the code that was interrupted. */
          if (lh_stop_reason(L, -1) != LH_STOP_NONE || S->signals_taken != signals) {
            S->finalizing = 0;
            lh_requeue_rest(L, queue, next);
            return lua_error(L);
          }
          lh_warn_gc_error(L);
        }
      }
    }
    lua_settop(L, queue);
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_draining);
  S->finalizing = 0;
  /* What the finalizers queued runs at the next instruction. */
  lua_State *running = atomic_load(&S->running);
  if (S->fin_pending && running != NULL) lh_arm(running);
  return 0;
}

static int lh_run_finalizers(lua_State *L) {
  if (lh_getstate(L)->fin_pending) lh_drain_finalizers(L);
  return 0;
}

int lh_finalize_at_safe_point(lua_State *L) {
  lh_state *S = lh_getstate(L);
  lua_State *co = S->fin_thread;
  if (co == NULL || co == L || S->finalizing || lua_status(co) != LUA_OK || lua_gettop(co) != 0 ||
      !lua_checkstack(co, 1))
    return lh_stopnow(S);
  lua_pushcfunction(co, lh_drain_finalizers);
  lua_State *outer = atomic_exchange(&S->running, co);
  /* As every switch does (lh_switch): a stop requested while `running` still named L
   * hooked L, not co. */
  if (lh_stopnow(S) != LH_STOP_NONE) lh_arm(co);
  else if (S->budget >= 0) lh_budget_hook(co);
  unsigned signals = S->signals_taken;
  int nres;
  int status = lua_resume(co, L, 0, &nres);
  lh_settle(co, S); /* what the finalizers ran of their last step is charged */
  atomic_store(&S->running, outer);
  S->finalizing = 0;
  if (status == LUA_OK) {
    lua_settop(co, 0); /* ready for the next time */
  } else {
    /* A stop inside a finalizer (what did not run stays queued, lh_drain_finalizers): the
     * thread is spent, and the next queueing makes another. */
    S->fin_thread = NULL;
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_thread);
  }
  if (S->fin_pending && lh_stopnow(S) == LH_STOP_NONE) lh_arm(L); /* queued meanwhile */
  /* A Ctrl-C taken inside a finalizer interrupts the code the hook stopped at, as one. */
  if (status != LUA_OK && S->signals_taken != signals) return LH_STOP_SIGNAL;
  return lh_stopnow(S);
}

/* collectgarbage, with upvalue 1 the original: after a collection or a step, the
 * finalizers it queued run, as they would have in stock Lua. The original's errors are
 * raised as stock's ("bad argument #1 to 'collectgarbage'"): see lh_call_wrapped. Inside a
 * finalizer every option gives fail, as stock's collector is not reentrant. */
int lh_sbcollectgarbage(lua_State *L) {
  static const char *const options[] = {"stop", "restart", "collect", "count", "step",
    "setpause", "setstepmul", "isrunning", "generational", "incremental", NULL};
  if (lh_getstate(L)->finalizing) {
    luaL_checkoption(L, 1, "collect", options);
    luaL_pushfail(L);
    return 1;
  }
  const char *option = luaL_optstring(L, 1, "collect");
  int collects = strcmp(option, "collect") == 0 || strcmp(option, "step") == 0;
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lh_call_wrapped(L, n, LUA_MULTRET);
  if (collects) lh_run_finalizers(L);
  return lua_gettop(L);
}

static int lh_newer_first(const void *a, const void *b) {
  lua_Integer x = *(const lua_Integer *)a, y = *(const lua_Integer *)b;
  return (x < y) - (x > y);
}

/* At close: every registered object is finalized, the newest registration first, as
 * lua_close finalizes in reverse order of marking, garbage or not; after those a collection
 * already queued (stock's own order: what a cycle separated runs first). No collection
 * runs first: it queued the garbage ahead of the objects still reachable, which stock
 * finalizes newest first all together (a differential review). */
static int lh_finalize_all_k(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lh_fin_registered) == LUA_TTABLE) {
    int registered = lua_gettop(L), queue = registered + 1, by = registered + 2;
    lh_registry_table(L, &lh_fin_queue, NULL);
    /* A table's own order is its hash order: the objects go into `by` under their
     * numbers, and the numbers are sorted in a buffer (a userdata: an error frees it). */
    lua_newtable(L);
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, registered) != 0) {
      lua_Integer order = *(lua_Integer *)lua_touserdata(L, -1);
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
      lua_rawseti(L, by, order);
      n++;
    }
    lua_Integer *orders = lua_newuserdatauv(L, n * sizeof(lua_Integer) + 1, 0);
    size_t i = 0;
    lua_pushnil(L);
    while (i < n && lua_next(L, by) != 0) {
      lua_pop(L, 1);
      orders[i++] = lua_tointeger(L, -1);
    }
    lua_settop(L, by + 1); /* a key left if the walk stopped at n */
    qsort(orders, i, sizeof *orders, lh_newer_first);
    for (size_t k = 0; k < i; k++) {
      lua_rawgeti(L, by, orders[k]);
      lua_rawseti(L, queue, (lua_Integer)lua_rawlen(L, queue) + 1);
    }
    lua_settop(L, registered);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lh_fin_registered); /* the sentinels no longer queue */
    lh_getstate(L)->fin_pending = 1;
  }
  lua_pop(L, 1);
  return lh_run_finalizers(L);
}

int lh_uses_finalizers(lua_State *L) {
  if (!lua_checkstack(L, 1)) return 1;
  int used = lua_rawgetp(L, LUA_REGISTRYINDEX, &lh_fin_sentinel_mt) != LUA_TNIL;
  lua_pop(L, 1);
  return used;
}

int lh_finalize_all(lua_State *L) {
  if (!lh_uses_finalizers(L)) return LUA_OK;
  if (!lua_checkstack(L, 2)) return LH_ERRSTACK;
  lua_pushcfunction(L, lh_finalize_all_k);
  int status = lh_pcall(L, 0, 0);
  if (status != LUA_OK) lua_pop(L, 1);
  return status;
}
