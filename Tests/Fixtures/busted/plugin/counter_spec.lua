-- A busted spec that drives the counter plugin (sandboxed) in the host's tree.
local luahost = require("luahost")
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local counter = here .. "/../../../../scripts/examples/plugins/counter"

describe("the counter plugin", function()
  before_each(function()
    luahost.reset()
    luahost.load_plugin(counter)
  end)

  it("increments without alerts", function()
    luahost.ui.find("increment"):tap()
    assert.no_alert()
    assert.are.equal("1", luahost.ui.find("count").text)
  end)

  it("alerts at its panel when it goes below zero", function()
    luahost.ui.find("decrement"):tap()
    assert.alerted_at("counter", "cannot go below zero")
    assert.is_not.alerted_at("storage")
  end)

  it("stops storage errors at the storage boundary", function()
    luahost.ui.find("save"):tap()
    assert.reached("storage")
  end)

  it("fails when the alert is elsewhere", function()
    luahost.ui.find("decrement"):tap()
    assert.alerted_at("storage")
  end)

  it("sees no plugin code from the spec", function()
    -- The plugin stays sandboxed: its globals are not the spec's.
    assert.is_nil(rawget(_G, "count"))
  end)
end)
