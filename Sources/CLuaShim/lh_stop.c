// lh_stop.c: stopping running code (deadlines, interrupts, budgets), on every thread.
//
// Why C: a stop is delivered by a hook (lua_sethook), which is C, and raised with
// lua_error; the coroutine functions must keep `running` current, which only C sees.
//
// Invariants:
// * S->stop holds the requested reason from any thread; it stays set (sticky) until the
//   outermost lh_pcall returns (lh_end), except LH_STOP_SIGNAL, which is raised once.
// * An interrupt belongs to the outermost entry that ran when it was requested: S->stop
//   carries the S->entries count its requester saw, and one that landed after its entry
//   ended is stale (lh_stopslow), so a Ctrl-C at a prompt never stops the next line.
// * S->running is the thread executing Lua now; a request hooks exactly that thread, and
//   every switch of thread (lh_resume, lh_coclose) re-checks S->stop after switching.
// * A hook that raises an error inside a coroutine leaves Lua's `allowhook` flag of that
//   thread off for good (lua_resume does not restore it), so that thread could later run
//   __close handlers with no hook at all. The hook therefore yields instead where it can,
//   and marks the thread (lh_markthread) where it must raise; a marked thread is never
//   resumed or closed again.
#include "lh_private.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>

const char lh_stop_markers[4] = {0, 0, 0, 0};

#define LH_BUDGET_STEP 1000
#define LH_ALLHOOKS (LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT)

static void lh_stophook(lua_State *L, lua_Debug *ar);
static void lh_sigint_heard(void);

/* Hooks L so that it raises at its next instruction. */
void lh_arm(lua_State *L) { lua_sethook(L, lh_stophook, LH_ALLHOOKS, 1); }

/* The budget's count hook, alone, with a fresh count: its step is not paid yet. */
void lh_budget_hook(lua_State *L) {
  lua_sethook(L, lh_stophook, LUA_MASKCOUNT, LH_BUDGET_STEP);
  lh_setprepaid(L, 0);
}

/* Charges `instructions` to the budget, if one runs; returns the stop reason now pending. */
static int lh_pending(lh_state *S, long long instructions) {
  if (S->budget >= 0 && lh_stopnow(S) == LH_STOP_NONE) {
    S->budget -= instructions;
    if (S->budget < 0) lh_request_stop(S, LH_STOP_BUDGET);
  }
  return lh_stopnow(S);
}

/* The budget counts each thread's instructions in steps of LH_BUDGET_STEP, with that
 * thread's count hook, and charges a step as its count runs out. A count that stops short
 * of that is never read (Lua has no call that reads it), so a step that ends early is
 * charged in full as it ends, and marked paid, so the hook that ends it later charges
 * nothing:
 *   * a coroutine the script (or the host) resumed gives control back: it may never run
 *     again, and every coroutine starts a fresh count (a loop of fresh coroutines that ran
 *     999 instructions each was never charged);
 *   * a thread hooked for a stop or a finalizer (lh_arm) gets the budget's hook back with a
 *     fresh count (a finalizer that set up another finalizer each time it ran kept the
 *     budget from ever being charged).
 * So the budget charges at least what runs, and at most one step more per thread and per
 * such early end. */
void lh_settle(lua_State *L, lh_state *S) {
  if (S->budget < 0 || lh_prepaid(L)) return;
  lh_pending(S, LH_BUDGET_STEP);
  lh_setprepaid(L, 1);
}

/* Leaves on L only what the budget needs: its count hook, or nothing. A count hook that
 * is already the budget's is left as it is: setting it again restarts its count, and the
 * instructions run since it last fired would be charged to no one (a loop that called
 * something ending in lh_budget_pop in every step of under LH_BUDGET_STEP instructions
 * was never charged at all). A thread hooked for a stop or a finalizer ends its step here
 * (lh_settle) before the fresh count starts. */
static void lh_rehook(lua_State *L, lh_state *S) {
  if (S->budget < 0) {
    lua_sethook(L, NULL, 0, 0);
    return;
  }
  if (lua_gethook(L) == lh_stophook && lua_gethookmask(L) == LUA_MASKCOUNT &&
      lua_gethookcount(L) == LH_BUDGET_STEP)
    return;
  if (lua_gethook(L) == lh_stophook) lh_settle(L, S);
  lh_setprepaid(L, 0);
  if (lh_stopnow(S) != LH_STOP_NONE) lh_arm(L); /* the step it settled spent the budget */
  else lh_budget_hook(L);
}

/* The stop word: the reason in bits 0-2; bit 3 set for a stop scoped to one entry (an
 * interrupt); above, the S->entries count its requester saw. */
