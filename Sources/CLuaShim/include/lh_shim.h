// lh_shim.h: the part of LuaHost that has to be written in C.
//
// Why C at all: lua_error() and every API call that can raise unwind with longjmp.
// A longjmp must never cross a Swift frame, so:
//   * Swift closures called by Lua run under lh_trampoline, return a status, and the
//     trampoline raises once the Swift frames are gone;
//   * every call from Swift that can raise (calls, metamethods) runs under lh_pcall or
//     one of the lh_p* wrappers, which turn a raise into a status code;
//   * the limiting allocator never fails while Swift code is on the stack (see
//     lh_state.enforce), so plain pushes from Swift cannot raise a memory error; what a
//     Swift closure leaves for Lua is checked against the limit once it has returned.
//
// Names: lh_ prefix. Stack effects are given as [-pops, +pushes].
#ifndef LH_SHIM_H
#define LH_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>

/// Status returned by lh_pcall when the stack could not grow for the message handler.
#define LH_ERRSTACK 100

/// Maximum frames recorded per traceback: the first LH_HEADFRAMES and the last LH_TAILFRAMES.
#define LH_HEADFRAMES 10
#define LH_TAILFRAMES 11

/// One recorded call frame.
typedef struct lh_frame {
  int level;
  int currentline;
  int linedefined;
  int istailcall;      /* the frame was entered by a tail call: frames above it are gone */
  char what[8];        /* "Lua", "C", "main" */
  char namewhat[16];   /* "global", "local", "method", "field", "upvalue", "" */
  char name[64];
  char source[LUA_IDSIZE];
} lh_frame;

/// Frames recorded by the message handler; heap-allocated, freed with lh_trace_free.
typedef struct lh_trace {
  int count;       /* frames recorded */
  int total;       /* levels on the stack when the error happened */
  char *message;   /* what __tostring gave for a table error value, or NULL */
  size_t message_len;
  int stop;        /* recorded for a host stop (see lh_msgh) */
  lh_frame frames[LH_HEADFRAMES + LH_TAILFRAMES];
} lh_trace;

/// How many receivers may be lent at once (lh_lend); calls nested deeper retain theirs.
#define LH_LENT_MAX 16

