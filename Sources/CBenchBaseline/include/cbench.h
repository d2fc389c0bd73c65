// cbench.h: the raw-C-API baselines of luahost-bench.
//
// Every function here drives Debian's liblua5.4 directly, with nothing of LuaHost in
// between, on a plain luaL_newstate() state. Each runs its operation `n` times and returns a
// checksum, so the compiler cannot drop the work; the Swift side times the call.
#ifndef CBENCH_H
#define CBENCH_H

#include <lua.h>
#include <stdint.h>

/// A state with every standard library open (luaL_newstate + luaL_openlibs).
lua_State *cb_newstate(void);
/// A state with the libraries a sandbox opens (base, coroutine, table, string, math, utf8, os).
lua_State *cb_newstate_safe(void);
void cb_close(lua_State *L);
/// Bytes Lua has allocated in L (lua_gc count).
long long cb_memory(lua_State *L);

/// Runs `code` and keeps its first result in the registry; returns the reference (or -1).
int cb_ref_chunk(lua_State *L, const char *code);
/// Sets the global `add` to a lua_CFunction returning its two integer arguments' sum.
void cb_register_add(lua_State *L);

/// Case 1: push the function at `ref` and two integers, lua_pcall, read the result. n times.
long long cb_call_add(lua_State *L, int ref, long long n);
/// Calls the function at `ref` with no arguments once; returns its integer result.
long long cb_call0(lua_State *L, int ref);
/// Case 3: the function at `ref` raises; lua_pcall with a luaL_traceback message handler.
/// Returns the total length of the tracebacks.
long long cb_error_traceback(lua_State *L, int ref, long long n);

/// Case 4: build a table of `count` integers with lua_rawseti; returns its registry ref.
int cb_array_build(lua_State *L, long long count);
/// Reads the integers 1..count back with lua_rawgeti; returns their sum.
long long cb_array_read(lua_State *L, int ref, long long count);
/// Builds a table of `count` string keys (keys[i] -> i) with lua_setfield; returns its ref.
int cb_dict_build(lua_State *L, const char *const *keys, long long count);
/// Reads every pair back with lua_next (key bytes + integer value); returns a checksum.
long long cb_dict_read(lua_State *L, int ref);
/// Releases a registry reference.
void cb_unref(lua_State *L, int ref);

/// Case 5's baseline: sets the global `button` to a full userdata of two integer fields
/// whose metatable's `__index` is a C function that checks `self` and the key
/// (luaL_checkudata, luaL_checkstring) and switches on the key: the raw-C cost of a
/// property read that is as safe as LuaHost's.
void cb_register_view(lua_State *L, long long depth);

/// Case 5a's baseline: sets the global `button` to a full userdata whose `tap` method (a C
/// function, checking `self`) runs the function at `action_ref` with `self` as a coroutine
/// (one, reused) and returns true: the raw-C cost of a tap whose action may wait.
void cb_register_button(lua_State *L, int action_ref);

/// Bytes in use in the malloc heap (glibc mallinfo2), for per-sandbox memory.
long long cb_heap_bytes(void);

#endif
