-- Healthy: adds a button whose action works, and one whose action fails.
ui.root:add(ui.button{ id = "tick", title = "Tick", on_tap = function(self) self.title = "Tocked" end })
ui.root:add(ui.button{ id = "explode", title = "Explode", on_tap = function() error({ reason = "clock exploded" }) end })
print("clock ready", type(io), type(os.clock))
function on_event(name) return "clock saw " .. name end
