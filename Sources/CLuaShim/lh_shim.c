// lh_shim.c: see lh_shim.h for why each piece has to be C.
#include "lh_shim.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Registry keys reserved by LuaHost (light userdata addresses, so no string interning). */
static const char lh_callback_mt_key = 0;  /* metatable of Swift closure boxes */
static const char lh_object_marker = 0;    /* rawget(mt, &marker) == true on object metatables */

/* ---- Per-state data and the limiting allocator ---- */

lh_state *lh_getstate(lua_State *L) { return *(lh_state **)lua_getextraspace(L); }

/* The limit applies only while S->enforce is set, i.e. inside a protected call, so an
 * allocation made while Swift frames are on the C stack never fails (short of the OS
 * refusing memory) and can never raise through Swift. */
static void *lh_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  lh_state *S = ud;
  size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    S->used -= old;
    return NULL;
  }
  if (nsize > old && S->enforce && nsize - old > S->limit - S->used) return NULL;
  void *p = realloc(ptr, nsize);
  if (p == NULL) return NULL;
  S->used = S->used - old + nsize;
  if (S->used > S->peak) S->peak = S->used;
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
static void lh_warnf(void *ud, const char *msg, int tocont) {
  lh_state *S = ud;
  if (!S->warn_cont && !tocont && msg[0] == '@') {
    if (strcmp(msg, "@on") == 0) S->warn_on = 1;
    else if (strcmp(msg, "@off") == 0) S->warn_on = 0;
    return;
  }
  if (S->warn_on) {
    if (!S->warn_cont) fputs("Lua warning: ", stderr);
    fputs(msg, stderr);
    if (!tocont) fputc('\n', stderr);
  }
  S->warn_cont = tocont;
}

lua_State *lh_newstate(size_t limit) {
  lh_state *S = calloc(1, sizeof *S);
  if (S == NULL) return NULL;
  S->limit = limit;
  lua_State *L = lua_newstate(lh_alloc, S);
  if (L == NULL) {
    free(S);
    return NULL;
  }
  *(lh_state **)lua_getextraspace(L) = S; /* coroutines inherit a copy of this pointer */
  S->main = L;
  atomic_init(&S->running, L);
  atomic_init(&S->stop, LH_STOP_NONE);
  S->budget = -1;
  S->budget_limit = -1;
  lua_atpanic(L, lh_panic);
  lua_setwarnf(L, lh_warnf, S);
  return L;
}

void lh_close(lua_State *L) {
  lh_state *S = lh_getstate(L);
  lua_close(L);
  lh_trace_free(S->pending);
  lh_trace_free(S->last);
  free(S);
}

/* ---- Tracebacks recorded cheaply ---- */

void lh_trace_free(lh_trace *t) {
  if (t != NULL) free(t->message);
  free(t);
}

lh_trace *lh_take_trace(lua_State *L) {
  lh_state *S = lh_getstate(L);
  lh_trace *t = S->last;
  S->last = NULL;
  return t;
}

static void lh_copy(char *dst, size_t cap, const char *src) {
  if (src == NULL) src = "";
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

static void lh_record(lua_State *L, lua_Debug *ar, int level, lh_frame *f) {
  lua_getinfo(L, "Sln", ar);
  f->level = level;
  f->currentline = ar->currentline;
  f->linedefined = ar->linedefined;
  lh_copy(f->what, sizeof f->what, ar->what);
  lh_copy(f->namewhat, sizeof f->namewhat, ar->namewhat);
  lh_copy(f->name, sizeof f->name, ar->name);
  lh_copy(f->source, sizeof f->source, ar->short_src);
}

/* Number of levels on the stack: exponential then binary search, as lua_getstack is O(level). */
static int lh_depth(lua_State *L) {
  lua_Debug ar;
  int lo = 1, hi = 1;
  while (lua_getstack(L, hi, &ar)) {
    lo = hi;
    hi *= 2;
  }
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (lua_getstack(L, mid, &ar)) lo = mid + 1; else hi = mid;
  }
  return lo; /* levels 1..lo-1 exist, plus level 0 */
}

