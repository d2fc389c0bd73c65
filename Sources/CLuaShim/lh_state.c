// lh_state.c: per-state data, the limiting allocator, the panic and warning functions.
#include "lh_private.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Per-state data and the limiting allocator ---- */

/* Each thread's extra space holds its lh_state pointer; bit 0 marks a coroutine whose hooks
 * Lua has switched off for good (see lh_markthread), bit 1 a task-driven coroutine (see
 * lh_async.c), bit 2 a thread whose current budget step is paid already (see lh_stop.c).
 * lh_state comes from malloc, aligned to 16, so the bits are free. The main thread's bits
 * stay clear: Lua copies them into every thread it makes. */
void lh_markdriven(lua_State *L) { *(uintptr_t *)lua_getextraspace(L) |= 2; }

int lh_threaddriven(lua_State *L) { return (int)(*(uintptr_t *)lua_getextraspace(L) >> 1 & 1); }

void lh_markthread(lua_State *L) { *(uintptr_t *)lua_getextraspace(L) |= 1; }

int lh_threadmarked(lua_State *L) { return (int)(*(uintptr_t *)lua_getextraspace(L) & 1); }

void lh_setprepaid(lua_State *L, int paid) {
  uintptr_t *bits = lua_getextraspace(L);
  *bits = paid ? *bits | 4 : *bits & ~(uintptr_t)4;
}

int lh_prepaid(lua_State *L) { return (int)(*(uintptr_t *)lua_getextraspace(L) >> 2 & 1); }

/* The limit applies only while S->enforce is set, i.e. inside a protected call, so an
 * allocation made while Swift frames are on the C stack never fails (short of the OS
 * refusing memory) and can never raise through Swift.
 *
 * `used` may exceed `limit`: allocations made while Swift runs are never refused, and
 * Swift-side charges (S->external) grow on their own. So the budget is compared, never
 * computed as `limit - used`, which would wrap in unsigned arithmetic and switch the limit
 * off for good. */
/* The owner's view of `used`: it alone writes it, so a relaxed load and store suffice (a
 * plain move on x86, as before) and other threads' charges read it race-free. */
static inline size_t lh_used(lh_state *S) {
  return atomic_load_explicit(&S->used, memory_order_relaxed);
}

static void *lh_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  lh_state *S = ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    atomic_store_explicit(&S->used, lh_used(S) - old, memory_order_relaxed);
    return NULL;
  }
  if (nsize > old && S->enforce && !lh_fits(S, nsize - old)) {
    lh_record_oom(S); /* the cold path: the position and traceback of the memory error */
    return NULL;
  }
  void *p = realloc(ptr, nsize);
  if (p == NULL) return NULL;
  size_t used = lh_used(S) - old + nsize;
  atomic_store_explicit(&S->used, used, memory_order_relaxed);
  if (used > S->peak) S->peak = used;
  return p;
}

/* Only reached if something raised outside protection: that is a LuaHost bug. */
static int lh_panic(lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "luahost: unprotected Lua error (LuaHost bug): %s\n", msg ? msg : "?");
  abort();
}

/* Warnings as `lua` prints them: off until "@on"; a message made of several pieces
 * (tocont set on all but the last) is one line on stderr after "Lua warning: ". A message
 * of one piece starting with '@' is a control message; unknown ones are ignored. */
/* Implemented in Swift (LuaState+Sandbox.swift): hands one warning line to the sink. */
extern void lh_swift_warnline(void *sink, const char *line, size_t len);

/* Appends to the line for the sink, up to LH_WARN_MAX bytes (the rest is dropped: a
 * warning is a line, and its memory is the host's, outside the script's limit). */
static void lh_warnappend(lh_state *S, const char *s) {
  if (S->warn_buf == NULL && (S->warn_buf = malloc(LH_WARN_MAX)) == NULL) return;
  size_t n = strlen(s);
  if (n > LH_WARN_MAX - S->warn_len) n = LH_WARN_MAX - S->warn_len;
  memcpy(S->warn_buf + S->warn_len, s, n);
  S->warn_len += n;
}

