test("passes", function() expect.eq(1 + 1, 2) end)

test("wrong message", function()
  expect.alert(function() ui.find("crash"):tap() end, { message = "something else" })
end)

test("no alert at all", function()
  expect.alert(function() end)
end)

test("tables differ", function()
  expect.eq({ a = 1, b = { 2, 3 } }, { a = 1, b = { 2, 4 } })
end)

test("errors outside expectations", function()
  local t = nil
  return t.field
end)

test("hangs", function() while true do end end)

test.skip("not yet", function() error("never runs") end)

describe("group", function()
  test("passes too", function() expect.truthy(ui.root) end)
end)
