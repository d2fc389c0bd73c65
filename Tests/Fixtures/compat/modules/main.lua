-- package.loaded, package.preload, package.config and package.path, init.lua modules and
-- names with a slash, as libraries and test harnesses use them.
local sep = package.config:sub(1, 1)
print("directory separator", sep, "path has ?", package.path:find("?", 1, true) ~= nil)
package.preload["virtual"] = function(name, extra) return {name = name, extra = extra} end
local v = require("virtual")
print("preload", v.name, v.extra, package.loaded["virtual"] == v)
local lib = require("mylib")
print("init.lua module", lib.greet("world"), package.loaded.mylib == lib)
local helper = require("spec/helper")
print("slash name", helper.value)
-- hot swap: drop from the cache and load again
package.loaded["mylib"] = nil
local again = require("mylib")
print("reloaded is new", again ~= lib, again.loads)
print("string is loaded", package.loaded.string == string)
local ok, err = pcall(require, "no.such.module")
print("missing", ok, (err:match("module 'no.such.module' not found") ~= nil))