static void lh_warnf(void *ud, const char *msg, int tocont) {
  lh_state *S = ud;
  if (!S->warn_cont && !tocont && msg[0] == '@') {
    if (strcmp(msg, "@on") == 0) S->warn_on = 1;
    else if (strcmp(msg, "@off") == 0) S->warn_on = 0;
    return;
  }
  if (S->warn_on && S->warn_sink != NULL) {
    if (!S->warn_cont) {
      S->warn_len = 0;
      lh_warnappend(S, "Lua warning: ");
    }
    lh_warnappend(S, msg);
    if (!tocont && S->warn_buf != NULL) lh_swift_warnline(S->warn_sink, S->warn_buf, S->warn_len);
  } else if (S->warn_on) {
    if (!S->warn_cont) fputs("Lua warning: ", stderr);
    fputs(msg, stderr);
    if (!tocont) fputc('\n', stderr);
  }
  S->warn_cont = tocont;
}

void lh_setwarnsink(lua_State *L, void *sink) { lh_getstate(L)->warn_sink = sink; }

int lh_charge(lh_state *S, size_t bytes, size_t headroom) {
  if (bytes == 0) return 1;
  if (S->limit != SIZE_MAX) {
    size_t in_use = lh_used(S) + atomic_load_explicit(&S->external, memory_order_relaxed);
    size_t limit = S->limit > SIZE_MAX - headroom ? SIZE_MAX : S->limit + headroom;
    if (in_use > limit || bytes > limit - in_use) return 0;
  }
  atomic_fetch_add_explicit(&S->external, bytes, memory_order_relaxed);
  atomic_fetch_add_explicit(&S->gc_pressure, bytes, memory_order_relaxed);
  return 1;
}

__attribute__((noinline, cold)) void lh_gc_pressure(lua_State *L, lh_state *S) {
  size_t bytes = atomic_exchange_explicit(&S->gc_pressure, 0, memory_order_relaxed);
  if (!lua_gc(L, LUA_GCISRUNNING)) return;
  size_t kb = bytes >> 10;
  lua_gc(L, LUA_GCSTEP, kb > INT_MAX ? INT_MAX : (int)kb); /* finalizers' errors only warn */
}

void lh_uncharge(lh_state *S, size_t bytes) {
  atomic_fetch_sub_explicit(&S->external, bytes, memory_order_relaxed);
}

size_t lh_memory_in_use(lh_state *S) {
  return lh_used(S) + atomic_load_explicit(&S->external, memory_order_relaxed);
}

void lh_state_retain(lh_state *S) { atomic_fetch_add(&S->refs, 1); }

void lh_state_release(lh_state *S) {
  if (atomic_fetch_sub(&S->refs, 1) == 1) free(S);
}

lua_State *lh_newstate(size_t limit) {
  lh_deliver_init(); /* before a stop can be requested from another thread */
  lh_state *S = calloc(1, sizeof *S);
  if (S == NULL) return NULL;
  S->limit = limit;
  atomic_init(&S->used, 0);
  atomic_init(&S->external, 0);
  atomic_init(&S->gc_pressure, 0);
  atomic_init(&S->refs, 1);
  lua_State *L = lua_newstate(lh_alloc, S);
  if (L == NULL) {
    free(S);
    return NULL;
  }
  *(lh_state **)lua_getextraspace(L) = S; /* coroutines inherit a copy of this pointer */
  S->main = L;
  S->current = L;
  atomic_init(&S->releases, 0);
  atomic_init(&S->running, L);
  atomic_init(&S->stop, LH_STOP_NONE);
  atomic_init(&S->tid, 0);
  S->budget = -1;
  S->budget_limit = -1;
  lua_atpanic(L, lh_panic);
  lua_setwarnf(L, lh_warnf, S);
  return L;
}

void lh_close(lua_State *L) {
  lh_state *S = lh_getstate(L);
  lua_close(L);
  free(S->warn_buf);
  S->warn_buf = NULL;
  S->warn_sink = NULL;
  lh_trace_free(S->pending);
  lh_trace_free(S->last);
  lh_trace_free(S->oom);
  S->pending = S->last = NULL;
  S->main = NULL;
  lh_state_release(S); /* memory charges held by Swift objects may keep it a while */
}

