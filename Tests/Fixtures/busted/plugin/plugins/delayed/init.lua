-- A plugin whose button fails later, on a timer: its alert comes after the tap returns.
local status = ui.root:add(ui.text{ id = "status", text = "idle" })
ui.root:add(ui.button{ id = "later", title = "Later", on_tap = function()
  status.text = "waiting"
  timer.after(0.1, function()
    status.text = "done"
    error("the timer failed")
  end)
end })
