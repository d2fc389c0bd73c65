-- A pending spec outside any `it` (busted 2.1.1's json handler cannot encode it; the
-- summary line counts it).
describe("later", function()
  pending("is not written yet")
  it("runs", function()
    assert.truthy(true)
  end)
end)
