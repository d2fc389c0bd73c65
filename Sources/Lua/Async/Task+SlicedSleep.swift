extension Task where Success == Never, Failure == Never {
  /// The longest slice ``sleepInSlices(until:)`` sleeps at a time.
  package static var sleepSlice: Duration { .seconds(1) }

  /// Sleeps until `deadline`, at most ``sleepSlice`` at a time; throws `CancellationError`
  /// when the task is cancelled, as `Task.sleep` does.
  ///
  /// For a sleep that is often cancelled early: a cancelled `Task.sleep` resumes at once,
  /// but the runtime keeps its timer (and what it holds) until the instant it was to wake.
  /// A run's deadline timer, cancelled as each run ended, kept about 0.7 KB for each run
  /// until the run's `--timeout` (200,000 timer actions that waited grew `luahost
  /// --timeout 100000s` to 163 MB); sliced, a cancelled sleep keeps it a second at most.
  package static func sleepInSlices(until deadline: ContinuousClock.Instant) async throws {
    let clock = ContinuousClock()
    while true {
      let now = clock.now
      guard now < deadline else { return }
      try await sleep(until: min(deadline, now + sleepSlice), clock: clock)
    }
  }
}
