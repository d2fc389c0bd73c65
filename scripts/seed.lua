-- The seed example, in Lua: a deeply buried "Crash" button whose error is caught by the
-- nearest error-handling boundary, which raises "Error" / <message> / "That sucks".
-- Run it with: scripts/run scripts/seed.lua
local content = ui.root:add(ui.stack{ id = "content" })
local handling = content:add(ui.boundary{ id = "error-handling", title = "Error", dismiss = "That sucks" })
local buried = handling:add(ui.stack{ id = "deeply-buried" })

local crash = buried:add(ui.button{
  id = "crash",
  title = "Crash",
  on_tap = function(self)
    -- The seed's bonus form: run throwing work through the environment's handler.
    self.env.error_handler(function() error("MyError()", 0) end)
  end,
})

crash:tap()

local alert = handling.alert
print(("boundary %s shows: %s / %s / %s"):format(handling.path, alert.title, alert.message, alert.dismiss))
print("raised at: " .. alert.path)

-- A sibling boundary is untouched, and a repeat is counted, not stacked.
local sibling = content:add(ui.boundary{ id = "sibling" })
crash:tap()
print(("sibling alert: %s; count at the nearest boundary: %d"):format(tostring(sibling.alert), handling.alert.count))
handling:dismiss()
print("after dismissal: " .. tostring(handling.alert))
