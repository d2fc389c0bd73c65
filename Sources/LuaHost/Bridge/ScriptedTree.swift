import Lua
import ViewTree

/// Exposes a live view tree to Lua as the global `ui`: the way to script an app's own tree.
///
/// ```swift
/// let lua = try LuaState(sandbox: LuaSandbox())
/// let window = View.window(id: "root")
/// let tree = try ScriptedTree(lua: lua, root: window, components: [slider])
/// try tree.withState { lua in try lua.run("ui.root:add(ui.slider{ id = 'volume' })") }
/// ```
///
/// Views are userdata (the same view is always the same userdata); actions and boundary
/// filters are Lua functions; errors from Lua actions become `LuaError`s that travel up the
/// tree in Swift to the nearest boundary, which raises an alert. See README, "The Lua API".
///
/// Lifetime: actions are held by their views; a Lua function that captures its own view
/// forms a cycle across Lua and Swift that is broken when the state closes. Close the
/// state (or unload the plugin) to free a tree built from Lua.
///
/// Threads: the tree confines its state to the state's lock (`LuaState.confine()`):
/// timers and waiting actions run in tasks, so the state is shared from then on, and every
/// use of it holds `LuaState.lock`. Every call from Lua into the tree holds
/// `View.treeLock`, and every call from the tree into Lua (an action, a filter, a timer)
/// sets the tree lock aside and holds the state's lock, so several states may script one
/// tree from different threads. Run your own code on the state through
/// ``withState(_:)``, which takes the same lock; a use of the state without it fails at
/// once (a trap in debug builds), so a race cannot go unnoticed.
/// `ui.root` is the top of what the script can reach: its `parent` is nil, and it cannot
/// be moved, removed or renamed from Lua.
public final class ScriptedTree {
  /// The view exposed as `ui.root`; the script's reach ends there.
  public let root: View
  /// The state the tree is exposed in; the tree keeps it alive. Use it through
  /// ``withState(_:)``, which holds its lock.
  package let lua: LuaState
  /// The lock that confines ``lua`` (the state's own): held whenever the tree calls into
  /// Lua.
  package var stateLock: ReentrantLock { lua.lock }
  /// Pays for what the script's views and alerts hold, from the state's memory limit.
  let memoryAccount: ScriptMemoryAccount
  /// ``View/treeLock``, kept here: a read of the static costs its once-check, a retain
  /// and a release, on every call into Lua.
  let treeLock = View.treeLock
  /// The app-defined kinds of view `ui` offers, by kind.
  let components: [ViewKind: ScriptedComponent]
  /// The Lua functions of the components' methods, made once.
  var componentMethods: [ViewKind: [String: LuaValue]] = [:]
  /// Actions that wait for async functions, and timers: work still in flight.
  public let pendingWork = PendingWork()
  /// The pending timers, run in the order they fall due.
  let timers: TimerQueue
  /// The view whose code runs now (an action's, a timer's): new timers belong to it. Set
  /// only while that code runs (which keeps the view alive), under the state's lock.
  /// Strong, not weak: a weak reference would give the view a side table, which slows
  /// every retain of it. Unchecked: it is only read and assigned, never passed `inout`, so
  /// no two accesses can overlap (the runtime's check cost three times 80 instructions an
  /// action).
  @exclusivity(unchecked) var currentOrigin: View?

  /// Installs `ui` in `lua`, with `root` as `ui.root` and a constructor for each of
  /// `components` beside the built-in ones.
  /// - Throws: `LuaError` if the state is closed, or (`usage`) if a component takes a
  ///   name that exists already or redefines a field every view has.
  public init(lua: LuaState, root: View, components: [ScriptedComponent] = []) throws {
    self.lua = lua
    self.root = root
    timers = TimerQueue(executor: lua.executor)
    lua.lock.lock()
    defer { lua.lock.unlock() }
    lua.confine()
    if lua.lock.name == nil { lua.lock.name = "the Lua state of '\(root.id)'" }
    memoryAccount = ScriptMemoryAccount(try lua.memoryAccount())
    var byKind: [ViewKind: ScriptedComponent] = [:]
    var taken = Self.builtInNames
    for component in components {
      try component.validate(against: taken)
      taken.insert(component.name)
      byKind[component.kind] = component
    }
    self.components = byKind
    try registerViewType()
    try registerEnvironmentType()
    try registerTimerType()
    try registerErrorType()
    try lua.globals().set("ui", makeReadOnlyModule())
    try lua.globals().set("timer", makeTimerModule())
  }

  /// Runs `body` with the state, holding its lock with the tree lock set aside: the way
  /// for host code to run Lua on this tree's state while other threads may tap its views.
  /// - Throws: what `body` throws, or (`usage`) when waiting for the lock would deadlock
  ///   (see `LuaState.withLock(_:)`).
  public func withState<T>(_ body: (LuaState) throws -> T) throws -> T {
    try callingLua { try body(lua) }
  }

