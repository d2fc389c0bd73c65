import Synchronization
import Testing
import ViewTree

struct LateError: Error, Equatable {}

/// Lets a test wait for an event, not for a fixed time.
final class Signal: Sendable {
  private let fired = Atomic<Bool>(false)
  func fire() { fired.store(true, ordering: .releasing) }
  /// Whether it has fired.
  var hasFired: Bool { fired.load(ordering: .acquiring) }
  /// Waits until fired, or for at most 60 s (a generous bound on an event that comes at
  /// once), and says whether it fired: the test checks that.
  @discardableResult
  func wait() async -> Bool {
    for _ in 0..<60_000 where !hasFired {
      try? await Task.sleep(for: .milliseconds(1))
    }
    return hasFired
  }
}

@Suite(.timeLimit(.minutes(30))) struct AsyncErrorHandlerTests {
  @Test func asyncWorkThatFailsAlertsAtTheNearestBoundaryWhenItFails() async throws {
    let recorder = RecordingAlertPresenter()
    let root = View.window(id: "root")
    root.environment.alertPresenter = recorder
    let boundary = try root.add(View.boundary(id: "guard"))
    let button = try boundary.add(View.button("Save", id: "save"))
    let release = Signal()
    let task = button.environment.errorHandler {
      await release.wait()
      throw LateError()
    }
    // Nothing yet: the work is waiting.
    #expect(View.treeLock.withLock { boundary.alert } == nil)
    #expect(View.treeLock.withLock { button.hasRunningWork })
    release.fire()
    await task?.value
    let alert = try #require(View.treeLock.withLock { boundary.alert })
    #expect(alert.error is LateError)
    #expect(alert.path == "root/guard/save")
    #expect(View.treeLock.withLock { !button.hasRunningWork })
  }

  @Test func removingTheViewCancelsItsWorkWithoutAnAlert() async throws {
    let root = View.window(id: "root")
    let panel = try root.add(View.stack(id: "panel"))
    let button = try panel.add(View.button("Fetch", id: "fetch"))
    // The work cannot end by itself within the test's limit: only a cancellation ends it,
    // and it records that it saw one.
    let cancelled = Signal()
    let task = button.environment.errorHandler {
      do {
        try await Task.sleep(for: .seconds(3600))
      } catch {
        if error is CancellationError, Task.isCancelled { cancelled.fire() }
        throw error
      }
    }
    #expect(View.treeLock.withLock { button.hasRunningWork })
    View.treeLock.withLock { _ = panel.removeFromParent() }  // an ancestor goes
    let sawCancellation = await cancelled.wait()
    try #require(sawCancellation, "removing an ancestor did not cancel the work")
    await task?.value
    #expect(View.treeLock.withLock { root.alert } == nil)
    #expect(View.treeLock.withLock { !button.hasRunningWork })
  }

  @Test func successfulWorkLeavesNoTrace() async throws {
    let root = View.window(id: "root")
    let task = root.environment.errorHandler { await Task.yield() }
    await task?.value
    #expect(View.treeLock.withLock { root.alert == nil && !root.hasRunningWork })
  }
}