#define LH_WORD_SCOPED 8
#define LH_WORD_ENTRIES(word) ((word) >> 4)

static int lh_scoped(int reason) { return reason == LH_STOP_INTERRUPT || reason == LH_STOP_SIGNAL; }

int lh_stopslow(lh_state *S, long long word) {
  int reason = (int)(word & 7);
  if (!(word & LH_WORD_SCOPED) ||
      LH_WORD_ENTRIES(word) == atomic_load_explicit(&S->entries, memory_order_relaxed))
    return reason;
  /* Requested for an entry that has ended: forget it, unless it changed meanwhile. */
  atomic_compare_exchange_strong(&S->stop, &word, 0);
  word = atomic_load(&S->stop);
  return word == 0 ? LH_STOP_NONE : lh_stopslow(S, word);
}

/* The error value of a one-shot Ctrl-C, which clears itself (a host stop that arrived
 * meanwhile stays pending). Pushes 1. */
static void lh_takesignal(lua_State *L, lh_state *S) {
  S->signals_taken++; /* so a finalizer's drain passes a Ctrl-C on (lh_gc.c) */
  long long word = atomic_load(&S->stop);
  if ((word & 7) == LH_STOP_SIGNAL && atomic_compare_exchange_strong(&S->stop, &word, 0))
    lh_sigint_heard();
  if (lh_stopnow(S) == LH_STOP_NONE) lh_rehook(L, S);
  lua_pushliteral(L, "interrupted!");
}

/* Raises the pending stop in L, from C code that is not a hook. */
static int lh_raise(lua_State *L, lh_state *S, int reason) {
  if (reason == LH_STOP_SIGNAL) {
    lh_takesignal(L, S);
    return lua_error(L);
  }
  lh_arm(L); /* sticky: raised again at every instruction until the outermost call ends */
  lua_pushlightuserdata(L, (void *)&lh_stop_markers[reason]);
  return lua_error(L);
}

void lh_poll(lua_State *L, long long steps) {
  lh_state *S = lh_getstate(L);
  int reason = lh_pending(S, steps);
  if (reason != LH_STOP_NONE) lh_raise(L, S, reason);
}

int lh_poll_pending(lua_State *L, long long steps) { return lh_pending(lh_getstate(L), steps); }

/* The hook of every stop and of the budget. With no reason pending it only charges the
 * budget, and a thread left hooked by an earlier stop drops back to the budget's hook. */
static void lh_stophook(lua_State *L, lua_Debug *ar) {
  lh_state *S = lh_getstate(L);
  int counting = ar->event == LUA_HOOKCOUNT && lua_gethookcount(L) == LH_BUDGET_STEP;
  long long charge = 0;
  if (counting) { /* a step ends: charged now, unless it was as it ended early (lh_settle) */
    charge = lh_prepaid(L) ? 0 : LH_BUDGET_STEP;
    lh_setprepaid(L, 0);
  }
  int reason = lh_pending(S, charge);
  if (reason == LH_STOP_NONE && S->fin_pending && !S->finalizing) {
    if (!counting) lh_rehook(L, S); /* before: the finalizers may hook L again */
    reason = lh_finalize_at_safe_point(L);
    if (reason == LH_STOP_NONE) return;
  }
  if (reason == LH_STOP_NONE) {
    if (!counting) lh_rehook(L, S);
    return;
  }
  if (reason != LH_STOP_SIGNAL) {
    lh_arm(L);
    if ((ar->event == LUA_HOOKCOUNT || ar->event == LUA_HOOKLINE) && lua_isyieldable(L)) {
      lua_getinfo(L, "l", ar); /* the line it stops on, before the yield moves the pc back */
      S->hook_yielded = L;
      S->hook_yield_line = ar->currentline;
      lua_yield(L, 0); /* lh_resume, the only resumer, raises the stop in the outer thread */
      return;
    }
  }
  if (L != S->main) lh_markthread(L);
  if (reason == LH_STOP_SIGNAL) lh_takesignal(L, S);
  else lua_pushlightuserdata(L, (void *)&lh_stop_markers[reason]);
  lua_error(L);
}

