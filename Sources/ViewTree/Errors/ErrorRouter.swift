/// Carries an error from the view where it happened to the view that presents it.
///
/// The walk is one loop up the parent chain, so it costs no stack per level
/// and never nests calls into a scripting runtime. It ends, at the latest, at
/// the root, whose default handler presents "Unhandled error". Each boundary's
/// filter takes part at most once per dispatch, and a nested dispatch started
/// by a filter passes over the boundaries whose filters are running on its own
/// thread, so a failing or re-raising handler cannot loop. Dispatches on other
/// threads (a shared tree, see ``View/treeLock``) still consult those filters.
enum ErrorRouter {
  private enum Outcome {
    case present(any Error)
    case passUp(any Error)
  }

  /// Routes `error`, raised at `origin`, to the nearest boundary that handles it.
  static func route(_ error: any Error, from origin: View) {
    var error = error
    var node = origin
    var consulted: [View] = []
    var configuration = BoundaryConfiguration.unhandled
    var isUnhandled = true
    let thread = ReentrantLock.currentThread
    walk: while true {
      if let boundary = node.boundary {
        // A nested error from this boundary's own filter passes over it, like a decline.
        let outcome =
          node.consultingThreads.contains(thread)
          ? Outcome.passUp(error)
          : decide(
            error, at: node, with: boundary, origin: origin, thread: thread, consulted: &consulted)
        let presentsHere: Bool
        switch outcome {
        case .present(let presented):
          error = presented
          presentsHere = true
        case .passUp(let passed):
          error = passed
          presentsHere = boundary.isIsolated  // errors may not leave an isolated boundary
        }
        if presentsHere {
          configuration = boundary
          isUnhandled = false
          break walk
        }
      }
      guard let parent = node.parent else { break }
      node = parent
    }
    for view in consulted {
      if let index = view.consultingThreads.lastIndex(of: thread) {
        view.consultingThreads.remove(at: index)
      }
    }
    node.enqueueAlert(
      for: error, origin: origin, configuration: configuration, isUnhandled: isUnhandled)
  }

  /// Asks the boundary at `node` what to do with `error`.
  private static func decide(
    _ error: any Error, at node: View, with boundary: BoundaryConfiguration, origin: View,
    thread: UInt, consulted: inout [View]
  ) -> Outcome {
    guard let filter = boundary.onError else { return .present(error) }
    node.consultingThreads.append(thread)
    consulted.append(node)
    do {
      switch try filter(error, origin) {
      case .handle: return .present(error)
      case .transform(let replacement): return .present(replacement)
      case .decline: return .passUp(error)
      case .escalate(let replacement): return .passUp(replacement)
      }
    } catch let failure {
      // The original stays the first error of the chain, so nested failures do not nest.
      let original = (error as? ViewTreeError)?.rootOriginal ?? error
      return .passUp(
        ViewTreeError.handlerFailed(boundary: node.path, original: original, failure: failure))
    }
  }
}