/// Per-state data; each lua_State (and every coroutine) points at it from its extra space.
typedef struct lh_state {
  _Atomic size_t used; /* bytes allocated by Lua right now: written only by the thread that
                        * runs the state (its owner), read from any thread (a charge), so
                        * relaxed loads and stores, never a read-modify-write (lh_alloc) */
  _Atomic size_t external; /* bytes Swift holds for the script (lh_charge), from any thread */
  /* Bytes charged since the collector last heard of them (lh_gc_pressure): Swift memory
   * that Lua values keep counts as an allocation toward the collector's pace. */
  _Atomic size_t gc_pressure;
  atomic_int refs;    /* the state, plus one per Swift memory charge (lh_state_retain) */
  size_t peak;        /* most bytes ever allocated */
  size_t limit;       /* SIZE_MAX: no limit */
  int enforce;        /* limit applies only while set: inside lh_pcall and lh_p* */
  lh_trace *pending;  /* recorded by the message handler of the innermost lh_pcall */
  lh_trace *last;     /* trace of the last failed lh_pcall, until lh_take_trace */
  lh_trace *oom;      /* where the allocator last refused under the limit (lh_record_oom) */
  int depth;          /* lh_pcall nesting; the outermost call ends a stop */
  lua_State *main;    /* the main thread */
  /* Stopping running code (deadline, interrupt, budget). `running` is the thread executing
   * Lua now; `stop` is the reason requested, set from any thread. */
  _Atomic(lua_State *) running;
  /* The stop word: 0, or the reason (low 3 bits) with the `entries` count its requester
   * saw (above them), so that an interrupt requested for an entry that has ended since is
   * known to be stale (lh_stopnow). */
  _Atomic long long stop;
  /* Outermost host entries (lh_pcall, lh_load) begun plus ended: odd while one runs. Only
   * the owner writes it; a stop request reads it. */
  _Atomic long long entries;
  /* The kernel id of the thread that last opened an outermost entry, which a stop request
   * from another thread signals (lh_deliver.c); 0 before the first. */
  _Atomic int tid;
  /* The next state out with an entry open on the same thread (lh_deliver.c), while open. */
  struct lh_state *active_outer;
  long long budget;   /* instructions left for the outermost call; < 0: no budget */
  long long budget_limit; /* budget given to each outermost call; < 0: none */
  void *owner;        /* the Swift object that owns this state (unretained), for releases */
  int warn_on;        /* warnings are printed (`-W`, warn("@on")); off by default */
  int warn_cont;      /* the last warning piece asked to be continued */
  int fin_pending;    /* deferred finalizers are queued (see lh_gc.c) */
  lua_Integer fin_count; /* objects registered for a finalizer so far (their order) */
  lua_State *fin_thread; /* where finalizers run at a safe point (lh_gc.c), or NULL */
  int finalizing;     /* script finalizers are running now (lh_drain_finalizers) */
  lua_Integer fin_next; /* the entry of the drained queue that runs now */
  unsigned signals_taken; /* Ctrl-C stops raised so far (lh_stop.c) */
  lua_State *stepping; /* the thread running lh_step now, and the coroutine it resumes: */
  lua_State *stepped;  /* an error raised from the step is recorded with stepped's frames */
  int keep_pending;    /* the next message handler keeps `pending` (a main chunk's own) */
  /* The thread a stop last yielded from a hook, and the line it was on: Lua steps that
   * thread's saved pc back one instruction as the hook yields, so its traceback would name
   * the line before (lh_trace.c puts this one in its place). */
  lua_State *hook_yielded;
  int hook_yield_line;
  void *warn_sink;     /* where whole warning lines go (lh_setwarnsink), or NULL: stderr */
  char *warn_buf;      /* the warning line being assembled for the sink (malloc'd) */
  size_t warn_len;
  /* The thread Swift code uses now: the main thread, or the thread whose call reached a
   * Swift closure, which lh_dispatchboxed makes current for the call. Owner's thread only. */
  lua_State *current;
  /* Registry slots that Swift dropped wait to be freed (lh_swift_drain): set from any
   * thread (lh_mark_releases), read and cleared on the owner's. */
  atomic_int releases;
  /* The receivers lent to the Swift method and property calls under way, innermost last
   * (lh_lend): Swift uses each without retaining it, so its box's release (the collector's
   * __gc, or one called by hand through the debug library) waits until no call has it lent
   * (lh_swift_release). Owner's thread only; the calls nest, so a stack. */
  void *lent[LH_LENT_MAX];
  int lent_count;
  int lent_released; /* a release of a lent receiver waits for the lendings to end */
} lh_state;

/// Lends `object` (a box's Swift object) to the call about to run: 0 when the stack of
/// lendings is full (the caller then retains it instead). End it with lh_unlend.
static inline int lh_lend(lh_state *S, void *object) {
  if (S->lent_count == LH_LENT_MAX) return 0;
  S->lent[S->lent_count++] = object;
  return 1;
}
/// Ends the innermost lending; nonzero when it was the last and releases wait for it
/// (the caller then runs them: lh_swift_release_lent).
static inline int lh_unlend(lh_state *S) {
  return --S->lent_count == 0 && S->lent_released;
}
/// Whether a call under way has `object` lent (lh_lend).
int lh_islent(lh_state *S, void *object);

/// Says that registry slots wait to be freed. Any thread; the caller queued them first.
static inline void lh_mark_releases(lh_state *S) {
  atomic_store_explicit(&S->releases, 1, memory_order_release);
}
/// Whether registry slots wait to be freed (the owner's thread).
static inline int lh_has_releases(lh_state *S) {
  return atomic_load_explicit(&S->releases, memory_order_relaxed);
}
/// Forgets the mark, before the owner takes the queued slots: a slot queued after the take
/// marks again.
static inline void lh_clear_releases(lh_state *S) {
  atomic_store_explicit(&S->releases, 0, memory_order_relaxed);
}

