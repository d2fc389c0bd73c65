import ViewTree

extension View {
  /// How many views a walk for a script visits between two checks for a stop (see
  /// `LuaState.checkForStop(charging:)`): a walk's length is the script's to choose, up to
  /// its memory limit (a `find` over 380,000 views took 54 ms, and a `children` list of
  /// them 142 ms).
  static let scriptWalkBatch = 256

  /// The view a script's `find(id)` gives: the first with `id` in depth-first order from
  /// this view, preferring views outside the isolated boundaries below it (the panels of
  /// other scripts, such as plugins): a plugin cannot shadow the id of a view of the
  /// host's by making its own first. A view inside such a panel is found when no other
  /// view has the id, as before. Calls `check` every ``scriptWalkBatch`` views. Call
  /// holding the tree lock.
  func findForScript(_ id: String, checkingForStop check: () throws -> Void) throws -> View? {
    var visited = 0
    var panels: [View] = []
    func search(from top: View, settingPanelsAside: Bool) throws -> View? {
      var stack: [View] = [top]
      while let node = stack.popLast() {
        visited += 1
        if visited % Self.scriptWalkBatch == 0 { try check() }
        if settingPanelsAside, node !== top, node.boundary?.isIsolated == true {
          panels.append(node)
          continue
        }
        if node.id.utf8.elementsEqual(id.utf8) { return node }
        stack.append(contentsOf: node.children.reversed())
      }
      return nil
    }
    if let found = try search(from: self, settingPanelsAside: true) { return found }
    for panel in panels {
      if let found = try search(from: panel, settingPanelsAside: false) { return found }
    }
    return nil
  }

  /// How many levels lie below this view (0 for a view without children), counted no
  /// further than one past `limit`: the walk stops at the first view deeper than `limit`
  /// below this one. Calls `check` every ``scriptWalkBatch`` views. Call
  /// holding the tree lock.
  func height(notCountingPast limit: Int, checkingForStop check: () throws -> Void) rethrows
    -> Int
  {
    var height = 0
    var visited = 0
    var stack: [(view: View, level: Int)] = [(self, 0)]
    while let (view, level) = stack.popLast() {
      height = max(height, level)
      guard height <= limit else { break }
      for child in view.children {
        visited += 1
        if visited % Self.scriptWalkBatch == 0 { try check() }
        if child.children.isEmpty {
          height = max(height, level + 1)
        } else {
          stack.append((child, level + 1))
        }
      }
    }
    return height
  }
}
