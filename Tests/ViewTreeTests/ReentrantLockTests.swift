import Foundation
import Synchronization
import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct ReentrantLockTests {
  @Test func theHolderMayTakeItAgain() {
    let lock = ReentrantLock()
    #expect(!lock.isHeldByCurrentThread)
    let depth = lock.withLock { lock.withLock { lock.withLock { 3 } } }
    #expect(depth == 3)
    #expect(!lock.isHeldByCurrentThread)
  }

  @Test func settingItAsideLetsAnotherThreadIn() {
    let lock = ReentrantLock()
    let entered = Atomic<Bool>(false)
    lock.withLock {
      lock.withLock {
        let other = Thread {
          lock.withLock { entered.store(true, ordering: .releasing) }
        }
        lock.withoutLock {
          #expect(!lock.isHeldByCurrentThread)
          other.start()
          let deadline = ContinuousClock.now + .seconds(30)
          while !entered.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(100) }
        }
        // Taken back at the same depth: one unlock leaves it held.
        #expect(lock.isHeldByCurrentThread)
      }
      #expect(lock.isHeldByCurrentThread)
    }
    #expect(!lock.isHeldByCurrentThread)
    let didEnter = entered.load(ordering: .acquiring)
    #expect(didEnter)
  }

  @Test func withoutLockWithoutHoldingItJustRuns() {
    let lock = ReentrantLock()
    #expect(lock.withoutLock { 7 } == 7)
    #expect(!lock.isHeldByCurrentThread)
  }

  @Test func itExcludesOtherThreads() {
    let lock = ReentrantLock()
    final class Counter: @unchecked Sendable {
      // Guarded by the lock under test; TSan checks that claim.
      var value = 0
    }
    let counter = Counter()
    let group = DispatchGroup()
    for _ in 0..<4 {
      group.enter()
      Thread {
        for _ in 0..<10_000 { lock.withLock { lock.withLock { counter.value += 1 } } }
        group.leave()
      }.start()
    }
    group.wait()
    #expect(counter.value == 40_000)
  }
}
