import Lua
import LuaHost
import TestSupport
import Testing
import ViewTree

// Timers run in the order they fall due, and those due at the same time in the order they
// were scheduled: also when they fall due together while the state is busy, and whatever
// order the pool wakes their tasks in (the suite's tree, state and inbox are
// AsyncActionTests').
extension AsyncActionTests {
  /// The order the timers ran in, once all have.
  func order() async throws -> String {
    await tree.pendingWork.idle()
    return try String(luaValue: try #require(try run("return table.concat(ran, ' ')").first))
  }

  @Test func timersDueTogetherRunInTheOrderTheyWereScheduled() async throws {
    try run(
      """
      ran = {}
      for i = 1, 60 do timer.after(0, function() ran[#ran + 1] = i end) end
      """)
    #expect(try await order() == (1...60).map(String.init).joined(separator: " "))
    #expect(inbox.all.isEmpty)
  }

  @Test func timersOfOneDelayRunInTheOrderTheyWereScheduled() async throws {
    // Three delays, interleaved: whatever the machine's speed, each delay's timers fall due
    // in the order they were scheduled (how the three groups mix depends on the speed).
    try run(
      """
      ran = {}
      for i = 1, 90 do timer.after(0.02 * (i % 3), function() ran[#ran + 1] = i end) end
      """)
    let order = try await order().split(separator: " ").compactMap { Int($0) }
    #expect(order.sorted() == Array(1...90))
    for group in 0..<3 {
      let members = order.filter { $0 % 3 == group }
      #expect(members == members.sorted(), "delay \(group): \(members)")
    }
  }

  @Test func luahostRunsTimersOfOneDelayInTheOrderTheyWereScheduled() throws {
    let script = try Luahost.temporaryFile(
      "for i = 1, 90 do timer.after(0.02 * (i % 3), function() print(i) end) end")
    let result = try Luahost.run([script])
    #expect(result.status == 0, "\(result.stderr)")
    let order = result.stdout.split(separator: "\n").compactMap { Int($0) }
    #expect(order.sorted() == Array(1...90))
    for group in 0..<3 {
      let members = order.filter { $0 % 3 == group }
      #expect(members == members.sorted(), "delay \(group): \(members)")
    }
  }

  @Test func timersThatFellDueWhileTheStateWasBusyRunInDueOrder() async throws {
    // `late` is scheduled first but falls due last. The chunk stays busy until all are due,
    // by a clock the test gives it (`now()`, in seconds). It notes bounds on each timer's
    // due time (the clock read before and after `timer.after`), and the verdict is the order
    // those bounds prove: a stall between two lines on a loaded machine may change which
    // timer falls due first, and the test then expects that order.
    let start = ContinuousClock.now
    try tree.withState { lua in
      try lua.register("now") { () -> Double in
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
      }
    }
    let due = try run(
      """
      ran, due = {}, {}
      local function after(name, delay)
        local before = now()
        timer.after(delay, function() ran[#ran + 1] = name end)
        due[#due + 1] = string.format('%s %g %.9f %.9f', name, delay, before + delay, now() + delay)
      end
      after('late', 0.3)
      for i = 1, 30 do after(tostring(i), 0) end
      after('middle', 0.1)
      local last = now() + 0.3
      while now() <= last do end
      return table.concat(due, '\\n')
      """)
    let timers = try String(luaValue: try #require(due.first)).split(separator: "\n").map {
      let fields = $0.split(separator: " ")
      return (
        name: String(fields[0]), delay: Double(fields[1])!, lo: Double(fields[2])!,
        hi: Double(fields[3])!
      )
    }
    let ran = try await order().split(separator: " ").map(String.init)
    #expect(ran.sorted() == timers.map(\.name).sorted(), "\(inbox.all.map(\.alert.message))")
    let position = Dictionary(uniqueKeysWithValues: ran.enumerated().map { ($1, $0) })
    for (index, first) in timers.enumerated() {
      for second in timers[(index + 1)...] {
        guard let a = position[first.name], let b = position[second.name] else { continue }
        // `first` was scheduled before `second`: it runs first when its delay is no longer
        // (its due time is no later), or when it was due before `second`, for certain; it
        // runs second when it was due after `second`, for certain.
        if first.lo > second.hi {
          #expect(a > b, "\(first.name) ran before \(second.name): \(ran)")
        } else if first.delay <= second.delay || first.hi < second.lo {
          #expect(a < b, "\(second.name) ran before \(first.name): \(ran)")
        }
      }
    }
  }

  /// A timer that schedules the next as it runs (a plugin's tick) leaves a handle each
  /// time: a few dozen bytes in Lua, a charged task and closures in Swift. The collector
  /// paces itself by both, so a long chain keeps little (it kept about 1 KB of charges a
  /// tick, until the memory limit forced a collection: hundreds of MB for 100 plugins).
  @Test func aChainOfTimersKeepsLittleMemory() async throws {
    try run(
      """
      n = 0
      local function tick() n = n + 1 if n < 20000 then timer.after(0, tick) end end
      tick()
      """)
    await tree.pendingWork.idle()
    let (ticks, used) = try tree.withState { lua in (try lua.run("return n"), lua.memoryInUse) }
    #expect(ticks == [20000])
    #expect(used < 512 << 10, "\(used) bytes in use after 20,000 ticks")
  }

  @Test func aTimerScheduledByATimerRunsAfterThoseAlreadyDue() async throws {
    try run(
      """
      ran = {}
      timer.after(0, function()
        ran[#ran + 1] = 'a'
        timer.after(0, function() ran[#ran + 1] = 'c' end)
      end)
      timer.after(0, function() ran[#ran + 1] = 'b' end)
      local stop = os.clock() + 0.05
      while os.clock() < stop do end
      """)
    #expect(try await order() == "a b c")
  }

  @Test func cancelledTimersAndTimersOfRemovedViewsDoNotRun() async throws {
    try run(
      """
      ran = {}
      local panel = ui.root:add(ui.stack{ id = 'panel' })
      local kept = ui.root:add(ui.button{ id = 'kept', on_tap = function()
        for i = 1, 20 do
          local handle = timer.after(0, function() ran[#ran + 1] = 'kept' .. i end)
          if i % 2 == 0 then handle:cancel() end
        end
      end })
      panel:add(ui.button{ id = 'doomed', on_tap = function()
        for i = 1, 20 do timer.after(0, function() ran[#ran + 1] = 'doomed' .. i end) end
      end })
      ui.find('doomed'):tap()
      kept:tap()
      panel:remove()
      local stop = os.clock() + 0.05
      while os.clock() < stop do end
      """)
    let odd = stride(from: 1, through: 19, by: 2).map { "kept\($0)" }
    let ran = try await order()
    #expect(ran == odd.joined(separator: " "), "ran: \(ran)")
  }

  @Test func manyTimersScheduledAndCancelledAllEnd() async throws {
    // Cancelled keys wait in the queue's heap until it is rebuilt; every timer's work ends.
    try run(
      """
      ran = {}
      for i = 1, 5000 do timer.after(3600, print):cancel() end
      for i = 1, 3 do timer.after(0, function() ran[#ran + 1] = i end) end
      """)
    #expect(try await order() == "1 2 3")
  }
}
