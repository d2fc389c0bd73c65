local vals = {nil, 1, 2.5, true, {}, print, coroutine.create(print)}
for i = 1, 7 do pcall(error, vals[i]) end
error(vals[5])