/* For a table error value with __tostring, the message is made now, as lua.c's handler
 * makes it: __tostring then sees the stack where the error happened (level 4 is the
 * function that raised). Protected: if __tostring fails, there is no message here and Swift
 * makes its own attempt later. Userdata are left to Swift: a Swift error travels as one,
 * and its message is the Swift error's description. */
static void lh_tostring_now(lua_State *L, lh_trace *t) {
  if (lua_type(L, 1) != LUA_TTABLE || !lua_checkstack(L, 3)) return;
  if (luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL) return;
  lua_pushvalue(L, 1);
  if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    t->message = malloc(len + 1);
    if (t->message != NULL) {
      memcpy(t->message, s, len + 1);
      t->message_len = len;
    }
  }
  lua_pop(L, 1);
}

/* Message handler: records frames (C malloc, never raises) and returns the error value
 * unchanged, so the original value reaches Swift. Only an error value's own __tostring
 * runs Lua code here (see lh_tostring_now). */
static int lh_msgh(lua_State *L) {
  lh_state *S = lh_getstate(L);
  lh_trace *t = malloc(sizeof *t);
  if (t != NULL) {
    t->message = NULL;
    t->message_len = 0;
    lh_tostring_now(L, t);
    lua_Debug ar;
    int total = lh_depth(L) - 1;
    t->total = total;
    t->count = 0;
    for (int level = 1; level <= total; level++) {
      if (level > LH_HEADFRAMES && level <= total - LH_TAILFRAMES) level = total - LH_TAILFRAMES + 1;
      if (!lua_getstack(L, level, &ar)) break;
      lh_record(L, &ar, level, &t->frames[t->count++]);
    }
  }
  lh_trace_free(S->pending);
  S->pending = t;
  return 1;
}

/* ---- Stopping running code ---- */

const char lh_stop_markers[4] = {0, 0, 0, 0};

#define LH_BUDGET_STEP 1000

/* The hook of every stop. It raises the marker of the requested reason; with no reason left
 * (a thread hooked by an earlier stop), it removes itself so it costs nothing more. */
static void lh_stophook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  lh_state *S = lh_getstate(L);
  if (S->budget >= 0 && atomic_load(&S->stop) == LH_STOP_NONE) {
    S->budget -= LH_BUDGET_STEP;
    if (S->budget < 0) atomic_store(&S->stop, LH_STOP_BUDGET);
  }
  int reason = atomic_load(&S->stop);
  if (reason == LH_STOP_NONE) {
    if (S->budget < 0) lua_sethook(L, NULL, 0, 0);
    return;
  }
  if (reason == LH_STOP_SIGNAL) { /* one catchable error, then back to normal */
    atomic_store(&S->stop, LH_STOP_NONE);
    if (S->budget >= 0) lua_sethook(L, lh_stophook, LUA_MASKCOUNT, LH_BUDGET_STEP);
    else lua_sethook(L, NULL, 0, 0);
    lua_pushliteral(L, "interrupted!");
    lua_error(L);
  }
  lua_sethook(L, lh_stophook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
  lua_pushlightuserdata(L, (void *)&lh_stop_markers[reason]);
  lua_error(L);
}

