local t = {}
for i = 1, 100 do t[i] = i * i end
table.sort(t, function(a, b) return a > b end)
return t[1], #t, 'done'
