local function r() return 1 + r() end
print(pcall(r))
local function s(...) return s(1, ...) end
s()