static int lh_request(lh_state *S, int reason, long long entries, int scoped) {
  if (scoped && (entries & 1) == 0) return 0; /* nothing runs: nothing to stop */
  /* The first stop wins, except that a host stop replaces a pending Ctrl-C (which would
   * otherwise turn a timeout into a catchable error). */
  long long word = entries << 4 | (scoped ? LH_WORD_SCOPED : 0) | reason;
  long long current = atomic_load(&S->stop);
  for (;;) {
    int pending = (int)(current & 7);
    /* An interrupt of an entry older than the one seen here is stale: replace it. (Not
     * lh_stopslow: another requester may have seen a newer count than this one.) */
    if ((current & LH_WORD_SCOPED) && LH_WORD_ENTRIES(current) < entries) pending = LH_STOP_NONE;
    if (pending != LH_STOP_NONE && !(pending == LH_STOP_SIGNAL && reason != LH_STOP_SIGNAL)) break;
    if (atomic_compare_exchange_weak(&S->stop, &current, word)) break;
  }
  /* Hooks the running thread, on the thread that runs it (lh_deliver.c). There, the hook
   * and every switch of `running` are ordered: a switch hooks the thread it switches to. */
  lh_deliver(S);
  return 1;
}

int lh_request_stop(lh_state *S, int reason) {
  return lh_request_stop_seen(S, reason, atomic_load_explicit(&S->entries, memory_order_relaxed));
}

int lh_request_stop_seen(lh_state *S, int reason, long long entries) {
  return lh_request(S, reason, entries, lh_scoped(reason));
}

void lh_request_stop_sticky(lh_state *S, int reason) {
  lh_request(S, reason, atomic_load_explicit(&S->entries, memory_order_relaxed), 0);
}

const void *lh_stop_marker(int reason) { return &lh_stop_markers[reason & 3]; }

int lh_stop_reason(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TLIGHTUSERDATA) return LH_STOP_NONE;
  const char *p = lua_touserdata(L, idx);
  if (p > &lh_stop_markers[0] && p <= &lh_stop_markers[3]) return (int)(p - lh_stop_markers);
  return LH_STOP_NONE;
}

void lh_setbudget(lua_State *L, long long instructions) {
  lh_getstate(L)->budget_limit = instructions;
}

long long lh_budget_push(lua_State *L) {
  lh_state *S = lh_getstate(L);
  long long saved = S->budget;
  if (S->budget_limit >= 0) S->budget = S->budget_limit;
  return saved;
}

void lh_budget_pop(lua_State *L, long long saved) {
  lh_state *S = lh_getstate(L);
  S->budget = saved;
  if (lh_stopnow(S) == LH_STOP_NONE) lh_rehook(L, S); /* the caller's count goes on */
}

void lh_begin(lua_State *L, lh_state *S) {
  S->budget = S->budget_limit;
  if (LH_POLLS_FOR_STOPS && S->budget < 0) S->budget = LLONG_MAX / 2; /* see lh_private.h */
  if (S->budget >= 0) lh_budget_hook(L);
}

void lh_end(lua_State *L, lh_state *S) {
  /* Load first: a plain load is free, a sequentially consistent store is not. Skipping the
   * store when no stop is set is the same as storing at the load's moment. */
  if (atomic_load(&S->stop) != 0) {
    atomic_store(&S->stop, 0);
    S->hook_yielded = NULL; /* only a stop yields from a hook: its trace is taken by now */
  }
  S->budget = -1;
  S->finalizing = 0; /* a drain that an error left (lh_gc.c) */
  if (lua_gethook(L) != NULL) lua_sethook(L, NULL, 0, 0);
  if (S->main != L && lua_gethook(S->main) != NULL) lua_sethook(S->main, NULL, 0, 0);
}

void lh_clearstop(lua_State *L) {
  lh_state *S = lh_getstate(L);
  if (S->depth == 0 && atomic_load(&S->stop) != 0) lh_end(L, S);
}

int lh_stop_pending(lua_State *L) { return lh_stopnow(lh_getstate(L)); }

void lh_endstop(lua_State *L) {
  lh_state *S = lh_getstate(L);
  long long budget = S->budget;
  lh_end(L, S);
  S->budget = budget; /* an instruction budget, if any, still runs */
  if (budget >= 0) lh_budget_hook(L);
}

/* ---- Ctrl-C ---- */

static _Atomic(lh_state *) lh_sigint_target;
/* SIGINTs the handler took, and those Lua code raised (lock-free: the handler adds). */
static atomic_uint lh_sigint_count, lh_sigint_heard_count;

static void lh_sigint_heard(void) { atomic_fetch_add(&lh_sigint_heard_count, 1); }

unsigned lh_sigints_unheard(void) {
  unsigned heard = atomic_load(&lh_sigint_heard_count);
  return atomic_load(&lh_sigint_count) - heard;
}

