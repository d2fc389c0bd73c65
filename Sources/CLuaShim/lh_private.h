// lh_private.h: what the shim's C files share and Swift never calls.
#ifndef LH_PRIVATE_H
#define LH_PRIVATE_H

#include "lh_shim.h"

/* lh_state.c */
/// Marks a coroutine whose hooks Lua has switched off for good (see lh_stop.c). [-0,+0]
void lh_markthread(lua_State *L);
int lh_threadmarked(lua_State *L);
/// The prefix of the host's own chunk names (`=luahost:test`, `=luahost:busted`): the
/// sandbox's `load` refuses it, and the debug slice does not touch those chunks' functions.
#define LH_HOSTCHUNK "=luahost:"
/// Whether the function at idx is a Lua function of a host chunk. [-0, +0]
int lh_hostfunction(lua_State *L, int idx);
/* os.exit, closing the running thread's to-be-closed variables and the deferred finalizers
 * too when asked to close (lh_lib.c). */
int lh_os_exit(lua_State *L);
/* error, counting levels past the sandbox's xpcall handler wrapper (lh_debug.c). */
int lh_error(lua_State *L);

/// Marks a task-driven coroutine, where async functions may be called (lh_async.c).
void lh_markdriven(lua_State *L);
int lh_threaddriven(lua_State *L);
/* Whether L's current budget step was charged before its count ran out (lh_stop.c). */
void lh_setprepaid(lua_State *L, int paid);
int lh_prepaid(lua_State *L);

/* lh_box.c */
/// Runs the Swift closure boxed in upvalue 1 of the running C closure (lh_swift_dispatch),
/// with the memory limit off while Swift runs. Returns its result: the number of results,
/// or -1 with the error value pushed, for the caller to raise.
int lh_dispatchboxed(lua_State *L);
/// The `count` values on top, which Swift pushed with the limit off (a Swift function's
/// results or error value, an async function's), are over S's memory limit: unless they fit
/// once Lua has collected, drops them and raises the memory error a refused allocation
/// raises (LUA_ERRMEM). Cold; see lh_checkresults.
void lh_refuse_results(lua_State *L, int count);
/// Checks the `count` values on top that Swift pushed with the limit off against S's limit,
/// where the limit applies (inside a protected call). Unlimited states pay one comparison.
static inline void lh_checkresults(lua_State *L, lh_state *S, int count) {
  if (S->enforce && S->limit != SIZE_MAX && !lh_fits(S, 0)) lh_refuse_results(L, count);
}

/* lh_trace.c */
/// The number of levels on L's stack (lua_getstack succeeds below it), by binary search.
int lh_depth(lua_State *L);
/// The message handler of lh_pcall: records frames, returns the error value unchanged.
int lh_msgh(lua_State *L);

/* lh_stop.c */
/// Hooks L so that it raises (or yields, in a coroutine) the pending stop at once.
void lh_arm(lua_State *L);
/// The reason of the stop word `word` (not 0), or LH_STOP_NONE for a stale interrupt,
/// which it also clears (lh_stop.c).
int lh_stopslow(lh_state *S, long long word);
/// The stop pending now: its reason, or LH_STOP_NONE. Free when none is: one load.
static inline int lh_stopnow(lh_state *S) {
  long long word = atomic_load(&S->stop);
  return word == 0 ? LH_STOP_NONE : lh_stopslow(S, word);
}
/// An outermost host entry begins or ends (S->entries turns odd or even). Only the owner
/// writes the count, so a load and a store do, with no read-modify-write.
static inline void lh_turn(lh_state *S) {
  long long entries = atomic_load_explicit(&S->entries, memory_order_relaxed);
  atomic_store_explicit(&S->entries, entries + 1, memory_order_relaxed);
}
/// The outermost call starts: arms the budget, if any.
void lh_begin(lua_State *L, lh_state *S);
/// The outermost call has returned: the stop, if any, is over.
void lh_end(lua_State *L, lh_state *S);

