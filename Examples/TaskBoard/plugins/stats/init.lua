-- A well-behaved plugin: it reads the app's tasks through the `tasks` module it was
-- granted, shows a summary in its own panel, and uses the app's slider component.
local tasks = require "tasks"

local summary = ui.root:add(ui.text{ id = "summary", text = "" })
local function refresh()
  summary.text = tasks.count() .. " open of " .. #tasks.titles()
end

ui.root:add(ui.button{ id = "refresh", title = "Refresh", on_tap = refresh })
ui.root:add(ui.slider{
  id = "zoom", min = 1, max = 3, value = 1,
  on_change = function(self, value) print("zoom is now " .. value) end,
})
refresh()
print("loaded; " .. summary.text)
