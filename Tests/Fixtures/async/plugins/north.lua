timer.sleep(0.9)
print("slept 0.9 s")
