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

  /// An action that removed its own view and then waited went on, tracked by a view that
  /// nothing would cancel, and its later error reached no boundary: it vanished. Removing
  /// the view cancels it now; one put back into the tree goes on.
  @Test func anActionThatRemovesItsOwnViewAndWaitsIsCancelled() throws {
    let script = try Luahost.temporaryFile(
      """
      local c = ui.root:add(ui.button{ id = "c", on_tap = function(self)
        self:remove() timer.sleep(0.01) print("c went on") error("lost")
      end })
      local d = ui.root:add(ui.button{ id = "d", on_tap = function(self)
        self:remove() ui.root:add(self) timer.sleep(0.01) print("d went on, back in the tree")
      end })
      local e = ui.root:add(ui.button{ id = "e", on_tap = function(self)
        timer.after(0, function() self:remove() timer.sleep(0.01) print("e's timer went on") end)
      end })
      print(c:tap(), d:tap(), e:tap())
      """)
    let result = try Luahost.run([script])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "true\ttrue\ttrue\nd went on, back in the tree\n", "\(result.stderr)")
  }

  /// `cancel` says whether the timer was still pending: it said true for one that had run.
  @Test func cancelSaysWhetherTheTimerWasStillPending() throws {
    let code = """
      local ran = false
      local h1 = timer.after(0, function() ran = true end)
      local h2
      h2 = timer.after(0, function() print("own", h2:cancel()) timer.sleep(0.01) print("h2 went on") end)
      local h3 = timer.after(3600, function() print("h3 ran") end)
      print("pending", h3:cancel(), h3:cancel())
      while not ran do timer.sleep(0.01) end
      print("after it ran", h1:cancel())
      """
    let result = try Luahost.run(["-e", code])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = Set(result.stdout.split(separator: "\n").map(String.init))
    #expect(
      lines == ["pending\ttrue\tfalse", "own\tfalse", "h2 went on", "after it ran\tfalse"],
      "\(result.stdout)")
  }
}
