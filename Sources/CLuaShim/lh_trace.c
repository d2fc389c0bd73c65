// lh_trace.c: tracebacks recorded cheaply by the message handler of lh_pcall.
#include "lh_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The most modules one frame's search of package.loaded looks in (see lh_loaded_name):
 * the search runs in a message handler, where no hook stops it, and a script may fill
 * package.loaded. Past it the frame keeps the name Lua's code gave it. */
#define LH_NAME_SEARCH 256

/* Writes "module.name" (or "name" for a global, or "module" for a module that is the
 * function itself) to `out`, as luaL_traceback's pushglobalfuncname names a function it
 * finds in package.loaded, if the function at the top of H is loaded[module] or
 * loaded[module][name] for the `name` Lua's code called it by (lua_next's order over
 * package.loaded, as stock's search). Stock searches every key of every module; this
 * looks up the one name, so an error's traceback does not cost a walk of every library
 * per frame (8 times the cost of delivering an error, measured), and names alike unless
 * the function was called by another name than its module's. [-0, +0] */
static int lh_loaded_name(lua_State *H, const char *name, char *out, size_t cap) {
  int function = lua_gettop(H);
  int found = 0, budget = LH_NAME_SEARCH;
  if (lua_getfield(H, LUA_REGISTRYINDEX, LUA_LOADED_TABLE) != LUA_TTABLE) goto done;
  lua_pushstring(H, name); /* interned already: the caller's code holds it */
  lua_pushnil(H);
  while (!found && budget-- > 0 && lua_next(H, -3)) { /* loaded, name, module, value */
    if (lua_type(H, -2) == LUA_TSTRING) {
      const char *module = lua_tostring(H, -2);
      if (lua_rawequal(H, -1, function)) {
        lh_copy(out, cap, module);
        found = 1;
      } else if (lua_type(H, -1) == LUA_TTABLE) {
        lua_pushvalue(H, -3);
        lua_rawget(H, -2);
        if (lua_rawequal(H, -1, function)) {
          if (strcmp(module, LUA_GNAME) == 0) {
            lh_copy(out, cap, name);
          } else {
            snprintf(out, cap, "%s.%s", module, name);
          }
          found = 1;
        }
        lua_pop(H, 1);
      }
    }
    lua_pop(H, 1);
  }
done:
  lua_settop(H, function);
  return found;
}

/* Whether a frame named `namewhat` by Lua's code could be named from package.loaded: a C
 * function by any name (`local insert = table.insert`), a Lua function called as a field,
 * method or global (a module's function); not a Lua local or upvalue (a script's own
 * helper, which is in no module: skipping those keeps a deep error's cost as it was). */
static int lh_may_be_loaded(const lua_Debug *ar) {
  if (ar->name == NULL) return 0;
  if (*ar->what == 'C') return 1;
  return strcmp(ar->namewhat, "field") == 0 || strcmp(ar->namewhat, "method") == 0 ||
         strcmp(ar->namewhat, "global") == 0;
}

/* Records the frame `ar` of L. With H (a thread to push on, which may be L), a function
 * found in package.loaded is named as luaL_traceback names it ("function 'string.rep'"
 * rather than "method 'rep'"); without (the allocator's record of a memory error, which
 * must not touch the stack), by Lua's own name for it. */
static void lh_record(lua_State *L, lua_State *H, lua_Debug *ar, int level, lh_frame *f) {
  lua_getinfo(L, "Slnt", ar);
  f->level = level;
  f->currentline = ar->currentline;
  f->linedefined = ar->linedefined;
  f->istailcall = ar->istailcall;
  lh_copy(f->what, sizeof f->what, ar->what);
  lh_copy(f->namewhat, sizeof f->namewhat, ar->namewhat);
  lh_copy(f->name, sizeof f->name, ar->name);
  lh_copy(f->source, sizeof f->source, ar->short_src);
  if (H != NULL && lh_may_be_loaded(ar) && lua_checkstack(H, 6)) {
    lua_getinfo(H, "f", ar); /* ar is L's frame; the function goes on H */
    char name[sizeof f->name];
    if (lh_loaded_name(H, ar->name, name, sizeof name)) {
      lh_copy(f->name, sizeof f->name, name);
      lh_copy(f->namewhat, sizeof f->namewhat, "global");
    }
    lua_pop(H, 1);
  }
}

