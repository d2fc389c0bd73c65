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
    // Said once the watch is set: an edit saved from now on is seen (one saved while the
    // plugins loaded, before, may not be).
    StandardStreams.error("luahost: watch: watching \(directory.visibleControls()) for changes\n")
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

  /// Reads stdin to its end, discarding it (`--watch` without a script runs until then),
  /// or until `end` passes, or until `going` says no (a tick of 100 ms reads it).
  static func waitForEndOfInput(
    until end: ContinuousClock.Instant?, orWhile going: () -> Bool = { true }
  ) {
    StandardStreams.flush()
    var buffer = [UInt8](repeating: 0, count: 4096)
    var input = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    while end.map({ ContinuousClock.now < $0 }) ?? true, going() {
      // A tick of 100 ms, so that the end is seen while stdin stays open.
      let ready = poll(&input, 1, 100)
      if ready < 0 && errno != EINTR { return }
      guard ready > 0 else { continue }
      let count = read(0, &buffer, buffer.count)
      if count > 0 || (count < 0 && (errno == EINTR || errno == EAGAIN)) { continue }
      return
    }
  }
}
