-- Alerts that offer a way out: run with  luahost scripts/examples/recovery.lua
local attempts = 0
local editor = ui.root:add(ui.boundary{ id = "editor", retry = true,
  on_reset = function() return ui.text{ id = "blank", text = "new document" } end })
local inner = editor:add(ui.boundary{ id = "inner", on_error = function() return false end })
local save = inner:add(ui.button{ id = "save", on_tap = function()
  attempts = attempts + 1
  if attempts < 3 then error("disk busy", 0) end
  print("saved on attempt " .. attempts)
end })

save:tap()                                  -- fails: the alert offers "Try again"
print(editor.alert.chain)                   --> inner declined · editor presented
editor.alert:choose("Try again")            -- fails again: the same alert, ×2
editor.alert:choose("Try again")            -- works

local disk = ui.root:add(ui.boundary{ id = "disk" })
disk:add(ui.button{ id = "write", on_tap = function()
  error(ui.error{ title = "Cannot save", message = "The disk is full.",
    actions = { { "Free space", function() print("freeing space…") end } } })
end }):tap()
print(disk.alert:choose("Free space"))      --> recovered

editor:add(ui.button{ id = "load", on_tap = function() error("corrupt file", 0) end }):tap()
print(editor.alert:choose("Reset"), editor.children[1].text)