  /// Runs a chunk of Lua on this tree's state, holding its lock (``withState(_:)``), and
  /// returns its results. Like `LuaState.run(_:name:)`: the chunk cannot wait (use an
  /// action, or `Plugin.send`, for code that waits).
  /// - Throws: `LuaError`: `.syntax` if it does not compile, or the chunk's error.
  @discardableResult
  public func run(_ code: String, name: String? = nil) throws -> [LuaValue] {
    try withState { try $0.run(code, name: name) }
  }

  /// The constructors every `ui` has, with the kind each makes.
  /// The names `ui` has before any component: its constructors, `root`, `find`, `error`.
  static let builtInNames = Set(builtInConstructors.map(\.name) + ["root", "find", "error"])

  static let builtInConstructors: [(name: String, kind: ViewKind)] = [
    ("stack", .stack), ("group", .group), ("text", .text), ("button", .button),
    ("text_field", .textField), ("boundary", .boundary), ("window", .window),
  ]

  /// The Lua userdata for `view`.
  func value(_ view: View?) throws -> LuaValue {
    guard let view else { return .nil }
    return try lua.userdata(view)
  }

  /// A Lua function that runs `body` with this tree, holding the tree weakly: Lua keeps
  /// its functions until the state closes, and the tree owns the state.
  func function(_ body: @escaping (ScriptedTree, [LuaValue]) throws -> [LuaValue]) throws
    -> LuaValue
  {
    .function(
      try lua.function { [weak self] arguments in
        guard let self else { throw Self.goneError }
        return try body(self, arguments)
      })
  }

  /// Runs Lua code of this tree's state on behalf of the tree (an action, a filter): with
  /// the tree lock set aside, so the state's lock is never awaited while holding it.
  func callingLua<T>(_ body: () throws -> T) throws -> T {
    try treeLock.withoutLock { try lua.withLock { _ in try body() } }
  }

  /// A bridge entry point that runs holding the tree lock.
  static func locked<A, R>(_ body: @escaping (A) throws -> R) -> (A) throws -> R {
    let lock = View.treeLock
    return { a in try lock.withLock { try body(a) } }
  }

  /// A bridge entry point that runs holding the tree lock.
  static func locked<A, B, R>(_ body: @escaping (A, B) throws -> R) -> (A, B) throws -> R {
    let lock = View.treeLock
    return { a, b in try lock.withLock { try body(a, b) } }
  }

  /// A bridge entry point that runs holding the tree lock.
  static func locked<A, B, C, R>(_ body: @escaping (A, B, C) throws -> R) -> (A, B, C) throws -> R {
    let lock = View.treeLock
    return { a, b, c in try lock.withLock { try body(a, b, c) } }
  }

  /// Throws unless Lua may move, remove or rename `view`: `ui.root` stays where the host
  /// put it.
  func checkMovable(_ view: View, _ action: String) throws {
    guard view !== root else {
      throw LuaError(kind: .runtime, message: "cannot \(action) ui.root")
    }
  }

  /// Throws if `view` lies inside an isolated boundary below ``root`` (a plugin's panel,
  /// seen from the host): another state owns it and runs its handlers on its own thread, so
  /// this state's handlers and views must not go there (that thread would then wait for
  /// this state's lock while holding its own: a lock-order cycle).
  func checkOwned(_ view: View, _ action: String) throws {
    var node: View? = view
    while let current = node, current !== root {
      if current.boundary?.isIsolated == true {
        throw LuaError(
          kind: .runtime, message: "cannot \(action) \(view.path): it belongs to \(current.path)")
      }
      node = current.parent
    }
  }

  /// Throws unless `view` is within this script's reach: inside ``root``'s subtree, or in a
  /// detached subtree whose top view this script made. Where a view sits decides, not who
  /// made it: a plugin's view that the host's Swift code moves out of the plugin's panel is
  /// out of the plugin's reach from then on, so a plugin cannot follow its own views
  /// into the host's part of the tree.
  ///
  /// A script whose `ui.root` is a top of its tree (the host's window) reaches whatever it
  /// holds: the walk, which costs the view's depth on every bridge call, is skipped. What
  /// isolation needs is kept: such a script still cannot change another state's views
  /// (``checkOwned(_:_:)``), and a plugin's root is never a top (its panel has a parent).
  func checkReach(_ view: View) throws {
    // `depth` is kept until the tree's shape changes; `parent` is a weak load and a
    // release (about 200 instructions), on every bridge call.
    if root.depth == 0 { return }
    var node = view
    while node !== root {
      guard let parent = node.parent else {
        if node.memoryAccount === memoryAccount { return }
        throw LuaError(
          kind: .runtime, message: "view \(view) is outside this script's reach (ui.root)")
      }
      node = parent
    }
  }

  /// The deepest a script may put a view: how many ancestors it may have, counted to the
  /// top of its tree (the host's window, or the top of a subtree the script has not added
  /// yet). Everything that walks up from a view (reach and ownership checks, `path`,
  /// environment reads, error routing) costs its depth, under the process-wide tree lock
  /// and between two of Lua's stop checks, so an unbounded depth let a script make every
  /// call on its deepest view as slow as its memory allowed (a chain 380,000 views deep
  /// under the default 256 MB: 35–95 ms a call). Views the host's Swift code places are
  /// not limited.
  public static let maximumDepth = 1_000

