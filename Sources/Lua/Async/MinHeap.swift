/// A binary min-heap: the smallest element first. The timer and sleep queues keep their
/// entries in one, and leave cancelled entries in it until they come to the top (or until
/// ``keep(where:)`` drops them).
package struct MinHeap<Element: Comparable> {
  private var elements: [Element] = []

  /// An empty heap.
  package init() {}

  /// The smallest element, if any.
  package var first: Element? { elements.first }
  /// How many elements the heap holds.
  package var count: Int { elements.count }

  /// Adds `element`.
  package mutating func push(_ element: Element) {
    elements.append(element)
    var child = elements.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard elements[child] < elements[parent] else { break }
      elements.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes the smallest element.
  package mutating func popFirst() {
    let last = elements.removeLast()
    guard !elements.isEmpty else { return }
    elements[0] = last
    siftDown(from: 0)
  }

  /// Keeps only the elements `keep` accepts.
  package mutating func keep(where keep: (Element) -> Bool) {
    elements = elements.filter(keep)
    for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) {
      siftDown(from: index)
    }
  }

  private mutating func siftDown(from start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < elements.count else { return }
      var smallest = left
      if left + 1 < elements.count, elements[left + 1] < elements[left] { smallest = left + 1 }
      guard elements[smallest] < elements[parent] else { return }
      elements.swapAt(smallest, parent)
      parent = smallest
    }
  }
}