/// Why running code was stopped. The error value raised is a light userdata pointing at
/// lh_stop_markers[reason], so the host can tell a stop from any script error.
/// LH_STOP_SIGNAL is the exception: it raises the catchable string "interrupted!" once, as
/// the `lua` interpreter does on Ctrl-C, and is not sticky.
enum {
  LH_STOP_NONE = 0, LH_STOP_TIMEOUT = 1, LH_STOP_INTERRUPT = 2, LH_STOP_BUDGET = 3,
  LH_STOP_SIGNAL = 4
};
extern const char lh_stop_markers[4];

/// Asks the running code of S to stop with `reason` (a LH_STOP_* value). Callable from any
/// thread and from a signal handler: it only stores atomics and calls lua_sethook, which
/// Lua documents as safe to call asynchronously. The stop is sticky: it is raised again
/// after every instruction until the outermost lh_pcall returns, so pcall cannot swallow it.
/// An interrupt (LH_STOP_INTERRUPT, LH_STOP_SIGNAL) reaches only the outermost entry that
/// runs as it is requested: with none running it does nothing, and one that lands after
/// that entry ended is dropped, so it never stops a later one. Deadlines and budgets are
/// not scoped so: their owners clear them (lh_clearstop). Returns 0 for an interrupt with
/// nothing running, which it drops, else 1.
int lh_request_stop(lh_state *S, int reason);
/// lh_request_stop as if its requester had read S->entries as `entries`: for tests, which
/// cannot otherwise land a request just after the entry it was meant for has ended.
int lh_request_stop_seen(lh_state *S, int reason, long long entries);
/// lh_request_stop for a stop that its requester ends itself, with lh_clearstop once the
/// run it stops is over, whatever entry runs meanwhile: the cancellation of a task that
/// drives a coroutine, whose steps are entries of their own.
void lh_request_stop_sticky(lh_state *S, int reason);
/// S->entries now: odd while an outermost entry runs (for tests).
static inline long long lh_entries(lh_state *S) {
  return atomic_load_explicit(&S->entries, memory_order_relaxed);
}
/// The address of lh_stop_markers[reason] (Swift cannot take a C array's address).
const void *lh_stop_marker(int reason);
/// The stop reason carried by the error value at idx, or LH_STOP_NONE. [-0, +0]
int lh_stop_reason(lua_State *L, int idx);
/// Forgets a stop requested after the outermost call returned (a deadline that passed just
/// as the call ended) and removes its hooks. [-0, +0]
void lh_clearstop(lua_State *L);
/// The stop pending in L's state now (LH_STOP_NONE: none). On the owner's thread. [-0, +0]
int lh_stop_pending(lua_State *L);
/// For a Swift function that Lua called and that loops over data a script controls:
/// charges `steps` to the instruction budget, as the sandbox's C loops do (lh_poll), and
/// returns the stop pending now (LH_STOP_NONE: none) without raising it. The Swift function
/// then fails, and its trampoline raises the stop (lh_raiseswifterror). On the owner's
/// thread. [-0, +0]
int lh_poll_pending(lua_State *L, long long steps);
/// Ends a stop now, whatever the depth: for a nested call that had a deadline of its own
/// which has passed, while the outer call's has not. [-0, +0]
void lh_endstop(lua_State *L);
/// Sets the instruction budget of each outermost call (< 0: none). A count hook costs on
/// every instruction, so it is installed only while a budget is set.
void lh_setbudget(lua_State *L, long long instructions);
/// A nested call with a budget of its own (a test checking that something runs out):
/// gives it a fresh budget and returns the caller's remaining one, for lh_budget_pop.
long long lh_budget_push(lua_State *L);
void lh_budget_pop(lua_State *L, long long saved);
/// Replaces coroutine.resume and coroutine.wrap (when the library is open) with versions
/// that track the running thread, so a stop reaches a loop inside a coroutine. [-0, +0]
int lh_trackcoroutines(lua_State *L);

/// Sends L's warnings, one whole line at a time ("Lua warning: …", at most LH_WARN_MAX
/// bytes), to the Swift sink `sink` (lh_swift_warnline) instead of stderr, so a host can
/// label them as it labels `print`. NULL: stderr again. [-0, +0]
void lh_setwarnsink(lua_State *L, void *sink);
enum { LH_WARN_MAX = 4096 };

