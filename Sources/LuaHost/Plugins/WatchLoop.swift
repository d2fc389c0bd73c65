#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``PluginWatcher``'s thread: reads inotify events, waits for the folder to be quiet,
/// then applies the changes to the host.
final class WatchLoop: @unchecked Sendable {
  // `@unchecked Sendable` is justified: `folders` is written by `watch` before `start` and
  // afterwards only on the loop's own thread; everything else is immutable.
  let host: PluginHost
  let directory: String
  let notifications: Int32
  let wake: Int32
  /// Closed when the loop ends, so that ``PluginWatcher/stop()`` can wait for it.
  let done: Int32
  let events: AsyncStream<PluginWatcher.Event>.Continuation
  /// Each watch descriptor's plugin folder (its entry in `directory`); nil for the folder.
  private var folders: [Int32: String?] = [:]

  init(
    host: PluginHost, directory: String, notifications: Int32, wake: Int32, done: Int32,
    events: AsyncStream<PluginWatcher.Event>.Continuation
  ) {
    self.done = done
    self.host = host
    self.directory = directory
    self.notifications = notifications
    self.wake = wake
    self.events = events
  }

  /// What a watch reports: a file written, made, removed or renamed in the folder.
  private static let mask: UInt32 =
    0x0000_0002 | 0x0000_0008 | 0x0000_0040 | 0x0000_0080 | 0x0000_0100 | 0x0000_0200
  // IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
  private static let isDirectoryFlag: UInt32 = 0x4000_0000  // IN_ISDIR

  /// Watches `path`, a plugin folder named `entry` (nil for the plugins folder itself).
  func watch(_ path: String, as entry: String?) -> Bool {
    let descriptor = inotify_add_watch(notifications, path, Self.mask)
    guard descriptor >= 0 else { return false }
    folders[descriptor] = entry
    return true
  }

  /// Starts the loop's thread; it ends when the watcher's pipe is written or closed.
  func start() {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    let made = pthread_create(
      &thread, nil,
      { context in
        let loop = Unmanaged<WatchLoop>.fromOpaque(context!).takeRetainedValue()
        loop.run()
        return nil
      }, context)
    if made == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<WatchLoop>.fromOpaque(context).release()
      finish()
    }
  }

  private func finish() {
    events.finish()
    close(notifications)
    close(wake)
    close(done)
  }

  /// Waits for a change, then for ``PluginWatcher/quietPeriod`` without one, and applies
  /// what changed; until the watcher stops.
  private func run() {
    defer { finish() }
    var changed: Set<String> = []
    // Once inotify fails, the loop only waits to be stopped: it ends, and closes the
    // pipe's read end, only after the watcher's last write to it.
    var listening = true
    while true {
      let quiet = PluginWatcher.quietPeriod.components
      let timeout = changed.isEmpty ? -1 : Int32(quiet.attoseconds / 1_000_000_000_000_000)
      var fds = [
        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        pollfd(fd: notifications, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, listening ? 2 : 1, timeout)
      if ready < 0 {
        if errno != EINTR { listening = false }
        continue
      }
      if fds[0].revents != 0 { return }
      if ready == 0 {
        apply(changed)
        changed = []
        continue
      }
      if !readEvents(into: &changed) { listening = false }
    }
  }

  /// Reads the pending inotify events, adding the entries they touch to `changed`.
  private func readEvents(into changed: inout Set<String>) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    let count = buffer.withUnsafeMutableBytes { read(notifications, $0.baseAddress, $0.count) }
    if count < 0 { return errno == EINTR || errno == EAGAIN }
    var offset = 0
    // Each event: wd (Int32), mask, cookie, len (UInt32), then `len` bytes of name.
    while offset + 16 <= count {
      let descriptor = buffer.load(Int32.self, at: offset)
      let mask = buffer.load(UInt32.self, at: offset + 4)
      let length = Int(buffer.load(UInt32.self, at: offset + 12))
      let name = String(
        decoding: buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 },
        as: UTF8.self)
      offset += 16 + length
      guard let folder = folders[descriptor] else { continue }
      if let folder {
        changed.insert(folder)
      } else if !name.isEmpty && !name.hasPrefix(".") {
        changed.insert(name)
        let path = directory + "/" + name
        if mask & Self.isDirectoryFlag != 0 && PluginHost.isDirectory(path) {
          _ = watch(path, as: name)
        }
      }
    }
    return true
  }

  /// Brings the plugins of the `changed` entries in step with their files: removals first,
  /// then reloads and loads.
  private func apply(_ changed: Set<String>) {
    var present: [String] = []
    for entry in changed.sorted() {
      let path = directory + "/" + entry
      var info = stat()
      if lstat(path, &info) == 0 {
        present.append(entry)
      } else if let plugin = host.plugins.first(where: { $0.path == path }) {
        if (try? host.unload(plugin.name)) != nil { events.yield(.unloaded(plugin.name)) }
      }
    }
    for entry in present {
      let path = directory + "/" + entry
      if let plugin = host.plugins.first(where: { $0.path == path }) {
        do {
          events.yield(.reloaded(try host.hotReload(plugin.name).name))
        } catch {
          events.yield(.failed(plugin.name, Self.pluginError(error, entry: entry)))
        }
      } else if entry.hasSuffix(".lua")
        ? PluginHost.isFile(path)
        : PluginHost.isFile(
          path + "/init.lua")
      {
        do {
          events.yield(.loaded(try host.load(path: path).name))
        } catch {
          events.yield(.failed(entry, Self.pluginError(error, entry: entry)))
        }
      }
    }
  }

  private static func pluginError(_ error: any Error, entry: String) -> PluginError {
    error as? PluginError ?? .cannotLoad(plugin: entry, reason: "\(error)")
  }
}

extension [UInt8] {
  /// The `T` stored at `offset`, which need not be aligned.
  fileprivate func load<T>(_ type: T.Type, at offset: Int) -> T {
    withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
  }
}
