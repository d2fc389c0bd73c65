/// Carries an error from the view where it happened to the view that presents it.
///
/// The walk is one loop up the parent chain, so it costs no stack per level
/// and never nests calls into a scripting runtime. It ends, at the latest, at
/// the root, whose default handler presents "Unhandled error". Each boundary's
/// filter takes part at most once per dispatch, and a nested dispatch started
/// by a filter passes over the boundaries whose filters are running on its own
/// thread, so a failing or re-raising handler cannot loop. Dispatches on other
/// threads (a shared tree, see ``View/treeLock``) still consult those filters.
///
/// On its way the walk writes down what each boundary did (the handler chain); the
/// presenting boundary's ``EnvironmentValues/errorLog`` gets the result.
enum ErrorRouter {
  private enum Outcome {
    case present(any Error, HandlerStep.Decision, offered: [AlertAction])
    case passUp(any Error, HandlerStep.Decision)
  }

  /// Routes `error`, raised at `origin`, to the nearest boundary that handles it; `retry`
  /// is the work that failed, for a boundary that offers "Try again". `continuation` is
  /// where the walk goes on when it reaches the top of a subtree that the failing action
  /// removed from the tree (the removed view's former parent).
  static func route(
    _ error: any Error, from origin: View, retry: RetryableWork? = nil,
    continuingAt continuation: View? = nil
  ) {
    var continuation = continuation
    var error = error
    var node = origin
    var consulted: [View] = []
    var chain = StepList()
    var offered: [AlertAction] = []
    var configuration = BoundaryConfiguration.unhandled
    var isUnhandled = true
    let thread = ReentrantLock.currentThread
    // The ancestors as they were when the first filter ran: a filter may move or remove
    // views (even its own ancestors), and the error must still go up the chain it was
    // raised in, so a plugin cannot detach its way out of its panel's boundary.
    var above: [View]? = nil
    var aboveIndex = 0
    var tookDetachedRoute = false
    walk: while true {
      if above == nil, node.boundary?.onError != nil {
        var chain: [View] = []
        var next = node.parent
        while let view = next {
          chain.append(view)
          next = view.parent
        }
        above = chain
      }
      if let boundary = node.boundary {
        // A nested error from this boundary's own filter passes over it, like a decline.
        let outcome =
          node.consultingThreads.contains(thread)
          ? Outcome.passUp(error, .skipped)
          : decide(
            error, at: node, with: boundary, origin: origin, thread: thread, consulted: &consulted)
        let presentsHere: Bool
        switch outcome {
        case .present(let presented, let decision, let actions):
          error = presented
          offered = actions
          presentsHere = true
          chain.append(node, decision)
        case .passUp(let passed, let decision):
          error = passed
          chain.append(node, decision)
          presentsHere = boundary.isIsolated  // errors may not leave an isolated boundary
          if presentsHere {
            chain.append(node, .presented)
          }
        }
        if presentsHere {
          configuration = boundary
          isUnhandled = false
          break walk
        }
      }
      if let chain = above, aboveIndex < chain.count {
        node = chain[aboveIndex]
        aboveIndex += 1
      } else if above == nil, let parent = node.parent {
        node = parent
      } else if let next = continuation {
        // The top of the removed subtree: on at its former parent, whose own chain is
        // snapshotted afresh by the next filter.
        continuation = nil
        above = nil
        aboveIndex = 0
        node = next
      } else if !tookDetachedRoute, let next = origin.detachedErrorRoute ?? node.detachedErrorRoute,
        next !== node
      {
        // The top of a subtree in no tree (its views were never added, or were removed
        // before the action ran): on where the origin's script reaches (once).
        tookDetachedRoute = true
        above = nil
        aboveIndex = 0
        node = next
      } else {
        break
      }
    }
    for view in consulted {
      if let index = view.consultingThreads.lastIndex(of: thread) {
        view.consultingThreads.remove(at: index)
      }
    }
    if isUnhandled {
      chain.append(node, .unhandled)
    }
    node.enqueueAlert(
      for: error,
      context: AlertContext(
        origin: origin, configuration: configuration, isUnhandled: isUnhandled,
        chain: chain, offered: offered, retry: retry))
  }

  /// Asks the boundary at `node` what to do with `error`.
  private static func decide(
    _ error: any Error, at node: View, with boundary: BoundaryConfiguration, origin: View,
    thread: UInt, consulted: inout [View]
  ) -> Outcome {
    guard let filter = boundary.onError else { return .present(error, .presented, offered: []) }
    node.consultingThreads.append(thread)
    consulted.append(node)
    do {
      switch try filter(error, origin) {
      case .handle: return .present(error, .presented, offered: [])
      case .offer(let actions): return .present(error, .presented, offered: actions)
      case .transform(let replacement): return .present(replacement, .transformed, offered: [])
      case .decline: return .passUp(error, .declined)
      case .escalate(let replacement): return .passUp(replacement, .escalated)
      }
    } catch let failure {
      // The original stays the first error of the chain, so nested failures do not nest.
      let original = (error as? ViewTreeError)?.rootOriginal ?? error
      return .passUp(
        ViewTreeError.handlerFailed(boundary: node.path, original: original, failure: failure),
        .failed)
    }
  }
}

/// What the walk learnt about an error besides the error itself.
struct AlertContext {
  let origin: View
  let configuration: BoundaryConfiguration
  let isUnhandled: Bool
  let chain: StepList
  let offered: [AlertAction]
  let retry: RetryableWork?
}

/// The boundaries a walk passed and what each did, kept as views: their paths are made
/// only when an alert or a log needs them (a repeat that only counts needs none). The
/// first step is stored inline, so the usual walk (one boundary presents) allocates
/// nothing for it.
struct StepList {
  private var first: (view: View, decision: HandlerStep.Decision)?
  private var rest: [(view: View, decision: HandlerStep.Decision)] = []

  mutating func append(_ view: View, _ decision: HandlerStep.Decision) {
    if first == nil { first = (view, decision) } else { rest.append((view, decision)) }
  }

  /// The most steps an alert keeps: the first ones and the last (the presenting one).
  /// A chain thousands of boundaries deep would otherwise hold every boundary's path.
  static let limit = 16

  /// The chain as the alert shows it (at most ``limit`` steps: the first ones and the
  /// last; a step `…` stands for the ones left out).
  var steps: [HandlerStep] {
    guard let first else { return [] }
    let all = [first] + rest
    guard all.count > Self.limit, let last = all.last else { return all.map(Self.step) }
    let skipped = HandlerStep(boundary: "…", path: "…", decision: .skipped)
    return all.prefix(Self.limit - 2).map(Self.step) + [skipped, Self.step(last)]
  }

  private static func step(_ entry: (view: View, decision: HandlerStep.Decision)) -> HandlerStep {
    HandlerStep(boundary: entry.view.id, path: entry.view.path, decision: entry.decision)
  }
}
