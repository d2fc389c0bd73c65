#!/usr/bin/lua
return "shebang module"
