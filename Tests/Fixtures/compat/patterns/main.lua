-- Linear work on big subjects, as text processing and JSON encoders do.
local words = ("alpha  beta\tgamma\n"):rep(100000) -- about 1.9 MiB
local squeezed, n = words:gsub("%s+", " ")
print("squeezed", #squeezed, n)
local trimmed = ("   " .. ("x"):rep(1 << 20) .. "   "):match("^%s*(.-)%s*$")
print("trimmed", #trimmed)
local function json_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
end
local big = ('quote " and \\ and \n newline '):rep(60000)
print("encoded", #json_string(big))
local count = 0
for word in words:gmatch("%a+") do count = count + 1 end
print("words", count)
print("numeric string init", ("hello world"):find("o", "5"), ("hello world"):match("w.", "7"))
print("gsub with n as string", ("aaaa"):gsub("a", "b", "2"))
print("anchored gmatch treats ^ literally", select("#", ("^a^a"):gmatch("^a")()))
print("balanced", ("(a(b)c)"):match("%b()"), ("THE (quick) fox"):find("%f[%a]%a+", 5))
