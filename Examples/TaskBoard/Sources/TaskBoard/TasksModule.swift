import Lua
import LuaHost

/// `require "tasks"`: the store for plugins granted the `tasks` capability.
/// `tasks.count()` (open tasks), `tasks.titles()`, `tasks.add(title)`.
enum TasksModule {
  static func module(store: TaskStore) throws -> HostModule {
    try HostModule("tasks", capability: "tasks") { lua in
      let module = try lua.makeTable()
      try module.set("count", .function(lua.function { () in store.openCount }))
      try module.set("titles", .function(lua.function { () in store.tasks.map(\.title) }))
      try module.set(
        "add",
        .function(
          lua.function { (title: String) in
            try store.add(title)
            return store.tasks.count
          }))
      return .table(module)
    }
  }
}
