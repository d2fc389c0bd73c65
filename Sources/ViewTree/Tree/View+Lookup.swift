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
    // Kept until the shape of any tree changes: a walk of weak parents costs about 200
    // instructions a level (a weak load and a release).
    let version = View.structureVersion.load(ordering: .relaxed)
    if depthCache.version == version { return depthCache.depth }
    var count = 0
    var node = parent
    while let current = node {
      count += 1
      node = current.parent
    }
    depthCache = (version, count)
    return count
  }

  /// The ids from the root down to this view, joined with `/`, like `root/settings/crash`.
  public var path: String {
    guard parent != nil else { return id }
    var length = -1
    var node: View? = self
    while let current = node {
      length += current.id.utf8.count + 1
      node = current.parent
    }
    // Fill the string from its end while walking up: no array, one allocation.
    return String(unsafeUninitializedCapacity: length) { buffer in
      var end = length
      var node: View? = self
      while let current = node {
        let utf8 = current.id.utf8
        end -= utf8.count
        _ = UnsafeMutableBufferPointer(rebasing: buffer[end..<end + utf8.count])
          .initialize(from: utf8)
        if end > 0 {
          end -= 1
          buffer[end] = UInt8(ascii: "/")
        }
        node = current.parent
      }
      return length
    }
  }

  /// Whether ``path`` equals `candidate`, decided without building the path.
  func hasPath(_ candidate: String) -> Bool {
    var candidate = candidate
    return candidate.withUTF8 { path in
      var end = path.count
      var node: View? = self
      while let current = node {
        var id = current.id
        let matches = id.withUTF8 { id in
          end >= id.count && path[(end - id.count)..<end].elementsEqual(id)
        }
        guard matches else { return false }
        end -= current.id.utf8.count
        node = current.parent
        guard node != nil else { return end == 0 }
        guard end > 0, path[end - 1] == UInt8(ascii: "/") else { return false }
        end -= 1
      }
      return false
    }
  }

  /// Whether `view` is this view or one of its ancestors.
  public func isDescendant(of view: View) -> Bool {
    isSelfOrDescendant(of: view)
  }

  /// The first view with `id` in depth-first order, starting with this view. Ids match by
  /// their UTF-8 bytes, as Lua compares strings (not by Unicode canonical equivalence,
  /// which costs a script's choice of text about 70 ns a character, on every view).
  public func find(_ id: String) -> View? {
    find { $0.id.hasSameBytes(as: id) }
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
