-- Hangs when tapped: the deadline stops it and the alert lands on this plugin.
ui.root:add(ui.button{ id = "spin", on_tap = function() while true do end end })
ui.root:add(ui.button{ id = "hog", on_tap = function() local t = {} for i = 1, 1e9 do t[i] = ("x"):rep(1 << 20) .. i end end })
