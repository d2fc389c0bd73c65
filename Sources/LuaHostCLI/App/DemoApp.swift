import LuaHost
import ViewTree

/// The app tree the REPL starts with: a window with a few panels, a boundary and a
/// "Crash" button, so that `ui.find("crash"):tap()` shows an alert at once.
package enum DemoApp {
  /// The error the demo's Crash button throws (a Swift error, to show both kinds).
  package struct CrashError: Error, CustomStringConvertible {
    /// "The Crash button crashed, as promised."
    package var description: String { "The Crash button crashed, as promised." }
  }

  /// Builds the tree:
  /// ```
  /// root (window)
  /// ├─ settings (stack): greeting (text), name (text_field)
  /// ├─ guard (boundary "Error" / "That sucks")
  /// │  └─ deep (stack)
  /// │     └─ crash (button "Crash")
  /// └─ plugins (stack)
  /// ```
  package static func makeWindow() -> View {
    let root = View.window(id: "root", title: "LuaHost")
    let settings = View.stack(id: "settings")
    let guardView = View.boundary(id: "guard")
    let deep = View.stack(id: "deep")
    let crash = View.button("Crash", id: "crash") { _ in throw CrashError() }
    // Adding fresh views to fresh parents cannot fail (no cycles, no re-parenting).
    _ = try? settings.add(View.text("Hello from LuaHost", id: "greeting"))
    _ = try? settings.add(View.textField("Name", id: "name"))
    _ = try? deep.add(crash)
    _ = try? guardView.add(deep)
    _ = try? root.add(settings)
    _ = try? root.add(guardView)
    _ = try? root.add(View.stack(id: "plugins"))
    return root
  }
}
