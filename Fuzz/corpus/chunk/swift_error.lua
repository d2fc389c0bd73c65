local ok, e = pcall(host_fail, 7)
assert(not ok)
print(tostring(e))
host_fail(8)