/* lh_deliver.c */
/* LH_TSAN_BUILD: a build for ThreadSanitizer (it also compiles lh_tsan.c). */
#if defined(__SANITIZE_THREAD__)
#define LH_TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LH_TSAN_BUILD 1
#endif
#endif
#ifndef LH_TSAN_BUILD
#define LH_TSAN_BUILD 0
#endif
/* Under ThreadSanitizer a signal from another thread waits until the receiving thread makes
 * an intercepted call, which a loop inside liblua never does, and SIGSYS, which it delivers
 * at once, lands inside its own runtime as well (it crashed there). So a build for it sends
 * no signal: every outermost call polls the stop word with the budget's count hook instead,
 * as if it had a budget without end (lh_begin). */
#define LH_POLLS_FOR_STOPS LH_TSAN_BUILD
/// Installs the handler that takes stops sent from other threads (once per process).
void lh_deliver_init(void);
/// Hooks the thread running S for a stop just requested: here, if S runs on this thread,
/// else by a signal to the thread that does. Any thread, and a signal handler.
void lh_deliver(lh_state *S);
/* This thread's open outermost entries, innermost first (through active_outer), and its
 * kernel thread id once known (0 before). Defined in lh_deliver.c; inline here because every
 * outermost call opens and closes an entry. */
extern __thread lh_state *lh_active __attribute__((tls_model("initial-exec")));
extern __thread int lh_own_tid __attribute__((tls_model("initial-exec")));
/// This thread's first entry: learns its id and unblocks the signal (lh_deliver.c).
int lh_first_entry_here(void);
/// S opens an outermost entry on this thread: a stop from another thread reaches it here
/// from now on. Returns whether a stop word was already set.
static inline int lh_enter_stop(lh_state *S) {
  S->active_outer = lh_active;
  lh_active = S;
  atomic_signal_fence(memory_order_seq_cst); /* the handler sees the list as it is now */
  int tid = lh_own_tid;
  if (__builtin_expect(tid == 0, 0)) tid = lh_first_entry_here();
  if (atomic_load_explicit(&S->tid, memory_order_relaxed) != tid) {
    atomic_store(&S->tid, tid); /* sequentially consistent: see lh_deliver.c */
    return atomic_load(&S->stop) != 0;
  }
  return atomic_load_explicit(&S->stop, memory_order_relaxed) != 0;
}
/// The entry lh_enter_stop opened is closed.
static inline void lh_leave_stop(lh_state *S) {
  atomic_signal_fence(memory_order_seq_cst);
  lh_active = S->active_outer;
}

/// An outermost host entry (a call, a load) begins: the count turns odd, so an interrupt
/// requested from now on is this entry's. Returns whether a stop was requested before the
/// entry could be signalled (see lh_deliver.c), for the caller to hook its thread.
static inline int lh_enter(lh_state *S) {
  int pending = lh_enter_stop(S);
  lh_turn(S);
  return pending;
}
/// An outermost host entry (a call, a load) ends: the count turns even before the stop is
/// cleared, so no interrupt meant for the entry lands after the clearing.
static inline void lh_leave(lua_State *L, lh_state *S) {
  lh_turn(S);
  lh_end(L, S);
  lh_leave_stop(S);
}
/// For C loops that a script controls: charges `steps` to the instruction budget and
/// raises the pending stop, if any. [-0, +0]; raises. Call only from a lua_CFunction (or a
/// lua_Reader), where no Swift frame lies between here and the enclosing protected call.
void lh_poll(lua_State *L, long long steps);
/// Raises the error value a Swift closure left on top, or the stop pending now if there is
/// one (lh_box.c). For the C functions that run a Swift closure, after it returned. Raises.
int lh_raiseswifterror(lua_State *L);

/// Resumes co with narg values from L's top, as coroutine.resume does, keeping `running`
/// current and raising a pending stop in L: pushes the results and returns their number,
/// or pushes the error value and returns -1.
int lh_resumethread(lua_State *L, lua_State *co, int narg);