/* Hooks L so that it raises at its next instruction. */
static void lh_arm(lua_State *L) {
  lua_sethook(L, lh_stophook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
}

void lh_request_stop(lh_state *S, int reason) {
  /* The first stop wins, except that a host stop replaces a pending Ctrl-C (which would
   * otherwise turn a timeout into a catchable error). */
  int current = atomic_load(&S->stop);
  while (current == LH_STOP_NONE || (current == LH_STOP_SIGNAL && reason != LH_STOP_SIGNAL)) {
    if (atomic_compare_exchange_weak(&S->stop, &current, reason)) break;
  }
  /* Paired with the exchange of `running` in lh_resume: whichever runs second hooks the
   * thread that is running (both operations are sequentially consistent). */
  lh_arm(atomic_load(&S->running));
}

const void *lh_stop_marker(int reason) { return &lh_stop_markers[reason & 3]; }

static _Atomic(lh_state *) lh_sigint_target;

static void lh_sigint_action(int signo) {
  signal(signo, SIG_DFL); /* a second Ctrl-C ends the process */
  lh_state *S = atomic_load(&lh_sigint_target);
  if (S != NULL) lh_request_stop(S, LH_STOP_SIGNAL);
}

void lh_sigint_arm(lua_State *L) {
  atomic_store(&lh_sigint_target, lh_getstate(L));
  signal(SIGINT, lh_sigint_action);
  /* A parent may have started us with SIGINT blocked (thread pools do). */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void lh_sigint_disarm(void) {
  signal(SIGINT, SIG_DFL);
  atomic_store(&lh_sigint_target, NULL);
}

int lh_stop_reason(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TLIGHTUSERDATA) return LH_STOP_NONE;
  const char *p = lua_touserdata(L, idx);
  if (p > &lh_stop_markers[0] && p <= &lh_stop_markers[3]) return (int)(p - lh_stop_markers);
  return LH_STOP_NONE;
}

void lh_setbudget(lua_State *L, long long instructions) {
  lh_getstate(L)->budget_limit = instructions;
}

/* The outermost call starts: arm the budget, if any. */
static void lh_begin(lua_State *L, lh_state *S) {
  S->budget = S->budget_limit;
  if (S->budget >= 0) lua_sethook(L, lh_stophook, LUA_MASKCOUNT, LH_BUDGET_STEP);
}

/* The outermost call has returned: the stop, if any, is over. */
static void lh_end(lua_State *L, lh_state *S) {
  /* Load first: a plain load is free, a sequentially consistent store is not. Skipping the
   * store when no stop is set is the same as storing at the load's moment. */
  if (atomic_load(&S->stop) != LH_STOP_NONE) atomic_store(&S->stop, LH_STOP_NONE);
  S->budget = -1;
  if (lua_gethook(L) != NULL) lua_sethook(L, NULL, 0, 0);
  if (S->main != L && lua_gethook(S->main) != NULL) lua_sethook(S->main, NULL, 0, 0);
}

void lh_clearstop(lua_State *L) {
  lh_state *S = lh_getstate(L);
  if (S->depth == 0 && atomic_load(&S->stop) != LH_STOP_NONE) lh_end(L, S);
}

void lh_endstop(lua_State *L) {
  lh_state *S = lh_getstate(L);
  long long budget = S->budget;
  lh_end(L, S);
  S->budget = budget; /* an instruction budget, if any, still runs */
  if (budget >= 0) lua_sethook(L, lh_stophook, LUA_MASKCOUNT, LH_BUDGET_STEP);
}

/* coroutine.resume and the function coroutine.wrap returns, keeping S->running current. */
static int lh_resume(lua_State *L, lua_State *co, int narg) {
  lh_state *S = lh_getstate(L);
  int status = lua_status(co);
  if (status == LUA_OK && lua_gettop(co) == 0) {
    lua_pushliteral(L, "cannot resume dead coroutine");
    return -1;
  }
  if (co == L || (status == LUA_OK && lua_gettop(co) > 0 && lua_getstack(co, 0, &(lua_Debug){0}))) {
    lua_pushliteral(L, "cannot resume non-suspended coroutine");
    return -1;
  }
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_xmove(L, co, narg);
  lua_State *outer = atomic_exchange(&S->running, co);
  if (atomic_load(&S->stop) != LH_STOP_NONE || (S->budget >= 0 && lua_gethook(co) == NULL)) {
    if (atomic_load(&S->stop) != LH_STOP_NONE) lh_arm(co);
    else lua_sethook(co, lh_stophook, LUA_MASKCOUNT, LH_BUDGET_STEP);
  }
  int nres;
  status = lua_resume(co, L, narg, &nres);
  atomic_store(&S->running, outer);
  if (atomic_load(&S->stop) != LH_STOP_NONE) lh_arm(L);
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushliteral(L, "too many results to resume");
      return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1); /* the error value */
  return -1;
}

static int lh_coresume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "coroutine");
  int n = lh_resume(L, co, lua_gettop(L) - 1);
  if (n < 0) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_insert(L, -(n + 1));
  return n + 1;
}

