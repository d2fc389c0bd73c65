test("registered", function() end)
error("file blew up while loading")