/// Charges `bytes` that Swift keeps on the script's behalf (view titles, alert messages…)
/// to S's memory limit (plus `headroom` bytes of overdraft). Returns 0, charging nothing,
/// if they do not fit. Any thread.
int lh_charge(lh_state *S, size_t bytes, size_t headroom);
/// Whether `grow` more bytes fit under S's limit, counting Lua's memory and the charges.
/// Inline: the allocator asks on every allocation under the limit, and a call from Lua to
/// Swift as it returns (lh_dispatchboxed).
static inline int lh_fits(lh_state *S, size_t grow) {
  size_t in_use = atomic_load_explicit(&S->used, memory_order_relaxed) +
                  atomic_load_explicit(&S->external, memory_order_relaxed);
  return in_use <= S->limit && grow <= S->limit - in_use;
}
/// Gives back bytes charged with lh_charge. Any thread.
void lh_uncharge(lh_state *S, size_t bytes);
/// Whether enough has been charged since the collector last heard of it (lh_gc_pressure) to
/// tell it now: a Swift function returning to Lua asks (lh_dispatch). Inline: one load.
static inline int lh_has_gc_pressure(lh_state *S) {
  return atomic_load_explicit(&S->gc_pressure, memory_order_relaxed) >= 1024;
}
/// Tells S's collector of the bytes charged since it last heard, as allocations of that
/// size: without it, a script whose values keep mostly Swift memory (a timer handle, whose
/// task and closures Swift holds, is 40 bytes in Lua) is collected at the pace of its Lua
/// bytes alone, and its garbage holds many times that in Swift until the memory limit
/// forces a collection. Not while the collector is stopped (`collectgarbage("stop")`, a
/// finalizer running, the state closing). On L, the running thread. [-0, +0]
void lh_gc_pressure(lua_State *L, lh_state *S);
/// Bytes in use: Lua's allocations plus Swift's charges.
size_t lh_memory_in_use(lh_state *S);
/// Keeps S's memory (not the Lua state) alive for a charge that may outlive lh_close.
void lh_state_retain(lh_state *S);
void lh_state_release(lh_state *S);

/// Installs the sandbox's own versions of liblua functions over the originals in the
/// state's libraries, and nothing else of the sandbox (for the differential test, which
/// compares them with stock): string.rep, find, match, gmatch, gsub; table.concat, insert,
/// remove, move, sort; os.date; load and collectgarbage. Each behaves as liblua's and polls
/// for stops in its loops (lh_lib.c, lh_strlib.c, lh_load.c, lh_gc.c). Returns a Lua
/// status, with the error value pushed on failure. Never raises.
int lh_installreplacements(lua_State *L);

/// Pushes the print writer a sandbox uses when its host gives none (each line to stdout,
/// through lh_writeline), or the module reader of a sandbox without a folder (it returns
/// nil). [-0, +1]; the caller has made room.
void lh_pushstdoutwriter(lua_State *L);
void lh_pushnomodulereader(lua_State *L);

/// Applies the sandbox's policy to a fresh state (lh_sandbox.c): below the top are the print
/// writer (takes one line), the module reader (a path to the file's text, or nil) and
/// package.path; the LH_SANDBOX_* bits keep the full os, package or debug library. Pops the
/// three. Returns a Lua status, with the error value pushed on failure. Never raises.
int lh_applysandbox(lua_State *L, unsigned flags);

enum { LH_SANDBOX_OS = 1 << 0, LH_SANDBOX_PACKAGE = 1 << 1, LH_SANDBOX_DEBUG = 1 << 2 };

/// Finalizes every object registered for a deferred finalizer, as lua_close would, and runs
/// them (lh_gc.c). Call under a deadline, before lh_close. Returns a Lua status (the error
/// value is popped). Never raises.
int lh_finalize_all(lua_State *L);
/// Whether any object was ever registered for a deferred finalizer. [-0, +0]
int lh_uses_finalizers(lua_State *L);

