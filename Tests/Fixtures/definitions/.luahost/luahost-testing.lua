---@meta _
-- What luahost test adds, for the Lua language server (LuaLS).
-- Generated from the live LuaHost API by luahost definitions (luahost 0.1.0); run it again instead of editing.

---Compiles source as a chunk: a syntax error is raised as one (for expect.error(fn, "syntax")).
---@param source string
---@param name? string
---@return function
function compile(source, name) end

---Groups the tests fn registers: their names start with name.
---@param name string
---@param fn fun()
function describe(name, fn) end

---Assertions: each raises a test failure that says what was expected and what happened.
---@class expect
expect = {}

---Passes when running fn raises exactly one alert matching spec, now or within spec.within seconds (2); returns it.
---@param fn? fun()
---@param spec? { title?: string, message?: string, path?: string, boundary?: string, dismiss?: string, count?: integer, actions?: string[], chain?: string, within?: number }
---@return TestAlert
function expect.alert(fn, spec) end

---Passes when actual equals expected, deeply for tables; the failure lists each differing path.
---@param actual any
---@param expected any
---@param label? string
function expect.eq(actual, expected, label) end

---Passes when fn raises an error matching the pattern, or of a kind: timeout, memory, syntax, instructions, runtime, swift.
---@param fn fun()
---@param wanted? string
---@param options? { within?: number }
---@return any
function expect.error(fn, wanted, options) end

---Passes when running fn raises no alert; with no fn, when no alert is up now.
---@param fn? fun()
---@param options? { within?: number }
function expect.no_alert(fn, options) end

---Passes when the error fn raises stops at that boundary and no other shows an alert; returns the alert.
---@param fn fun()
---@param boundary string
---@return TestAlert
function expect.reaches(fn, boundary) end

---Passes when value is neither nil nor false.
---@param value any
---@param label? string
function expect.truthy(value, label) end

---Registers a test: test(name, fn). Each test runs in a fresh sandbox and app tree.
---@class test
---@overload fun(name: string, fn: fun())
test = {}

---Registers a test that is reported as skipped.
---@param name string
---@param fn? fun()
function test.skip(name, fn) end

---An alert as the test API returns it: with the id of the boundary that shows it.
---@class TestAlert: Alert
---@field boundary string The id of the boundary that shows the alert.
local TestAlert = {}
