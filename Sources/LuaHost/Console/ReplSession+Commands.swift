import Lua
import ViewTree

extension ReplSession {
  /// The `.help` text.
  public static let help = """
    .help          this text
    .tree          draw the view tree
    .alerts        this session's alerts, with counts
    .choose N      press button N of the last alert (its default was taken)
    .details       the last alert's handler chain and traceback
    .load FILE     run a Lua file
    .reset         start over with a fresh state and app tree
    .sandbox       show the sandbox profile in effect
    .plugins       list the loaded plugins (.reload NAME, .unload NAME)
    .exit          leave (Ctrl-D does too)
    Anything else is Lua: an expression prints its value, `_` holds the last result.
    """

  /// Runs a `.command`; nil when the line is not a known command (it is then Lua).
  func command(_ line: String) -> Reply? {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    switch words[0] {
    case ".help": return .output(Self.help)
    case ".exit", ".quit": return .exit
    case ".tree": return .output(Self.drawTree(tree.root))
    case ".sandbox": return .output(profile)
    case ".plugins":
      guard let host = pluginHost, !host.plugins.isEmpty else {
        return .output("no plugins loaded")
      }
      return .output(
        host.plugins.map { plugin in
          let memory = plugin.memoryInUse.map { "\($0 / 1024) KiB" } ?? "unloaded"
          let (path, alert) = host.withTree { _ in
            (plugin.panel.path, plugin.panel.alert.map { " [alert: \($0.message)]" } ?? "")
          }
          // Names, versions, paths and messages are the plugins' text: shown escaped.
          return "\(plugin.name) \(plugin.manifest.version ?? "")  \(memory)  \(path)\(alert)"
            .visibleControls(keepingNewlines: false)
        }.joined(separator: "\n"))
    case ".reload", ".unload":
      guard let host = pluginHost, words.count > 1 else { return .error("usage: \(words[0]) NAME") }
      do {
        if words[0] == ".reload" { try host.reload(words[1]) } else { try host.unload(words[1]) }
        return .output("\(words[0] == ".reload" ? "reloaded" : "unloaded") \(words[1])")
      } catch {
        return .error("\(error)")
      }
    case ".alerts":
      if collector.history.isEmpty { return .output("no alerts yet") }
      return .output(
        collector.history.map {
          // A script's text, one line each: escaped, so it cannot drive the terminal or
          // forge a line of its own.
          "\($0.title.clipped()) ×\($0.count)  \($0.message.clipped())  [\($0.path.clipped())]"
            .visibleControls(keepingNewlines: false)
        }.joined(separator: "\n"))
    case ".choose":
      guard let (alert, _) = lastAlert else { return .error("no alert to choose from") }
      let buttons = alert.actions.enumerated().map {
        "\($0.offset + 1) \($0.element.label.visibleControls(keepingNewlines: false))"
      }
      // Compared, never subtracted first: `.choose -9223372036854775808` is a number too.
      guard words.count > 1, let number = Int(words[1].trimmingCharacters(in: " ")),
        number >= 1, number <= alert.actions.count
      else {
        return .error("usage: .choose N (buttons: \(buttons.joined(separator: " · ")))")
      }
      let label = alert.actions[number - 1].label
      let outcome = choose(at: number - 1).luaName.split(separator: "_").joined(separator: " ")
      return .output("chose \(label.visibleControls(keepingNewlines: false)): \(outcome)")
    case ".details":
      guard let (alert, _) = lastAlert else { return .error("no alert yet") }
      return .output(AlertFormatter.details(alert))
    case ".load":
      guard words.count > 1 else { return .error("usage: .load FILE") }
      do {
        let results = try lua.run(file: words[1].trimmingCharacters(in: " "))
        return .output(results.map(printer.format).joined(separator: "\t"))
      } catch let error as LuaError {
        return .error(error.consoleDescription)
      } catch {
        return .error("\(error)")
      }
    case ".reset":
      do {
        let window = try makeWindow()
        collector.attach(to: window)
        // The loaded plugins keep running: their container moves into the new window, in
        // place of its empty one, so `.plugins` and `ui.find` see them there.
        if let host = pluginHost {
          try host.withTree { container in
            if let empty = window.find(container.id), empty !== container {
              let index = empty.parent?.children.firstIndex { $0 === empty }
              let parent = empty.parent ?? window
              empty.removeFromParent()
              try container.move(to: parent, at: index)
            } else {
              try container.move(to: window)
            }
          }
        }
        let fresh = try makeState()
        // The old state's timers and waiting actions end with it, before it closes: left
        // running, a timer fired into the closed state and alerted in the new tree.
        View.treeLock.withLock { tree.root.cancelWork() }
        tree = try ScriptedTree(lua: fresh, root: window, components: components)
        lua.close()
        lua = fresh
        pendingChunk = []
        collector.clearPending()
        return .output("fresh state and app tree")
      } catch {
        return .error("\(error)")
      }
    default: return nil
    }
  }

