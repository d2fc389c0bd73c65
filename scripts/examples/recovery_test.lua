-- Recovery paths end to end: "Try again", a script's own actions, reset. Run with
--   luahost test --plugins scripts/examples/plugins scripts/examples
describe("recovery", function()
  test("try again re-runs the tap until it works", function()
    local attempts = 0
    local saver = ui.root:add(ui.boundary{ id = "saver", retry = true })
    local save = saver:add(ui.button{ id = "save", on_tap = function()
      attempts = attempts + 1
      if attempts < 3 then error("disk busy", 0) end
    end })
    local alert = expect.alert(function() save:tap() end,
      { message = "disk busy", actions = { "Try again", "That sucks" }, chain = "saver presented" })
    alert = expect.alert(function() alert:choose("Try again") end, { count = 2 })
    alert:choose("Try again")
    expect.no_alert()
    expect.eq(attempts, 3)
  end)

  test("an error's own action runs when chosen", function()
    local freed = false
    local disk = ui.root:add(ui.boundary{ id = "disk" })
    local write = disk:add(ui.button{ id = "write", on_tap = function()
      error(ui.error{ title = "Cannot save", message = "disk full",
        actions = { { "Free space", function() freed = true end } } })
    end })
    local alert = expect.alert(function() write:tap() end,
      { title = "Cannot save", actions = { "Free space", "That sucks" } })
    expect.eq(alert:choose("Free space"), "recovered")
    expect.truthy(freed, "free_space ran")
    expect.no_alert()
  end)

  test("reset rebuilds the boundary's subtree", function()
    local panel = ui.root:add(ui.boundary{ id = "panel", on_reset = function()
      return ui.text{ id = "fresh", text = "started over" }
    end })
    local stale = panel:add(ui.button{ id = "stale", on_tap = function() error("stale state") end })
    local alert = expect.alert(function() stale:tap() end, { actions = { "Reset", "That sucks" } })
    expect.eq(alert:choose("Reset"), "reset")
    expect.eq(ui.find("fresh").text, "started over")
    expect.eq(ui.find("stale"), nil)
  end)
end)
