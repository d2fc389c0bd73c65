-- An example plugin: a counter panel with a guarded section.
local count = 0
local display = ui.root:add(ui.text{ id = "count", text = "0" })

ui.root:add(ui.button{ id = "increment", title = "+1", on_tap = function()
  count = count + 1
  display.text = tostring(count)
end })

-- Resetting below zero is a bug the plugin reports as an error.
ui.root:add(ui.button{ id = "decrement", title = "-1", on_tap = function()
  if count == 0 then error("counter cannot go below zero") end
  count = count - 1
  display.text = tostring(count)
end })

-- A guarded section: its own boundary turns storage failures into a friendlier alert.
local storage = ui.root:add(ui.boundary{ id = "storage", title = "Storage", dismiss = "OK",
  on_error = function(err) return "could not save: " .. tostring(err) end })
storage:add(ui.button{ id = "save", title = "Save", on_tap = function()
  error({ code = 507 })
end })
