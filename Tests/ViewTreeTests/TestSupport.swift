import ViewTree

/// The seed's error.
struct MyError: Error {}

/// An error with a message, for telling errors apart.
struct Boom: Error, CustomStringConvertible {
  var message: String
  init(_ message: String) { self.message = message }
  var description: String { "boom: \(message)" }
}

/// An error that details itself, as the Lua layer's error will.
struct ScriptError: AlertDetailing {
  var alertMessage: String { "main.lua:3: attempt to index a nil value" }
  var sourceLocation: String? { "main.lua:3" }
  var tracebackText: String? { "stack traceback:\n\tmain.lua:3: in main chunk" }
}

/// Counts deinitialisations of the tokens it hands out.
final class DeinitCounter {
  var count = 0

  final class Token {
    let counter: DeinitCounter
    init(_ counter: DeinitCounter) { self.counter = counter }
    deinit { counter.count += 1 }
  }

  func token() -> Token { Token(self) }
}

/// A typed environment key with a default.
enum ThemeKey: EnvironmentKey {
  static let defaultValue = "light"
}

extension EnvironmentValues {
  var theme: String {
    get { self[ThemeKey.self] }
    nonmutating set { self[ThemeKey.self] = newValue }
  }
}

/// A button whose action throws `error`.
func throwingButton(_ id: String, _ error: any Error = MyError()) -> View {
  View.button(id.capitalized, id: id) { _ in throw error }
}

/// `root/guard/deep/crash` with a recorder on the window. Hold it to keep the tree:
/// views do not keep their ancestors alive.
struct SeedTree {
  let root: View
  let guardView: View
  let crash: View
  let presenter: RecordingAlertPresenter
}

/// Makes a ``SeedTree``.
func seedTree() throws -> SeedTree {
  let presenter = RecordingAlertPresenter()
  let root = View.window()
  root.environment.alertPresenter = presenter
  let guardView = try root.add(.boundary(id: "guard"))
  let deep = try guardView.add(.stack(id: "deep"))
  let crash = try deep.add(throwingButton("crash"))
  return SeedTree(root: root, guardView: guardView, crash: crash, presenter: presenter)
}

/// A straight chain `depth` views deep under a window; returns the root and the leaf.
func chain(depth: Int) throws -> (root: View, leaf: View) {
  let root = View.window()
  var leaf = root
  for level in 1..<depth {
    leaf = try leaf.add(View.stack(id: "s\(level)"))
  }
  return (root, leaf)
}

extension String {
  fileprivate var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