/// Creates a state with the limiting allocator. NULL when out of memory.
lua_State *lh_newstate(size_t limit);
/// Closes a state made by lh_newstate and frees its lh_state.
void lh_close(lua_State *L);
/// The per-state data of L (or of the state L is a coroutine of): a pointer in the thread's
/// extra space, whose three low bits are flags (see lh_markdriven). Inline, because every
/// call between Swift and Lua reads it.
static inline lh_state *lh_getstate(lua_State *L) {
  return (lh_state *)(*(uintptr_t *)lua_getextraspace(L) & ~(uintptr_t)7);
}
/// Takes ownership of the trace of the last failed lh_pcall (NULL if none).
lh_trace *lh_take_trace(lua_State *L);
void lh_trace_free(lh_trace *t);
/// The frames of T, a suspended coroutine, from its level 0 (NULL if malloc fails): where a
/// coroutine waits. Calls nothing in Lua but lua_getstack and lua_getinfo.
lh_trace *lh_trace_thread(lua_State *T);

/// Calls the function below nargs arguments, like lua_pcall, with a message handler that
/// records the frames cheaply (no luaL_traceback). [-(nargs+1), +(nresults|1)]. Never raises.
int lh_pcall(lua_State *L, int nargs, int nresults);
/// The fast path of lh_pcall for a caller that pushed lh_pushmsgh's handler before the
/// function: [-(nargs+1), +(nresults|1)], the handler stays below the results. Never raises.
int lh_pcallh(lua_State *L, int nargs, int nresults);
/// Pushes the message handler lh_pcall uses (records frames; see lh_pcallh). [-0, +1]
void lh_pushmsgh(lua_State *L);
/// Makes room for `room` values, then pushes lh_pushmsgh's handler and the registry's
/// value `ref` (the function to call with lh_pcallh). Returns the top before them, or -1
/// (nothing pushed) when the stack cannot grow. [-0, +2]
int lh_begincall(lua_State *L, int ref, int room);
/// Loads a chunk (mode "t", "b" or "bt"), with the memory limit enforced, handing the
/// source to the parser in pieces so that a stop reaches it. [-0, +1]. Never raises.
int lh_load(lua_State *L, const char *buf, size_t len, const char *chunkname, const char *mode);
/// Pushes a C function that calls its first argument with the rest, returning all results:
/// the C frame lua.c puts below a script's main chunk. [-0, +1]
void lh_pushcallmain(lua_State *L);
/// Opens the libraries named by the LH_LIB_* bits. [-0, +0|1 error]. Never raises.
int lh_openlibs(lua_State *L, unsigned mask);

enum {
  LH_LIB_BASE = 1 << 0, LH_LIB_PACKAGE = 1 << 1, LH_LIB_COROUTINE = 1 << 2,
  LH_LIB_TABLE = 1 << 3, LH_LIB_IO = 1 << 4, LH_LIB_OS = 1 << 5, LH_LIB_STRING = 1 << 6,
  LH_LIB_MATH = 1 << 7, LH_LIB_UTF8 = 1 << 8, LH_LIB_DEBUG = 1 << 9,
  /* Not a library: sets LUA_NOENV first, so `package` ignores LUA_PATH and LUA_CPATH (-E). */
  LH_OPEN_NOENV = 1 << 30
};

/// "Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio" (string macros do not reach Swift).
const char *lh_copyright(void);
/// Turns warnings on or off, as `-W` and `warn("@on")` do. [-0,+0]
void lh_setwarnings(lua_State *L, int on);

/// While armed, SIGINT stops the code running in L's state as `lua` does: the first one
/// raises "interrupted!" (catchable) and puts back the default action, so a second one ends
/// the process. Must be C: the handler runs in signal context. One state at a time.
void lh_sigint_arm(lua_State *L);
/// Puts back the default action for SIGINT.
void lh_sigint_disarm(void);
/// How many SIGINTs the armed handler took that Lua code never raised: they came while none
/// ran (a script waiting for an async function), or as the entry that would have raised
/// one ended. They stopped nothing; their host sees them here.
unsigned lh_sigints_unheard(void);

