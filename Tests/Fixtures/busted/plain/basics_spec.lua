-- A plain busted spec: no host. It gives the same counts under busted and luahost test
-- (4 successes, 2 failures, 1 error, 1 pending).
describe("a stack", function()
  local stack

  before_each(function()
    stack = {}
  end)

  it("starts empty", function()
    assert.are.equal(0, #stack)
  end)

  it("pushes", function()
    table.insert(stack, 1)
    assert.are.same({ 1 }, stack)
  end)

  it("fails on purpose", function()
    assert.is_true(#stack > 0)
  end)

  it("compares tables deeply, and fails", function()
    assert.are.same({ a = 1 }, { a = 2 })
  end)

  it("errors outside an assertion", function()
    error("boom")
  end)

  it("is pending inside", function()
    pending("later")
  end)

  describe("spies", function()
    it("record calls", function()
      local s = spy.new(function() end)
      s(1, "two")
      assert.spy(s).was.called(1)
      assert.spy(s).was.called_with(1, "two")
    end)

    it("stub a table's function", function()
      local t = { f = function() return "real" end }
      local st = stub(t, "f")
      t.f()
      assert.stub(st).was.called()
      st:revert()
      assert.are.equal("real", t.f())
    end)
  end)
end)