/* lh_load.c */
/// The sandbox's load (text only). A lua_CFunction.
int lh_sbload(lua_State *L);
/// lua_load with the source handed over in pieces, polling in between. [-0, +1]
/* Skips what luaL_loadfilex skips at the start of a file: a UTF-8 byte order mark, then a
 * first line starting with '#' (up to its newline, which stays, so line numbers do, unless
 * bytecode follows). */
void lh_skipprefix(const char **source, size_t *size);
int lh_loadpieces(lua_State *L, const char *buf, size_t len, const char *chunkname,
                  const char *mode);

/* lh_lib.c */
/// Installs the sandbox's versions of liblua functions over the originals, in the
/// libraries of the global table at G: string.rep, find, match, gmatch, gsub; table.concat,
/// insert, remove, move, sort; os.date; load and collectgarbage. Each behaves as liblua's
/// and checks for stops as it works; those that wrap the original (sort, os.date,
/// collectgarbage) take it as their upvalue. [-0, +0]; raises on memory errors.
void lh_setreplacements(lua_State *L, int G);
/// For such a wrapper: calls the original (below its nargs arguments) as lua_call does,
/// but an error the original raises itself is raised again from the wrapper, as stock's
/// function raised it ("bad argument #1 to 'date'", the script's position). Only for
/// originals that run no script code and raise only with luaL_error and luaL_argerror
/// (os.date, collectgarbage). Returns the number of results. [-(nargs+1), +nresults]
int lh_call_wrapped(lua_State *L, int nargs, int nresults);

/* lh_base.c */
/// The message handler the sandbox's xpcall puts around the script's handler.
int lh_xpcall_handler(lua_State *L);
/// Sets the sandbox's xpcall and setmetatable, print (writing through the function at
/// writer) and, unless package is 0, require (over the package table at package and the
/// module reader at reader) in the table at G. [-0, +0]; raises on memory errors.
void lh_setbasefuncs(lua_State *L, int G, int writer, int package, int reader);

/* lh_gc.c */
/// Registers the object at idx for a deferred finalizer (its metatable's __gc, read when
/// it is finalized). mt_cache and registered_cache are slots (upvalues of the caller) that
/// hold the sentinels' metatable and the table of registered objects, or nil until this
/// fills them. [-0, +0]; raises on memory errors.
void lh_register_finalizer(lua_State *L, int idx, int mt_cache, int registered_cache);
/// Runs the queued finalizers. [-0, +0]; raises only stops.
int lh_drain_finalizers(lua_State *L);
/// For os.exit inside a finalizer: the finalizers queued after it go back to the queue,
/// for the close to run. [-0, +0]
void lh_requeue_draining(lua_State *L);
/// Records where the allocator refused an allocation under the limit (lh_trace.c).
void lh_record_oom(lh_state *S);
/// From a hook of L with no stop pending: runs the queued finalizers in a thread of their
/// own, whose hooks work (lh_gc.c). Returns the stop reason pending afterwards, or
/// LH_STOP_SIGNAL when a Ctrl-C interrupted a finalizer.
int lh_finalize_at_safe_point(lua_State *L);
/// Gives L the budget's count hook (lh_stop.c).
void lh_budget_hook(lua_State *L);
/// Ends L's budget step early: charges it in full unless it was paid (lh_stop.c).
void lh_settle(lua_State *L, lh_state *S);
/// The sandbox's collectgarbage: upvalue 1 is liblua's.
int lh_sbcollectgarbage(lua_State *L);

/* lh_debug.c */
/// Pushes the sandbox's `debug`: traceback, getinfo, upvalueid and upvaluejoin. [-0, +1]
void lh_newdebuglib(lua_State *L);

/* lh_strlib.c */
/// Sets find, match, gmatch and gsub in the table on top. [-0, +0]
void lh_pushmatchlib(lua_State *L);

#endif