static void lh_sigint_action(int signo) {
  signal(signo, SIG_DFL); /* a second Ctrl-C ends the process */
  atomic_fetch_add(&lh_sigint_count, 1);
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

/* ---- Coroutines: every switch of thread keeps S->running current ---- */

/* Makes `to` the running thread, hooks it if a stop is pending, and returns the thread
 * that ran before. */
static lua_State *lh_switch(lh_state *S, lua_State *to) {
  lua_State *from = atomic_exchange(&S->running, to);
  if (lh_stopnow(S) != LH_STOP_NONE) lh_arm(to);
  else if (S->budget >= 0 && lua_gethook(to) == NULL) lh_rehook(to, S);
  return from;
}

/* Switches back to `from`; a host stop that is pending is raised there at once, so no
 * coroutine function can hand a stop to the script as a plain result. */
static void lh_switchback(lua_State *L, lh_state *S, lua_State *from) {
  atomic_store(&S->running, from);
  int reason = lh_stopnow(S);
  if (reason == LH_STOP_NONE) return;
  lh_arm(from);
  if (reason != LH_STOP_SIGNAL) lh_raise(L, S, reason);
}

static int lh_refuse(lua_State *L, const char *message) {
  lua_pushstring(L, message);
  return -1;
}

/* coroutine.resume and the function coroutine.wrap returns. Pushes the results and
 * returns their number, or pushes the error value and returns -1. Raises pending stops. */
int lh_resumethread(lua_State *L, lua_State *co, int narg) {
  lh_state *S = lh_getstate(L);
  /* Stock's checks, in stock's order (auxresume, then lua_resume): a coroutine with a frame
   * is running or normal before anything else, even with an empty stack (one inside a C
   * function called with no arguments); only then does an empty stack mean dead. */
  if (!lua_checkstack(co, narg)) return lh_refuse(L, "too many arguments to resume");
  int status = lua_status(co);
  if (co == L || (status == LUA_OK && lua_getstack(co, 0, &(lua_Debug){0})))
    return lh_refuse(L, "cannot resume non-suspended coroutine");
  if (status == LUA_OK && lua_gettop(co) == 0) return lh_refuse(L, "cannot resume dead coroutine");
  if (lh_threadmarked(co)) return lh_refuse(L, "cannot resume dead coroutine");
  lua_xmove(L, co, narg);
  lua_State *outer = lh_switch(S, co);
  int nres;
  status = lua_resume(co, L, narg, &nres);
  lh_settle(co, S); /* co may never run again: its step so far is charged */
  /* A stop that lh_switchback raises drops what co yielded (co must not keep it for its
   * next resume). A Ctrl-C is not raised there, so the values go to L as usual: dropping
   * them and moving them still would take nres values from below co's frame. */
  int reason = lh_stopnow(S);
  if (status == LUA_YIELD && reason != LH_STOP_NONE && reason != LH_STOP_SIGNAL) {
    lua_pop(co, nres);
    nres = 0;
  }
  lh_switchback(L, S, outer);
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      return lh_refuse(L, "too many results to resume");
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1); /* the error value */
  return -1;
}

/* Closes co's pending to-be-closed variables, as lua_resetthread does, with co as the
 * running thread so a stop reaches its __close handlers. Callers never pass a marked
 * thread (see the top of the file). Pushes nothing on L; returns the status, with the
 * error value on co's stack. Raises a pending stop in L afterwards. */
static int lh_reset(lua_State *L, lh_state *S, lua_State *co) {
  lua_State *outer = lh_switch(S, co);
  int status = lua_resetthread(co);
  lh_settle(co, S);
  lh_switchback(L, S, outer);
  return status;
}

/* A coroutine the host drives (an action, a timer, a main chunk that waits) is the host's:
 * resumed by the script, it would return values the script chose from an async call. To
 * the script it is never suspended, as a running coroutine is not. */
static int lh_refusedriven(lua_State *L, const char *what) {
  lua_pushboolean(L, 0);
  lua_pushfstring(L, "cannot %s non-suspended coroutine", what);
  return 2;
}

