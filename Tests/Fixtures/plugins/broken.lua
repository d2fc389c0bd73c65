-- Fails while loading: the error belongs in this plugin's panel only.
local panel = ui.root
panel:add(ui.text{ id = "status", text = "about to fail" })
error("broken plugin could not start")
