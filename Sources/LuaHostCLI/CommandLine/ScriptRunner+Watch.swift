import LuaHost

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - --watch

extension ScriptRunner {
  /// Watches the plugins folder (`--watch`), reporting each reload, load, unload and
  /// failure on stderr.
  static func watch(_ directory: String, with host: PluginHost) throws -> PluginWatcher {
    let watcher = try host.watch(directory)
    let events = watcher.events
    Task.detached {
      for await event in events {
        let line =
          switch event {
          case .reloaded(let name): "reloaded plugin \(name)"
          case .loaded(let name): "loaded plugin \(name)"
          case .unloaded(let name): "unloaded plugin \(name) (its files are gone)"
          case .failed(let name, let error): "plugin \(name): \(error)"
          }
        StandardStreams.error("luahost: watch: \(line.visibleControls())\n")
      }
    }
    return watcher
  }

  /// Reads stdin to its end, discarding it: `--watch` without a script runs until then.
  static func waitForEndOfInput() {
    StandardStreams.flush()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(0, &buffer, buffer.count)
      if count > 0 || (count < 0 && errno == EINTR) { continue }
      return
    }
  }
}
