local t = {} for i = 1, 1e7 do t[i] = ('x'):rep(100) .. i end
