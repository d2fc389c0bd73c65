// TaskBoard: a small tasks app that embeds LuaHost.
//
//   taskboard [--plugins DIR]     reads console lines from stdin, prints replies and alerts
//
// It shows each part of the library: its own Swift components (`task_list`, `slider`) for
// its scripts and plugins, a `tasks` module granted by capability, a boundary per plugin
// (one plugin is broken on purpose), and an embedded Lua console.

import Foundation
import Lua
import LuaHost
import ViewTree

var pluginFolder: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--plugins" where !arguments.isEmpty: pluginFolder = arguments.popFirst()
  default:
    FileHandle.standardError.write(Data("usage: taskboard [--plugins DIR] < console-lines\n".utf8))
    exit(2)
  }
}

let store = TaskStore(["Buy milk", "Write the report", "Call the plumber"])
let components = [try TaskList.component(store: store), try Slider.component()]

// Alerts print as they are raised, in the plain form (the console's transcript).
let presenter = TranscriptAlertPresenter { print($0, terminator: "") }
let window = Window(id: "app", title: "TaskBoard", presenter: presenter) {
  AppWindow(store: store)
}.makeView()
store.onChange.append { [weak window] in
  window?.find("heading")?.properties["text"] = .string("TaskBoard: \(store.openCount) open")
}

// Plugins: sandboxed, 16 MiB and 1 s per call each, with the app's components; the
// `tasks` module goes to those whose manifest asks for it, since the app allows it.
var limits = LuaSandbox()
limits.memoryLimit = 16 << 20
limits.timeout = .seconds(1)
let plugins = PluginHost(
  container: window.find("plugins")!, allowed: ["tasks"], limits: limits,
  components: components, modules: [try TasksModule.module(store: store)])
if let pluginFolder {
  for case .failure(let error) in plugins.loadAll(in: pluginFolder) {
    print("plugin not loaded: \(error)")
  }
}

// The console: the app's own Lua, sandboxed too, scripting the whole window.
let console: ReplSession
do {
  console = try ReplSession(
    makeState: { try LuaState(sandbox: LuaSandbox()) }, makeWindow: { window },
    components: components, profile: "TaskBoard console: sandboxed, 64 MiB, 10 s per line")
} catch {
  FileHandle.standardError.write(Data("taskboard: cannot start the console: \(error)\n".utf8))
  exit(1)
}
console.pluginHost = plugins

while true {
  print(console.prompt, terminator: "")
  guard let line = readLine(strippingNewline: true) else { break }
  print(line)
  var reply = console.submit(line)
  if case .waiting(let evaluation) = reply { reply = await evaluation.reply() }  // timer.sleep…
  switch reply {
  case .output(let text): if !text.isEmpty { print(text) }
  case .error(let text): print("error: \(text)")
  case .incomplete, .waiting: continue
  case .exit: exit(0)
  }
  _ = console.takeAlerts()  // the presenter has printed them already
}
print()
