import Lua
import Testing

/// The queue behind `timer.sleep` and each run's deadline: sleeps end at their instant, not
/// before, and a cancelled one ends at once (a cancelled `Task.sleep` kept its runtime timer
/// until its instant; sleeps sliced to a second woke every sleeper once a second).
@Suite(.timeLimit(.minutes(5))) struct SleepQueueTests {
  @Test func everySleepEndsNotBeforeItsInstant() async throws {
    let queue = SleepQueue()
    let start = ContinuousClock.now
    let woke = LockedValue<Int>(0)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in [3, 1, 2, 2] {
        group.addTask {
          let wake = start + .milliseconds(20 * index)
          try await queue.sleep(until: wake)
          #expect(ContinuousClock.now >= wake)
          woke.withLock { $0 += 1 }
        }
      }
      try await group.waitForAll()
    }
    #expect(woke.withLock { $0 } == 4)
  }

  @Test func aCancelledSleepEndsAtOnceAndTheOthersGoOn() async throws {
    let queue = SleepQueue()
    let long = Task { try await queue.sleep(until: .now + .seconds(3600)) }
    let short = Task { try await queue.sleep(until: .now + .milliseconds(10)) }
    long.cancel()
    await #expect(throws: CancellationError.self) { try await long.value }
    try await short.value
    // Cancelled before it sleeps, a sleep throws at once too; one already due returns.
    let early = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await queue.sleep(until: .now + .seconds(3600))
    }
    await #expect(throws: CancellationError.self) { try await early.value }
    try await queue.sleep(until: .now - .seconds(1))
  }
}
