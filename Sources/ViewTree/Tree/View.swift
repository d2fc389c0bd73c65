import Synchronization

/// An action run by a view, for example a button's tap.
///
/// The view is passed in so the closure need not capture it, which would
/// create a reference cycle. The action may throw; the error goes to the
/// view's nearest error boundary.
public typealias ViewAction = (View) throws -> Void

/// A handler of a named event of a view, with the event's values (see ``View/send(_:_:)``).
/// It may throw; the error goes to the view's nearest error boundary.
public typealias ViewEventHandler = (View, [PropertyValue]) throws -> Void

/// A live node in a view tree.
///
/// Views are reference types that form a tree: a parent owns its ordered
/// ``children`` strongly, and each child points back through a non-owning
/// ``parent``. Every walk over the tree (lookup, paths, environment reads,
/// error dispatch and teardown) is a loop, so trees may be many thousands
/// of levels deep.
///
/// Nothing holds a root but its owner: keep a reference to the window (or
/// other root) for as long as the tree should live. A view held on its own
/// does not keep its ancestors alive; when they go, it becomes a root.
///
/// A tree is not thread-safe by itself, and `View` is deliberately not `Sendable`. A tree
/// shared between threads is touched only while holding ``treeLock``, and whoever runs
/// code that may wait for another lock (a Lua action, say) sets the tree lock aside with
/// `ReentrantLock.withoutLock(_:)` first. LuaHost's bridge and plugin host do both.
public final class View {
  /// The lock that guards every view tree shared between threads.
  ///
  /// One lock for all trees: it is held only for short steps (a lookup, an insertion, one
  /// step of error routing), never while an action or a scripted filter runs.
  public static let treeLock = ReentrantLock()

  /// The view's name, used by ``find(_:)`` and in ``path``. Need not be unique.
  public var id: String

  /// What kind of view this is.
  public let kind: ViewKind

  /// Named plain values such as `title`, `text` and `value`.
  public var properties: [String: PropertyValue]

  /// The child views, in order. Change them with ``add(_:)``, ``insert(_:at:)``,
  /// ``move(to:at:)`` and ``removeFromParent()``.
  public internal(set) var children: [View] = []

  /// The view that holds this one as a child, or `nil` for a root (or once the parent
  /// has begun to be freed).
  ///
  /// `weak`, so reading it is safe on any thread at any time. A parent's last strong
  /// reference may go anywhere: a plugin freed off the tree lock drops its panel, a Lua
  /// collector drops a removed subtree, app code drops a view it kept. The parent's
  /// strong count is then 0 before its `deinit` can take the tree lock to detach its
  /// children, and an `unowned` read in that window stops the process (a walk up from a
  /// child still held elsewhere, such as a button whose tap is under way). A weak read
  /// gives `nil` there, as for a detached view. It costs a side table on each parent
  /// (3% more instructions over the tree-dispatch benchmarks; see BENCHMARKS.md).
  public internal(set) weak var parent: View? {
    didSet { View.structureVersion.add(1, ordering: .relaxed) }
  }

  /// Counts changes to any view's ``parent`` (every insertion, move and removal), so
  /// that ``depth`` can be kept until the tree's shape changes. Changes happen under the
  /// tree lock, which orders them; the counter only has to be safe to read.
  static let structureVersion = Atomic<UInt64>(0)
  /// ``depth`` and the ``structureVersion`` it was counted at.
  var depthCache: (version: UInt64, depth: Int) = (.max, 0)

  /// The parent this view had when its running action removed it (or an ancestor of
  /// it) from the tree, kept until the action ends: an error the action then throws still
  /// goes up the chain it was raised in. Set only by removals during an action, so a tap
  /// that removes nothing pays one check for it.
  var parentBeforeRemoval: View?

  /// Where this view's errors go on while it is in no tree (never added, or removed):
  /// when the walk to the nearest boundary reaches the top of the view's detached
  /// subtree, it goes on at this view. A scripting layer sets it to the top of what its
  /// script may reach (`ui.root`), so that the error of a view the script made and never
  /// added still reaches a boundary instead of vanishing. Weak; `nil` by default.
  public weak var detachedErrorRoute: View?

  // The two actions are unchecked for exclusivity: they are only read and assigned, never
  // passed `inout`, so no two accesses can overlap, and the runtime's check of the read
  // cost 76 instructions of every tap (about 1.5% of a tap from Lua, case 5a).

  /// The action ``tap()`` runs.
  @exclusivity(unchecked) public var onTap: ViewAction?

