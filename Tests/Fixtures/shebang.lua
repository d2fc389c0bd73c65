#!/usr/bin/env luahost
print("shebang ok", debug.getinfo(1, "l").currentline)
