test("never registered", function() end)
local x = = 1