  /// Throws unless `child`, and every view below it, would stay within ``maximumDepth``
  /// under `parent`. A move that puts the subtree no deeper than it is costs two walks up;
  /// one that puts it deeper also walks the subtree, stopping at the first view too deep.
  func checkDepth(of child: View, in parent: View) throws {
    let depth = parent.depth + 1
    guard depth > child.depth else { return }
    let room = Self.maximumDepth - depth
    guard try room < 0 || child.height(notCountingPast: room, checkingForStop: checkForStop) > room
    else { return }
    throw LuaError(
      kind: .runtime,
      message:
        "cannot place the view there: it or a view inside it would be more than \(Self.maximumDepth) levels deep"
    )
  }

  /// Throws if the running script must stop (see `LuaState.checkForStop(charging:)`),
  /// charging a batch of walked views to its instruction budget: for walks whose length the
  /// script chooses. Checks nothing where no call of this state runs on this thread (the
  /// host placing the views a Reset's `on_reset` returned holds only the tree lock, and a
  /// use of the state there would be a use without its lock).
  func checkForStop() throws {
    guard lua.lock.isHeldByCurrentThread else { return }
    try lua.checkForStop(charging: View.scriptWalkBatch)
  }

  /// Throws unless a script may move `child` under `parent`: the checks of
  /// ``place(_:in:atPosition:)``, which a list of views to place runs on every view first,
  /// so that a refusal leaves each where it was.
  func checkPlacement(of child: View, in parent: View) throws {
    try checkReach(child)
    try checkReach(parent)
    try checkMovable(child, "move")
    try checkOwned(child, "move")
    try checkOwned(parent, "move into")
    try checkDepth(of: child, in: parent)
  }

  /// Moves each of `children` under `parent`, last, in order, once every one of them has
  /// passed the checks (a refused view left the views before it moved into a view the
  /// script then never got).
  func placeAll(_ children: [View], in parent: View) throws {
    for child in children { try checkPlacement(of: child, in: parent) }
    for child in children { try place(child, in: parent, atPosition: nil) }
  }

  /// Moves `child` under `parent` (at the 1-based `position`, or last), after the checks
  /// every move from Lua makes: `ui.root` stays put, both views are within reach, neither
  /// may belong to another state, and no view goes deeper than ``maximumDepth``.
  func place(_ child: View, in parent: View, atPosition position: Int?) throws {
    try checkPlacement(of: child, in: parent)
    // Lua counts from 1: a position below 1 is out of range, named as the script gave it.
    let index = position.map { $0 > 0 ? $0 - 1 : -1 }
    do {
      try child.move(to: parent, at: index)
    } catch let error {
      guard case .indexOutOfRange(_, let count) = error, let position else { throw error }
      throw LuaError(
        kind: .runtime, message: "position \(position) is out of range 1...\(count + 1)")
    }
  }

  /// The longest id, in bytes, a script may give a view. An id is part of the view's
  /// `path`, which every alert from the view's subtree carries and the host shows,
  /// and a script's `find` compares ids whole under the tree lock: an 80 MB id made each
  /// error routed from below it take 2.5 s to show, and one `find` 475 ms.
  public static let maximumIDLength = 1_024

  /// Throws unless a script may give a view `id`: a `/` would make paths ambiguous
  /// (`a/b` as one id, or two levels), and paths name views in alerts and the error log;
  /// an id is at most ``maximumIDLength`` bytes.
  static func checkID(_ id: String) throws {
    try checkIDLength(id.utf8.count)
    guard !id.utf8.contains(UInt8(ascii: "/")) else {
      throw LuaError(
        kind: .runtime,
        message:
          "bad view id '\(id.visibleControls(keepingNewlines: false))': '/' separates the levels of a path"
      )
    }
  }

  /// Throws unless an id of `bytes` bytes is short enough: checked before a script's string
  /// is converted, where it can be.
  static func checkIDLength(_ bytes: Int) throws {
    guard bytes <= maximumIDLength else {
      throw LuaError(
        kind: .runtime, message: "bad view id: \(bytes) bytes long (at most \(maximumIDLength))")
    }
  }

  static var goneError: LuaError {
    LuaError(kind: .usage, message: "the view tree's Lua state is gone")
  }

  /// The view a Lua value holds, or a Lua error naming the argument.
  static func view(_ value: LuaValue?, argument: String = "view") throws -> View {
    guard case .userdata(let userdata)? = value, let view = userdata.object(as: View.self) else {
      throw badView(value, argument: argument)
    }
    return view
  }

  /// The view that `self` (argument 1) of a call holds, read in place, or a Lua error
  /// naming `self`.
  static func receiver(_ arguments: LuaArguments) throws -> View {
    if let view = arguments.object(at: 1, as: View.self) { return view }
    throw badView(arguments.count > 0 ? .some(arguments[1]) : .none, argument: "self")
  }

  private static func badView(_ value: LuaValue?, argument: String) -> LuaError {
    LuaError(
      kind: .runtime,
      message: "bad \(argument): view expected, got \(value?.typeName ?? "no value")")
  }
}