static int lh_cowrapped(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int n = lh_resume(L, co, lua_gettop(L));
  if (n < 0) {
    int stat = lua_status(co);
    if (stat != LUA_OK && stat != LUA_YIELD) { /* error in the coroutine: close it */
      stat = lua_resetthread(co);
      lua_xmove(co, L, 1);
    }
    if (lh_stop_reason(L, -1) == LH_STOP_NONE && lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1); /* add position, as coroutine.wrap does */
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return n;
}

static int lh_cowrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  lua_pushcclosure(L, lh_cowrapped, 1);
  return 1;
}

static int lh_trackcoroutines_k(lua_State *L) {
  if (lua_getglobal(L, LUA_COLIBNAME) != LUA_TTABLE) return 0;
  lua_pushcfunction(L, lh_coresume);
  lua_setfield(L, -2, "resume");
  lua_pushcfunction(L, lh_cowrap);
  lua_setfield(L, -2, "wrap");
  return 0;
}

int lh_trackcoroutines(lua_State *L) {
  if (!lua_checkstack(L, 1)) return LH_ERRSTACK;
  lua_pushcfunction(L, lh_trackcoroutines_k);
  return lh_pcall(L, 0, 0);
}

/* ---- Protected calls ---- */

void lh_pushmsgh(lua_State *L) { lua_pushcfunction(L, lh_msgh); }

/* The protected call itself, with lh_msgh already below the function (pushed first by the
 * caller, so no lua_insert/lua_remove is needed on the fast path). */
int lh_pcallh(lua_State *L, int nargs, int nresults) {
  lh_state *S = lh_getstate(L);
  int handler = lua_gettop(L) - nargs - 1;
  lh_trace *outer = S->pending;
  S->pending = NULL;
  int enforce = S->enforce;
  S->enforce = 1;
  /* Swap the running thread only when it changes: the usual call from the thread that is
   * already running costs no atomic read-modify-write (a stop request then hooks L, which
   * is the right thread either way). */
  lua_State *outer_running = atomic_load(&S->running);
  if (outer_running != L) outer_running = atomic_exchange(&S->running, L);
  if (S->depth++ == 0) lh_begin(L, S);
  int status = lua_pcall(L, nargs, nresults, handler);
  if (--S->depth == 0) lh_end(L, S);
  if (outer_running != L) atomic_store(&S->running, outer_running);
  S->enforce = enforce;
  if (status != LUA_OK) {
    lh_trace_free(S->last);
    S->last = S->pending;
  } else if (S->pending != NULL) {
    lh_trace_free(S->pending);
  }
  S->pending = outer;
  return status;
}

int lh_pcall(lua_State *L, int nargs, int nresults) {
  if (!lua_checkstack(L, 1)) return LH_ERRSTACK;
  int base = lua_gettop(L) - nargs; /* the function */
  lh_pushmsgh(L);
  lua_insert(L, base);
  int status = lh_pcallh(L, nargs, nresults);
  lua_remove(L, base);
  return status;
}

int lh_load(lua_State *L, const char *buf, size_t len, const char *chunkname, const char *mode) {
  lh_state *S = lh_getstate(L);
  int enforce = S->enforce;
  S->enforce = 1;
  int status = luaL_loadbufferx(L, buf, len, chunkname, mode); /* lua_load is protected */
  S->enforce = enforce;
  return status;
}

static int lh_openlibs_k(lua_State *L) {
  static const struct { unsigned bit; const char *name; lua_CFunction open; } libs[] = {
    {LH_LIB_BASE, LUA_GNAME, luaopen_base},       {LH_LIB_PACKAGE, LUA_LOADLIBNAME, luaopen_package},
    {LH_LIB_COROUTINE, LUA_COLIBNAME, luaopen_coroutine}, {LH_LIB_TABLE, LUA_TABLIBNAME, luaopen_table},
    {LH_LIB_IO, LUA_IOLIBNAME, luaopen_io},       {LH_LIB_OS, LUA_OSLIBNAME, luaopen_os},
    {LH_LIB_STRING, LUA_STRLIBNAME, luaopen_string}, {LH_LIB_MATH, LUA_MATHLIBNAME, luaopen_math},
    {LH_LIB_UTF8, LUA_UTF8LIBNAME, luaopen_utf8}, {LH_LIB_DEBUG, LUA_DBLIBNAME, luaopen_debug},
  };
  unsigned mask = (unsigned)lua_tointeger(L, 1);
  if (mask & LH_OPEN_NOENV) {
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
  }
  for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
    if (mask & libs[i].bit) {
      luaL_requiref(L, libs[i].name, libs[i].open, 1);
      lua_pop(L, 1);
    }
  }
  return 0;
}