  /// The action ``setValue(_:)`` runs after the value changes.
  @exclusivity(unchecked) public var onChange: ViewAction?

  /// Handlers of an app-defined view's named events (a slider's `on_change`, say), which
  /// ``send(_:_:)`` runs. Built-in views use ``onTap`` and ``onChange`` instead.
  public var eventHandlers: [String: ViewEventHandler] = [:]

  /// The Swift state behind an app-defined kind of view: a slider's range, a list's items.
  /// Read it with ``model(as:)``.
  public var model: AnyObject?

  /// How this view handles errors from its subtree, or `nil` if it passes them up.
  ///
  /// Views of kind ``ViewKind/boundary`` start with the default configuration;
  /// any other view becomes a boundary when this is set.
  public var boundary: BoundaryConfiguration? {
    didSet {
      let had = !(oldValue?.resetKeys.isEmpty ?? true)
      let has = !(boundary?.resetKeys.isEmpty ?? true)
      if had != has { _ = View.boundariesWithResetKeys.add(has ? 1 : -1, ordering: .relaxed) }
    }
  }

  /// Alerts this view presents: the first is current, the rest are queued.
  var pendingAlerts: [Alert] = []

  /// The alert whose work "Try again" is running, with its count: if the work fails the
  /// same way again, the new alert continues the count (×N).
  var retriedAlert: (title: String, message: String, path: String, count: Int)?

  /// How many distinct alerts were dropped because the queue was full.
  public internal(set) var droppedAlertCount = 0

  /// The threads on which this boundary's filter takes part in a dispatch, so that a
  /// nested error on the same thread skips it instead of looping, while a dispatch on
  /// another thread still consults it.
  var consultingThreads: [UInt] = []

  /// Async work started from this view (see ``track(_:)``), cancelled when the view
  /// leaves its tree.
  var runningWork: [Int: Task<Void, Never>] = [:]

  /// Environment values set on this view, by key type.
  var typedEnvironment: [ObjectIdentifier: Any] = [:]

  /// Environment values set on this view, by name.
  var namedEnvironment: [ByteName: Any] = [:]

  /// Who pays for the memory this view and the alerts it causes hold; see
  /// ``MemoryAccount``. Set it once, when the view is made.
  public var memoryAccount: (any MemoryAccount)?

  /// Bytes charged to ``memoryAccount`` for the view itself (see ``adjustCharge(by:)``).
  public internal(set) var chargedBytes = 0

  /// Creates a detached view.
  ///
  /// - Parameters:
  ///   - id: The view's name.
  ///   - kind: The view's role; a ``ViewKind/boundary`` gets a default ``boundary``.
  ///   - properties: Initial named values.
  public init(id: String, kind: ViewKind, properties: [String: PropertyValue] = [:]) {
    self.id = id
    self.kind = kind
    self.properties = properties
    if kind == .boundary { boundary = BoundaryConfiguration() }
  }

  // Releasing a chain of strong child references recurses once per level.
  // Instead, steal the children of every node we hold the last reference
  // to, so each node is freed with no children left. Every child is
  // detached before its parent is freed, even while user code runs in the
  // deinit of an action's captures. The walk takes the tree lock: another
  // thread may hold one of these children and read its `children`.
  deinit {
    if chargedBytes > 0 { memoryAccount?.release(chargedBytes) }
    if !(boundary?.resetKeys.isEmpty ?? true) {
      _ = View.boundariesWithResetKeys.subtract(1, ordering: .relaxed)
    }
    if !runningWork.isEmpty {
      for task in runningWork.values { task.cancel() }
      _ = View.viewsWithWork.subtract(1, ordering: .relaxed)
    }
    for alert in pendingAlerts { alert.releaseCharge() }
    guard !children.isEmpty else { return }
    View.treeLock.lock()
    defer { View.treeLock.unlock() }
    var pending = children
    children = []
    for child in pending { child.parent = nil }
    while !pending.isEmpty {
      var node = pending.removeLast()
      if isKnownUniquelyReferenced(&node), !node.children.isEmpty {
        for child in node.children { child.parent = nil }
        pending.append(contentsOf: node.children)
        node.children = []
      }
    }
  }
}

// MARK: - Identity and description

extension View: Hashable {
  /// Views are equal only when they are the same object.
  public static func == (lhs: View, rhs: View) -> Bool { lhs === rhs }

  /// Hashes the object identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension View: CustomStringConvertible {
  /// A short label such as `button#crash`.
  public var description: String { "\(kind.rawValue)#\(id)" }
}
