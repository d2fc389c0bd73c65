import ViewTree

extension View {
  /// The view a script's `find(id)` gives: the first with `id` in depth-first order from
  /// this view, preferring views outside the isolated boundaries below it (the panels of
  /// other scripts, such as plugins): a plugin cannot shadow the id of a view of the
  /// host's by making its own first. A view inside such a panel is found when no other
  /// view has the id, as before. Call holding the tree lock.
  func findForScript(_ id: String) -> View? {
    var stack: [View] = [self]
    var panels: [View] = []
    while let node = stack.popLast() {
      if node !== self, node.boundary?.isIsolated == true {
        panels.append(node)
        continue
      }
      if node.id.utf8.elementsEqual(id.utf8) { return node }
      stack.append(contentsOf: node.children.reversed())
    }
    for panel in panels {
      if let found = panel.find(id) { return found }
    }
    return nil
  }
}