static int lh_coresume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "thread"); /* stock liblua's word */
  if (co != L && lh_threaddriven(co)) return lh_refusedriven(L, "resume");
  int n = lh_resumethread(L, co, lua_gettop(L) - 1);
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
  lh_state *S = lh_getstate(L);
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int n = lh_resumethread(L, co, lua_gettop(L));
  if (n < 0) {
    int stat = lua_status(co);
    /* An error in the coroutine: close it, as coroutine.wrap does, and raise what the
     * closing leaves (the error, or one from a __close handler). A thread the host stopped
     * is not closed (see the top of the file): its own error is raised. */
    if (stat != LUA_OK && stat != LUA_YIELD && !lh_threadmarked(co)) {
      lua_pop(L, 1);
      lh_reset(L, S, co);
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

/* Pushes the main thread. [-0, +1] */
static int lh_pushmainthread(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  return 1;
}

/* Whether co is the thread the script sees running: L itself, or the main thread while L is
 * a coroutine the host drives (see lh_corunning). */
static int lh_seenrunning(lua_State *L, lua_State *co) {
  if (co == L) return 1;
  if (!lh_threaddriven(L)) return 0;
  lh_pushmainthread(L);
  int main = lua_tothread(L, -1) == co;
  lua_pop(L, 1);
  return main;
}

/* coroutine.close, with co as the running thread while its __close handlers run. */
static int lh_coclose(lua_State *L) {
  lh_state *S = lh_getstate(L);
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "thread"); /* stock liblua's word */
  if (lh_seenrunning(L, co)) return luaL_error(L, "cannot close a running coroutine");
  int status = lua_status(co);
  int suspended = status == LUA_YIELD ||
                  (status == LUA_OK && lua_gettop(co) > 0 && !lua_getstack(co, 0, &(lua_Debug){0}));
  int dead = (status != LUA_OK && status != LUA_YIELD) ||
             (status == LUA_OK && lua_gettop(co) == 0 && !lua_getstack(co, 0, &(lua_Debug){0}));
  if (co == L || (!suspended && !dead))
    return luaL_error(L, "cannot close a %s coroutine", co == L ? "running" : "normal");
  if (lh_threaddriven(co)) return luaL_error(L, "cannot close a normal coroutine");
  if (lh_threadmarked(co)) { /* stopped by the host inside a C boundary: see the top */
    lua_pushboolean(L, 0);
    lua_pushliteral(L, "coroutine was stopped by the host; its __close handlers did not run");
    return 2;
  }
  status = lh_reset(L, S, co);
  if (status == LUA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_xmove(co, L, 1);
  return 2;
}

/* The coroutines the host drives (a main chunk that may wait, an action, a timer) are
 * invisible to the script: seen from one, the script runs on the main thread, as under
 * `lua`. `running` gives the main thread and true, `isyieldable` false, the main thread's
 * status is "running", and `yield` raises the main thread's catchable error (async
 * functions yield through lh_async.c, not through these). */
static int lh_corunning(lua_State *L) {
  if (!lh_threaddriven(L)) {
    lua_pushboolean(L, lua_pushthread(L));
    return 2;
  }
  lh_pushmainthread(L);
  lua_pushboolean(L, 1);
  return 2;
}

static int lh_coisyieldable(lua_State *L) {
  lua_State *co = lua_isnone(L, 1) ? L : lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "thread"); /* stock liblua's word */
  lua_pushboolean(L, lua_isyieldable(co) && !lh_threaddriven(co));
  return 1;
}

static int lh_coyield(lua_State *L) {
  if (lh_threaddriven(L)) { /* as liblua raises it: no position */
    lua_pushliteral(L, "attempt to yield from outside a coroutine");
    return lua_error(L);
  }
  return lua_yield(L, lua_gettop(L));
}

static int lh_costatus(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "thread"); /* stock liblua's word */
  if (lh_seenrunning(L, co)) {
    lua_pushliteral(L, "running");
    return 1;
  }
  /* The rest as stock's auxstatus. */
  switch (lua_status(co)) {
    case LUA_YIELD: lua_pushliteral(L, "suspended"); break;
    case LUA_OK: {
      lua_Debug ar;
      if (lua_getstack(co, 0, &ar)) lua_pushliteral(L, "normal");
      else if (lua_gettop(co) == 0) lua_pushliteral(L, "dead");
      else lua_pushliteral(L, "suspended");
      break;
    }
    default: lua_pushliteral(L, "dead"); break;
  }
  return 1;
}

static int lh_trackcoroutines_k(lua_State *L) {
  static const luaL_Reg functions[] = {
    {"resume", lh_coresume}, {"wrap", lh_cowrap}, {"close", lh_coclose},
    {"running", lh_corunning}, {"isyieldable", lh_coisyieldable}, {"yield", lh_coyield},
    {"status", lh_costatus}, {NULL, NULL},
  };
  if (lua_getglobal(L, LUA_COLIBNAME) != LUA_TTABLE) return 0;
  luaL_setfuncs(L, functions, 0);
  return 0;
}

int lh_trackcoroutines(lua_State *L) {
  if (!lua_checkstack(L, 1)) return LH_ERRSTACK;
  lua_pushcfunction(L, lh_trackcoroutines_k);
  return lh_pcall(L, 0, 0);
}
