import Foundation
import Synchronization
import Testing
import ViewTree

/// The mutex under `ReentrantLock`: a waiter that has waited past the threshold is handed
/// the lock on its holder's next release, and arriving threads queue behind it. The tests
/// use a threshold of 0, so that handing over starts at the first wait, and wait for each
/// waiter to be queued before they go on: no verdict depends on timing. (Exclusion under
/// contention, at the default threshold, is `ReentrantLockTests.itExcludesOtherThreads`.)
@Suite(.timeLimit(.minutes(30))) struct HandoffMutexTests {
  /// Spins (yielding) until `condition` holds; the suite's time limit ends a hang.
  private func waitUntil(_ condition: () -> Bool) {
    while !condition() { sched_yield() }
  }

  /// The holder releases and at once takes the lock again: the waiter gets it first (a
  /// plain mutex lets the releasing thread barge back in; a thread calling the tree in a
  /// loop starved another for 78 of its holds).
  @Test func aReleaseHandsTheLockToAStarvingWaiter() {
    let mutex = HandoffMutex(starvationThreshold: 0)
    let order = LockedValue<[String]>([])
    mutex.lock()
    let waiter = Thread {
      mutex.lock()
      order.withLock { $0.append("waiter") }
      mutex.unlock()
    }
    waiter.start()
    waitUntil { mutex.waiterCount == 1 && mutex.isHandingOver }
    mutex.unlock()
    mutex.lock()
    order.withLock { $0.append("holder") }
    mutex.unlock()
    #expect(order.withLock { $0 } == ["waiter", "holder"])
    #expect(mutex.waiterCount == 0)
    #expect(!mutex.isHandingOver, "back to the fast way once nobody waits")
    #expect(mutex.tryLock())
    mutex.unlock()
  }

  /// Waiters get the lock in the order they came, and a thread arriving meanwhile queues
  /// behind them instead of taking it.
  @Test func starvingWaitersAreServedInTheOrderTheyCame() {
    let mutex = HandoffMutex(starvationThreshold: 0)
    let order = LockedValue<[Int]>([])
    mutex.lock()
    for index in 0..<4 {
      Thread {
        mutex.lock()
        order.withLock { $0.append(index) }
        mutex.unlock()
      }.start()
      waitUntil { mutex.waiterCount == index + 1 }
    }
    waitUntil { mutex.isHandingOver }
    mutex.unlock()
    mutex.lock()
    order.withLock { $0.append(4) }
    mutex.unlock()
    #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
  }
}
