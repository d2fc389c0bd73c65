local s = ('a'):rep(100)
print(s:find('(a+)(b?)'), s:gsub('a', '%%0%%0'), ('%q'):format('\0\1'), utf8.char(0x10FFFF), #tostring(1e308))
return s:byte(1, -1)
