-- A script that waits: luahost runs until its timers and its plugins' are done.
print("start")
timer.after(0.2, function() print("a timer, 0.2 s later") end)
timer.sleep(0.1)
print("the main chunk slept 0.1 s")
