-- Hangs when tapped: the deadline stops it and the alert lands on this plugin.
ui.root:add(ui.button{ id = "spin", on_tap = function() while true do end end })
-- Runs out of memory on its first step (8 MiB against the tests' 4 MiB limit), so the memory
-- error comes before the deadline however slow the machine (a TSan run under load lost that race).
ui.root:add(ui.button{ id = "hog", on_tap = function() local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(8 << 20) .. i end end })
