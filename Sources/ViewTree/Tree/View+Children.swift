// MARK: - Adding, moving and removing children

extension View {
  /// Appends `child` as the last child, moving it from its current parent if it has one.
  ///
  /// - Returns: `child`, so calls can be chained.
  /// - Throws: ``ViewTreeError/wouldCreateCycle(child:parent:)`` if `child` is
  ///   this view or one of its ancestors.
  @discardableResult
  public func add(_ child: View) throws(ViewTreeError) -> View {
    try insert(child, at: child.parent === self ? children.count - 1 : children.count)
  }

  /// Inserts `child` at `index`, moving it from its current parent if it has one.
  ///
  /// `index` is the position `child` will have in ``children`` after the call,
  /// so it may range from 0 to the number of other children.
  ///
  /// - Returns: `child`, so calls can be chained.
  /// - Throws: ``ViewTreeError/wouldCreateCycle(child:parent:)`` if `child` is this
  ///   view or one of its ancestors, ``ViewTreeError/indexOutOfRange(index:count:)``
  ///   if `index` is not a valid position. The tree is unchanged when it throws.
  @discardableResult
  public func insert(_ child: View, at index: Int) throws(ViewTreeError) -> View {
    // A view without children can only be its own ancestor by being `self`;
    // this keeps appending leaves O(1) however deep the parent is.
    if child === self || (!child.children.isEmpty && isSelfOrDescendant(of: child)) {
      throw .wouldCreateCycle(child: child.path, parent: path)
    }
    let others = child.parent === self ? children.count - 1 : children.count
    guard index >= 0, index <= others else {
      throw .indexOutOfRange(index: index, count: others)
    }
    child.detachFromParent()
    children.insert(child, at: index)
    child.parent = self
    return child
  }

  /// Moves this view under `newParent`, at `index` or, if `nil`, as the last child.
  ///
  /// - Throws: ``ViewTreeError/wouldCreateCycle(child:parent:)`` if `newParent` is
  ///   this view or one of its descendants, ``ViewTreeError/indexOutOfRange(index:count:)``
  ///   if `index` is not a valid position. The tree is unchanged when it throws.
  public func move(to newParent: View, at index: Int? = nil) throws(ViewTreeError) {
    if let index {
      try newParent.insert(self, at: index)
    } else {
      try newParent.add(self)
    }
  }

  /// Detaches this view from its parent; it becomes the root of its own tree. Async work
  /// started from it or below it (`errorHandler { try await … }`) is cancelled.
  ///
  /// - Returns: `true` if the view had a parent.
  @discardableResult
  public func removeFromParent() -> Bool {
    guard parent != nil else { return false }
    detachFromParent()
    cancelWork()
    return true
  }

  /// Detaches `child` if it is a child of this view.
  ///
  /// - Returns: `true` if `child` was removed.
  @discardableResult
  public func remove(_ child: View) -> Bool {
    guard child.parent === self else { return false }
    child.detachFromParent()
    child.cancelWork()
    return true
  }

  /// Detaches all children.
  public func removeAllChildren() {
    let old = children
    for child in old { child.noteRemovalDuringAction(from: self) }
    children = []
    for child in old {
      child.parent = nil
      child.cancelWork()
    }
  }

  // MARK: Internal

  /// Appends a freshly made view that has no parent and no place in this tree.
  func appendNew(_ child: View) {
    children.append(child)
    child.parent = self
  }

  func detachFromParent() {
    guard let parent else { return }
    noteRemovalDuringAction(from: parent)
    if let index = parent.children.firstIndex(where: { $0 === self }) {
      parent.children.remove(at: index)
    }
    self.parent = nil
  }

  /// If the view whose action runs on this thread is this view or inside it, notes
  /// `parent` (this view's parent, before the removal) as where that view's errors
  /// continue (see `parentBeforeRemoval`). Only removals pay for it; the walk is the
  /// acting view's depth.
  func noteRemovalDuringAction(from parent: View) {
    guard let acting = ActingView.current, acting.parentBeforeRemoval == nil,
      acting.isSelfOrDescendant(of: self)
    else { return }
    // The acting view's chain now ends at this view: its errors continue at `parent`.
    acting.parentBeforeRemoval = parent
  }

  /// Whether `ancestor` is this view or on its parent chain.
  func isSelfOrDescendant(of ancestor: View) -> Bool {
    var node: View? = self
    while let current = node {
      if current === ancestor { return true }
      node = current.parent
    }
    return false
  }
}
