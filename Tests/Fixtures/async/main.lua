-- A script that waits: luahost runs until its timers and its plugins' are done.
print("start")
timer.sleep(0.1)
print("the main chunk slept 0.1 s")
timer.after(0.1, function() print("a timer, 0.1 s after that") end)