int lh_openlibs(lua_State *L, unsigned mask) {
  if (!lua_checkstack(L, 2)) return LH_ERRSTACK;
  lua_pushcfunction(L, lh_openlibs_k);
  lua_pushinteger(L, (lua_Integer)mask);
  return lh_pcall(L, 1, 0);
}

const char *lh_copyright(void) { return LUA_COPYRIGHT; }

void lh_setwarnings(lua_State *L, int on) { lua_warning(L, on ? "@on" : "@off", 0); }

void lh_writeline(const char *s, size_t len) {
  fwrite(s, 1, len, stdout);
  fputc('\n', stdout);
}

void lh_collectgarbage(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }

/* Each lh_p* wrapper runs one raising API call as a light C function under lh_pcall. */
static int lh_gettable_k(lua_State *L) { lua_gettable(L, 1); return 1; }
static int lh_settable_k(lua_State *L) { lua_settable(L, 1); return 0; }
static int lh_compare_k(lua_State *L) {
  lua_pushboolean(L, lua_compare(L, 1, 2, (int)lua_tointeger(L, 3)));
  return 1;
}
static int lh_tostring_k(lua_State *L) { luaL_tolstring(L, 1, NULL); return 1; }
static int lh_len_k(lua_State *L) { lua_len(L, 1); return 1; }
static int lh_concat_k(lua_State *L) { lua_concat(L, lua_gettop(L)); return 1; }

/* Pushes f and a copy of the value at idx, then moves the n values that were on top above
 * them: ... v1..vn -> ... f t v1..vn. */
static int lh_prepare(lua_State *L, lua_CFunction f, int idx, int n) {
  if (!lua_checkstack(L, 3)) return 0;
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, f);
  lua_pushvalue(L, idx);
  lua_rotate(L, -(n + 2), 2);
  return 1;
}

int lh_pgettable(lua_State *L, int idx) {
  if (!lh_prepare(L, lh_gettable_k, idx, 1)) return LH_ERRSTACK;
  return lh_pcall(L, 2, 1);
}

int lh_psettable(lua_State *L, int idx) {
  if (!lh_prepare(L, lh_settable_k, idx, 2)) return LH_ERRSTACK;
  return lh_pcall(L, 3, 0);
}

int lh_pcompare(lua_State *L, int a, int b, int op, int *result) {
  if (!lua_checkstack(L, 4)) return LH_ERRSTACK;
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  lua_pushcfunction(L, lh_compare_k);
  lua_pushvalue(L, a);
  lua_pushvalue(L, b);
  lua_pushinteger(L, op);
  int status = lh_pcall(L, 3, 1);
  if (status == LUA_OK) {
    *result = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  return status;
}

int lh_ptostring(lua_State *L, int idx) {
  if (!lh_prepare(L, lh_tostring_k, idx, 0)) return LH_ERRSTACK;
  return lh_pcall(L, 1, 1);
}

int lh_plen(lua_State *L, int idx) {
  if (!lh_prepare(L, lh_len_k, idx, 0)) return LH_ERRSTACK;
  return lh_pcall(L, 1, 1);
}

int lh_pconcat(lua_State *L, int n) {
  if (!lua_checkstack(L, 2)) return LH_ERRSTACK;
  lua_pushcfunction(L, lh_concat_k);
  lua_insert(L, -(n + 1));
  return lh_pcall(L, n, 1);
}

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
  void **slot = lua_touserdata(L, lua_upvalueindex(1));
  lh_state *S = lh_getstate(L);
  int enforce = S->enforce;
  S->enforce = 0;
  int n = lh_swift_dispatch(L, *slot);
  S->enforce = enforce;
  if (n < 0) return lua_error(L);
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
