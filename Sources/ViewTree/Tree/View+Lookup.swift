// MARK: - Lookup and paths

extension View {
  /// The topmost ancestor, or this view if it has no parent.
  public var root: View {
    var node = self
    while let parent = node.parent { node = parent }
    return node
  }

  /// The number of ancestors: 0 for a root.
  public var depth: Int {
    var count = 0
    var node = parent
    while let current = node {
      count += 1
      node = current.parent
    }
    return count
  }

  /// The ids from the root down to this view, joined with `/`, like `root/settings/crash`.
  public var path: String {
    guard parent != nil else { return id }
    var ids: [String] = []
    var length = 0
    var node: View? = self
    while let current = node {
      ids.append(current.id)
      length += current.id.utf8.count + 1
      node = current.parent
    }
    var path = ""
    path.reserveCapacity(length)
    for index in ids.indices.reversed() {
      path += ids[index]
      if index > 0 { path += "/" }
    }
    return path
  }

  /// Whether `view` is this view or one of its ancestors.
  public func isDescendant(of view: View) -> Bool {
    isSelfOrDescendant(of: view)
  }

  /// The first view with `id` in depth-first order, starting with this view.
  public func find(_ id: String) -> View? {
    find { $0.id == id }
  }

  /// The first view that satisfies `predicate` in depth-first order, starting with this view.
  ///
  /// The walk keeps its own stack, so it works on trees of any depth.
  /// - Throws: Whatever `predicate` throws.
  public func find(where predicate: (View) throws -> Bool) rethrows -> View? {
    var stack: [View] = [self]
    while let node = stack.popLast() {
      if try predicate(node) { return node }
      stack.append(contentsOf: node.children.reversed())
    }
    return nil
  }
}
