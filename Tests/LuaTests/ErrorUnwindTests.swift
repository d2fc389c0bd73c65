import Lua
import Testing

/// Errors unwind through the shim's C frames by `longjmp`. Under ThreadSanitizer, a
/// longjmp the sanitizer does not see (liblua's fortified `__longjmp_chk`) left those frames
/// on its shadow stack, which ran past its end after some tens of thousands of errors and
/// crashed the test process at random (see lh_tsan.c). In other builds this is a plain
/// loop of errors that must all be caught.
@Suite(.timeLimit(.minutes(30))) struct ErrorUnwindTests {
  @Test func aHundredThousandErrorsThroughSwiftFunctionsAreAllCaught() throws {
    let lua = try LuaState()
    try lua.register("fail") { (n: Int) throws -> Int in
      throw LuaError(kind: .runtime, message: "failed \(n)")
    }
    let caught = try lua.run(
      """
      local caught = 0
      for i = 1, 100000 do
        local ok, message = pcall(fail, i)
        if not ok and tostring(message):find('failed ' .. i, 1, true) then caught = caught + 1 end
        local co = coroutine.wrap(function() error('in a coroutine') end)
        if not pcall(co) then caught = caught + 1 end
      end
      return caught
      """)
    #expect(caught == [200_000])
  }
}
