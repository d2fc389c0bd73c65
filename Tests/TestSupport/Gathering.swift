import Foundation
import Synchronization

/// More than the cooperative pool has threads (one per core): work that needs this many
/// things running at once can only finish off the pool.
public let moreThanThePool = ProcessInfo.processInfo.activeProcessorCount + 2

/// A meeting point for threads: each party arrives, and all are there once `expected`
/// have. Tests wait on it for an event (everyone running at once), not for a time.
public final class Gathering: Sendable {
  /// How many parties make the gathering complete.
  public let expected: Int
  private let arrived = Atomic<Int>(0)

  /// A gathering of `expected` parties.
  public init(expected: Int) { self.expected = expected }

  /// One more party is here.
  public func arrive() { arrived.add(1, ordering: .sequentiallyConsistent) }

  /// Whether every party has arrived.
  public var isComplete: Bool { arrived.load(ordering: .sequentiallyConsistent) >= expected }

  /// Blocks the calling thread until every party has arrived; false after `limit` (a
  /// backstop: the verdict is whether they all came, not how fast).
  public func wait(limit: Duration = .seconds(60)) -> Bool {
    let start = ContinuousClock.now
    while !isComplete {
      if ContinuousClock.now - start > limit { return false }
      usleep(200)
    }
    return true
  }
}
