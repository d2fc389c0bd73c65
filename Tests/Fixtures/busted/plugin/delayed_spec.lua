-- A busted spec that waits for a plugin's timer.
local luahost = require("luahost")
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."

describe("the delayed plugin", function()
  before_each(function()
    luahost.reset()
    luahost.load_plugin(here .. "/plugins/delayed")
  end)

  it("alerts at its panel once its timer fires", function()
    luahost.ui.find("later"):tap()
    -- (no check of the text "waiting" here: the timer runs on the plugin's own thread, and
    -- a stall of this spec's longer than its 0.1 s may let it run before the next line)
    assert.alerted_at("delayed", "the timer failed")
    assert.are.equal("done", luahost.ui.find("status").text)
  end)

  it("settles: the timer has run", function()
    local tap = spy.new(function() luahost.ui.find("later"):tap() end)
    tap()
    luahost.settle()
    assert.spy(tap).was.called(1)
    assert.are.equal("done", luahost.ui.find("status").text)
  end)
end)
