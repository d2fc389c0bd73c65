import Foundation
import TestSupport
import Testing

/// Cancelling one coroutine's work (its view removed, its timer cancelled) stops that
/// coroutine alone: the code that cancelled it, and every other coroutine of the state,
/// goes on.
@Suite(.timeLimit(.minutes(30))) struct CancellationScopeCommandLineTests {
  /// The main chunk removed a button whose action waited, and was itself interrupted.
  @Test func aScriptThatRemovesAViewWithAWaitingActionGoesOn() throws {
    let script = try Luahost.temporaryFile(
      """
      local b = ui.root:add(ui.button{ id = "w", on_tap = function() timer.sleep(3600) end })
      b:tap()
      b:remove()
      local n = 0
      for i = 1, 1e6 do n = n + i end
      print("after remove", n)
      """)
    let result = try Luahost.run([script])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "after remove\t500000500000\n", "\(result.stderr)")
  }

  /// A timer's callback that removes a view with waiting work goes on too, and so does a
  /// waiting coroutine of another view.
  @Test func aTimerThatRemovesAViewWithAWaitingActionGoesOn() throws {
    let code = """
      local a = ui.root:add(ui.button{ id = "a", on_tap = function() timer.sleep(3600) end })
      local went = false
      local b = ui.root:add(ui.button{ id = "b", on_tap = function()
        while not went do timer.sleep(0.01) end
        print("b woke")
      end })
      a:tap() b:tap()
      timer.after(0, function()
        a:remove()
        local n = 0
        for i = 1, 1e6 do n = n + i end
        print("timer went on", n)
        went = true
      end)
      """
    let result = try Luahost.run(["-e", code])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "timer went on\t500000500000\nb woke\n", "\(result.stderr)")
  }
}