/* Number of levels on the stack: exponential then binary search, as lua_getstack is O(level). */
int lh_depth(lua_State *L) {
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

/* Records T's frames from Lua level `first` (recorded as level 1) outwards: the innermost
 * LH_HEADFRAMES and the outermost LH_TAILFRAMES, named with H's help (lh_record; NULL: by
 * Lua's names alone). Without H, only lua_getstack, lua_getinfo("Sln") and C malloc:
 * nothing allocates in Lua or raises, so the allocator may call it (see lh_record_oom).
 * With H, the search of package.loaded only reads (lua_checkstack may grow H's stack).
 * NULL when malloc fails. */
static lh_trace *lh_build_trace(lua_State *T, lua_State *H, int first) {
  lh_trace *t = malloc(sizeof *t);
  if (t == NULL) return NULL;
  t->message = NULL;
  t->message_len = 0;
  t->stop = 0;
  lua_Debug ar;
  int shift = 1 - first;
  int total = lh_depth(T) - 1 + shift;
  t->total = total;
  t->count = 0;
  for (int level = 1; level <= total; level++) {
    if (level > LH_HEADFRAMES && level <= total - LH_TAILFRAMES) level = total - LH_TAILFRAMES + 1;
    if (!lua_getstack(T, level - shift, &ar)) break;
    lh_record(T, H, &ar, level, &t->frames[t->count]);
    /* A thread a stop yielded from a hook stands one instruction back (see lh_shim.h). */
    lh_state *S = lh_getstate(T);
    if (level - shift == 0 && T == S->hook_yielded && lua_status(T) == LUA_YIELD &&
        t->frames[t->count].currentline > 0)
      t->frames[t->count].currentline = S->hook_yield_line;
    t->count++;
  }
  return t;
}

lh_trace *lh_trace_thread(lua_State *T) { return lh_build_trace(T, T, 0); }

/* Message handler: records frames (C malloc, never raises) and returns the error value
 * unchanged, so the original value reaches Swift. Only an error value's own __tostring
 * runs Lua code here (see lh_tostring_now). */
int lh_msgh(lua_State *L) {
  lh_state *S = lh_getstate(L);
  if (S->keep_pending) { /* a main chunk's own handler recorded this error (lh_protect.c) */
    S->keep_pending = 0;
    S->stepped = NULL;
    return 1;
  }
  /* An error a step of a task-driven coroutine raises (lh_async.c) happened in that
   * coroutine: its frames are the ones to record, from its level 0 (no handler there). */
  lua_State *T = L;
  int first = 1;
  if (S->stepped != NULL && L == S->stepping) {
    T = S->stepped;
    S->stepped = NULL;
    first = 0;
  }
  /* A stop raised again as the frames it stopped unwind (a __close handler, or the box of
   * a luaL_Buffer in gsub, closed under the sticky stop) keeps the trace of where it first
   * stopped: the later one shows only the closing frames. */
  int stop = lh_stop_reason(L, 1) != LH_STOP_NONE;
  if (stop && S->pending != NULL && S->pending->stop) return 1;
  lh_trace *t = lh_build_trace(T, L, first);
  if (t != NULL) {
    t->stop = stop;
    lh_tostring_now(L, t);
  }
  lh_trace_free(S->pending);
  S->pending = t;
  return 1;
}

/* A memory error runs no message handler (Lua raises it straight from the allocation), so
 * the allocator calls this when it refuses one under the limit: the frames of the running
 * thread, where the limit was hit, kept until the protected call that fails with it ends
 * (lh_pcallh) and given to it as its trace. The latest refusal wins. */
void lh_record_oom(lh_state *S) {
  lua_State *T = atomic_load(&S->running);
  if (T == NULL) return;
  lh_trace *t = lh_build_trace(T, NULL, 0);
  if (t == NULL) return;
  lh_trace_free(S->oom);
  S->oom = t;
}