  /// The most lines ``drawTree(_:)`` draws; the views past them are counted in one line.
  public static let treeLineLimit = 5_000
  /// The deepest nesting ``drawTree(_:)`` indents; the views below it are counted.
  public static let treeDepthLimit = 64

  /// The most bytes of a view's title, text or alert title that a line ``drawTree(_:)``
  /// draws shows.
  public static let treeTextLimit = 256

  /// The tree as lines such as `├─ guard (boundary) "Error" [alert ×2]`, drawn holding
  /// `View.treeLock` (plugins change their views from their own threads). Ids, titles
  /// and texts are a script's: control characters are shown escaped, so none can drive the
  /// terminal or start a line of its own. At most ``treeLineLimit`` lines, and views nested
  /// deeper than ``treeDepthLimit`` are counted, not drawn: a script's tree can be 100,000
  /// views deep, and each line repeats its ancestors' indent.
  public static func drawTree(_ root: View) -> String {
    View.treeLock.withLock {
      var lines: [String] = []
      var stack: [(view: View, prefix: String, isLast: Bool, depth: Int)] = [(root, "", true, 0)]
      var hidden = 0
      while let (view, prefix, isLast, depth) = stack.popLast() {
        guard lines.count < treeLineLimit else {
          hidden += view.subtreeCount
          continue
        }
        // A script's texts, cut before they are escaped: this runs under the tree lock.
        var label = "\(view.id) (\(view.kind.luaName))"
        if let title = view.title { label += " \"\(title.clipped(toBytes: Self.treeTextLimit))\"" }
        if let text = view.text { label += " \"\(text.clipped(toBytes: Self.treeTextLimit))\"" }
        if let alert = view.alert {
          let title = alert.title.clipped(toBytes: Self.treeTextLimit)
          label += " [alert: \(title)\(alert.count > 1 ? " ×\(alert.count)" : "")]"
        }
        label = label.visibleControls(keepingNewlines: false)
        lines.append(depth == 0 ? label : prefix + (isLast ? "└─ " : "├─ ") + label)
        let children = view.children
        guard !children.isEmpty else { continue }
        let childPrefix = depth == 0 ? "" : prefix + (isLast ? "   " : "│  ")
        guard depth < treeDepthLimit else {
          let deeper = children.reduce(0) { $0 + $1.subtreeCount }
          lines.append(
            childPrefix + "└─ … \(deeper) more view\(deeper == 1 ? "" : "s") nested deeper")
          continue
        }
        for (index, child) in children.enumerated().reversed() {
          stack.append((child, childPrefix, index == children.count - 1, depth + 1))
        }
      }
      if hidden > 0 { lines.append("… \(hidden) more view\(hidden == 1 ? "" : "s") not drawn") }
      return lines.joined(separator: "\n")
    }
  }
}

extension View {
  /// The view and all its descendants, counted without recursion. Call holding
  /// `View.treeLock`.
  fileprivate var subtreeCount: Int {
    var count = 0
    var stack = [self]
    while let view = stack.popLast() {
      count += 1
      stack.append(contentsOf: view.children)
    }
    return count
  }
}

extension String {
  func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}
