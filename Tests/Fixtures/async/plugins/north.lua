timer.sleep(1)
print("slept 1 s")
