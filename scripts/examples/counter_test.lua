-- Tests for the example counter plugin: run with
--   luahost test --plugins scripts/examples/plugins scripts/examples
describe("counter", function()
  test("increments without alerts", function()
    expect.no_alert(function() ui.find("increment"):tap() end)
    expect.eq(ui.find("count").text, "1")
  end)

  test("going below zero alerts at the plugin's own boundary", function()
    expect.alert(function() ui.find("decrement"):tap() end, {
      title = "Error in plugin counter",
      message = "cannot go below zero",
      path = "root/plugins/counter/decrement",
      boundary = "counter",
    })
  end)

  test("storage errors stop at the storage boundary", function()
    local alert = expect.reaches(function() ui.find("save"):tap() end, "storage")
    expect.eq(alert.title, "Storage")
    expect.truthy(alert.message:find("could not save", 1, true))
  end)
end)

describe("the demo app", function()
  test("the crash button reaches the guard", function()
    expect.reaches(function() ui.find("crash"):tap() end, "guard")
  end)

  test("repeats are counted, not stacked", function()
    local alert = expect.alert(function()
      for _ = 1, 3 do ui.find("crash"):tap() end
    end, { title = "Error", count = 3 })
    expect.eq(alert.dismiss, "That sucks")
  end)
end)

describe("error kinds", function()
  test("a hang is a timeout", function()
    expect.error(function() while true do end end, "timeout", { within = 0.2 })
  end)

  test("a syntax error is a syntax error", function()
    expect.error(function() compile("local x = = 1") end, "syntax")
  end)

  test("patterns match error messages", function()
    expect.error(function() error("bad input: 42") end, "bad input: %d+")
  end)

  test("tables are compared deeply", function()
    expect.eq({ 1, { a = "x" } }, { 1, { a = "x" } })
  end)
end)
