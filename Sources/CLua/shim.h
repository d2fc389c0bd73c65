// Umbrella header for Debian's Lua 5.4 headers (found via pkg-config "lua5.4").
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
