import Foundation

/// Runs `body` after `milliseconds` on a thread of its own, not on the cooperative pool.
///
/// A test whose thread spins in Lua until something stops it must not wait for a pool
/// thread: with two cores the pool has two, and two such tests at once held both, so the
/// task meant to stop them never ran (a fresh-clone run hung for minutes on it).
func onAThread(after milliseconds: UInt32, _ body: @escaping @Sendable () -> Void) {
  Thread.detachNewThread {
    usleep(milliseconds * 1000)
    body()
  }
}