/// Writes len bytes and a newline to C's stdout, the stream `print` uses (Swift 6 cannot
/// read the global `stdout`).
void lh_writeline(const char *s, size_t len);

/// Switches the collector to generational mode, as lua.c does for scripts. [-0,+0]
void lh_setgenerational(lua_State *L);
/// Runs a full garbage collection (lua_gc is variadic, which Swift cannot call). [-0,+0]
void lh_collectgarbage(lua_State *L);
/// Stops (pause != 0) or restarts the collector, for the span in which a state is set up.
void lh_pausecollector(lua_State *L, int pause);

/// Protected metamethod-aware operations: each returns a Lua status; on error the error
/// value is on top instead of the result.
int lh_pgettable(lua_State *L, int idx);        /* [-1 key, +1 value] */
int lh_psettable(lua_State *L, int idx);        /* [-2 key value, +0] */
int lh_pcompare(lua_State *L, int a, int b, int op, int *result); /* [-0, +0|1 error] */
int lh_ptostring(lua_State *L, int idx);        /* [-0, +1 string] (luaL_tolstring) */
int lh_plen(lua_State *L, int idx);             /* [-0, +1 length] */
int lh_pconcat(lua_State *L, int n);            /* [-n, +1] */

/// Pushes a C closure that calls lh_swift_dispatch(L, box) each time Lua calls it.
/// `box` is released through lh_swift_release when Lua collects the closure. [-0, +1].
void lh_pushswiftfunction(lua_State *L, void *box);
/// Replaces the member table at the top with a userdata type's `__index`: a C closure that
/// returns a method found in the table (name → function) itself and calls
/// lh_swift_dispatch(L, box) for any other key, with (self, key, the key's value in the
/// table or nil). [-1, +1]
void lh_pushindexfunction(lua_State *L, void *box);
/// Pushes a full userdata holding `box`, with the metatable at mtindex. [-0, +1].
void lh_pushobject(lua_State *L, void *box, int mtindex);
/// Makes the table at idx an object metatable: sets __gc to release the box. [-0,+0].
void lh_markobjectmetatable(lua_State *L, int idx);
/// The box of an object userdata made by lh_pushobject, or NULL for any other value (a
/// tag in the userdata's block decides, which no script can forge; the metatable does not).
/// Pushes nothing, so it needs no stack room. [-0, +0]
void *lh_toobject(lua_State *L, int idx);

/// Pushes a C closure for an async Swift function (lh_async.c): called in a task-driven
/// coroutine, it has lh_swift_dispatch(L, box) start the operation and suspends the
/// coroutine until Swift resumes it. [-0, +1]
void lh_pushswiftasyncfunction(lua_State *L, void *box);
/// Pushes lh_step, the C function one step of a task-driven coroutine runs in: called
/// (protected) with the coroutine and the values to resume it with (an empty coroutine:
/// the function to start, then its arguments), it returns the
/// coroutine's results and `false` when it finished, or just `true` when it waits for an
/// async function. [-0, +1]
void lh_pushstep(lua_State *L);
/// Pushes a new, empty coroutine marked as task-driven (lh_step starts it with a function
/// given as its first value), and returns it. [-0, +1]
lua_State *lh_pushdriven(lua_State *L);
/// Replaces the function on top of L with a new coroutine that will run it, marked as
/// task-driven, and returns the coroutine. [-1, +1]
lua_State *lh_newdriven(lua_State *L);

/* Implemented in Swift (module Lua, @_cdecl). */
/// Runs the Swift closure in box with the arguments on L's stack. Returns the number of
/// results pushed, or -1 with an error value pushed, which the trampoline raises.
extern int lh_swift_dispatch(lua_State *L, void *box);
/// Releases a box retained for Lua, owned by the state of L.
extern void lh_swift_release(lua_State *L, void *box);
/// Frees, on L, the registry slots that Swift dropped (lh_has_releases), as a Swift
/// closure returns to Lua, with its results or error on the stack, which it leaves. [-0, +0]
extern void lh_swift_drain(lua_State *L);
/// Runs the releases of boxes that waited for their lent objects (lh_unlend). [-0, +0]
extern void lh_swift_release_lent(lua_State *L);

#endif
