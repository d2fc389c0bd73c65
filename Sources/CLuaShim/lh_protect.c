// lh_protect.c: protected calls, loading, libraries, and protected API operations.
#include "lh_private.h"

#include <stdio.h>

/* ---- Protected calls ---- */

/* Runs the finalizers the collector queued during the outermost call, before it ends, so
 * they run under its deadline and budget (a stop leaves them queued). Stack unchanged. */
static void lh_finalize_pending(lua_State *L, lh_state *S) {
  if (lh_stopnow(S) != LH_STOP_NONE || !lua_checkstack(L, 2)) return;
  lua_pushcfunction(L, lh_drain_finalizers);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) lua_pop(L, 1);
}

void lh_pushmsgh(lua_State *L) { lua_pushcfunction(L, lh_msgh); }

/* One call from Swift instead of four (gettop, checkstack, the handler, the function): the
 * start of every typed call. */
int lh_begincall(lua_State *L, int ref, int room) {
  int base = lua_gettop(L);
  if (!lua_checkstack(L, room)) return -1;
  lua_pushcfunction(L, lh_msgh);
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  return base;
}

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
  if (S->depth++ == 0) {
    int pending = lh_enter(S); /* odd: an interrupt requested from now on is this call's */
    lh_begin(L, S);
    if (pending && lh_stopnow(S) != LH_STOP_NONE) lh_arm(L);
  }
  int status = lua_pcall(L, nargs, nresults, handler);
  if (status == LUA_ERRMEM && S->pending == NULL && S->oom != NULL) { /* see lh_record_oom */
    S->pending = S->oom;
    S->oom = NULL;
  }
  if (S->fin_pending && S->depth == 1) lh_finalize_pending(L, S);
  if (--S->depth == 0) {
    lh_trace_free(S->oom); /* a refusal a script's pcall caught */
    S->oom = NULL;
    /* A stop or a memory error may have abandoned luaL_Buffer boxes, which only their
     * finalizers free (an emergency collection runs none): collect now, so the memory
     * limit counts what is really in use. Every finalizer then is C (the sandbox defers
     * scripts' own), so this cannot run script code with hooks off. */
    int collect = status == LUA_ERRMEM || lh_stopnow(S) != LH_STOP_NONE;
    lh_leave(L, S);
    if (collect) lua_gc(L, LUA_GCCOLLECT);
  }
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
  /* The parser polls for stops (lh_load.c): loading from the host is an outermost entry as
   * a call is, so a stop it takes ends with it, and an interrupt reaches it. The budget is
   * not started: the host's own setup chunks are loaded so too, and the parser charges by
   * time, so a small budget would refuse them depending on the machine. */
  if (S->depth++ == 0) lh_enter(S); /* the parser polls the stop word itself */
  int status = lh_loadpieces(L, buf, len, chunkname, mode); /* lua_load is protected */
  if (--S->depth == 0) lh_leave(L, S);
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
      if (libs[i].bit == LH_LIB_OS) { /* see lh_os_exit */
        lua_pushcfunction(L, lh_os_exit);
        lua_setfield(L, -2, "exit");
      }
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
  fflush(stdout); /* as lua_writeline does: a warning on stderr comes after the line */
}

/* A full collection that also finalizes what it found dead. In generational mode Lua's full
 * collection leaves the finalizers it queued for the next step (fullgen does not call them),
 * so Swift objects behind dead userdata would stay retained, and charged, until then: one
 * basic step runs them. lua_gc cannot raise here (only finalizers could, and Lua turns
 * their errors into warnings). */
void lh_collectgarbage(lua_State *L) {
  lua_gc(L, LUA_GCCOLLECT);
  if (lua_gc(L, LUA_GCISRUNNING)) lua_gc(L, LUA_GCSTEP, 0);
}

void lh_setgenerational(lua_State *L) { lua_gc(L, LUA_GCGEN, 0, 0); }

/* Setting a state up (its libraries, the sandbox's policy) makes objects that all stay
 * alive: the collector's incremental steps meanwhile only traverse them. Restarting sets
 * the collector's debt to zero, so the skipped steps are not paid later either. */
void lh_pausecollector(lua_State *L, int pause) { lua_gc(L, pause ? LUA_GCSTOP : LUA_GCRESTART); }

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


/* Calls the function below its arguments and returns all its results: a C frame below a
 * script's main chunk, as lua.c has (tracebacks end in "[C]: in ?"). */
/* The C function below a script's main chunk, as lua.c has one. It calls the chunk under
 * its own message handler, so the frames (and an error object's __tostring, which may look
 * at them) are taken where the error happened, also when the chunk runs in a task-driven
 * coroutine whose stack the step's handler cannot walk; the handler of the enclosing call
 * keeps that trace (keep_pending). Yieldable: the chunk may call async functions. */
static int lh_callmain_done(lua_State *L, int status, lua_KContext ctx) {
  (void)ctx;
  if (status != LUA_OK && status != LUA_YIELD) {
    lh_getstate(L)->keep_pending = 1;
    return lua_error(L);
  }
  return lua_gettop(L) - 1; /* every result, not the handler at 1 */
}

static int lh_callmain_k(lua_State *L) {
  int nargs = lua_gettop(L) - 1;
  lua_pushcfunction(L, lh_msgh);
  lua_insert(L, 1);
  return lh_callmain_done(L, lua_pcallk(L, nargs, LUA_MULTRET, 1, 0, lh_callmain_done), 0);
}

void lh_pushcallmain(lua_State *L) { lua_pushcfunction(L, lh_callmain_k); }
