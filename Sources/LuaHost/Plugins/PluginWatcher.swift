import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Watches a plugins folder and keeps its plugins in step with their files: a changed
/// plugin is hot-reloaded (``PluginHost/hotReload(_:)``, so a broken edit keeps the last
/// good version running), a new one is loaded, and a removed one is unloaded. Made by
/// ``PluginHost/watch(_:)``.
///
/// Watching costs nothing while no file changes: the kernel's inotify wakes a thread of the
/// watcher's own, which sleeps in `poll` otherwise. A burst of saves (an editor's write,
/// rename and touch) is taken as one change once the folder has been quiet for
/// ``quietPeriod``. A plugin is the folder's entry (`name.lua`, or a folder with
/// `init.lua`); a change anywhere directly inside a plugin's folder counts as a change of
/// that plugin, but folders nested deeper are not watched.
///
/// A rename is an unload of the old name and a load of the new one; unloads are done
/// before loads, so a folder whose manifest keeps its name can be renamed. Each outcome is
/// sent on ``events``, in order, for an app's log (or a test) to follow.
public final class PluginWatcher: Sendable {
  /// What the watcher did after a change.
  public enum Event: Sendable, Equatable {
    /// The plugin was hot-reloaded: its new version runs.
    case reloaded(String)
    /// A plugin that was not loaded (new, or broken until now) was loaded.
    case loaded(String)
    /// The plugin's file or folder is gone, so it was unloaded.
    case unloaded(String)
    /// Loading or reloading the plugin (by its name, or its entry in the folder when it
    /// never loaded) failed; a loaded version keeps running, with the alert on its panel.
    case failed(String, PluginError)
  }

  /// How long the folder must be quiet after a change before the watcher acts on it.
  public static let quietPeriod: Duration = .milliseconds(100)

  /// The outcomes of the changes, in order. Finishes once the watcher is stopped.
  public let events: AsyncStream<Event>
  /// The folder watched.
  public let directory: String
  private let wakeWrite: Int32
  /// Reads end of file once the loop's thread has ended.
  private let doneRead: Int32
  private let stopped = Atomic<Bool>(false)

  init(host: PluginHost, directory: String) throws {
    let notifications = inotify_init1(Int32(Self.closeOnExec))
    guard notifications >= 0 else {
      throw PluginError.unreadableFolder(path: directory, reason: String(cString: strerror(errno)))
    }
    var pipeEnds: [Int32] = [0, 0]
    var doneEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      let reason = String(cString: strerror(errno))
      close(notifications)
      throw PluginError.unreadableFolder(path: directory, reason: reason)
    }
    guard pipe(&doneEnds) == 0 else {
      let reason = String(cString: strerror(errno))
      for end in [notifications] + pipeEnds { close(end) }
      throw PluginError.unreadableFolder(path: directory, reason: reason)
    }
    let (stream, continuation) = AsyncStream<Event>.makeStream()
    let loop = WatchLoop(
      host: host, directory: directory, notifications: notifications, wake: pipeEnds[0],
      done: doneEnds[1], events: continuation)
    guard loop.watch(directory, as: nil) else {
      let reason = String(cString: strerror(errno))
      for end in [notifications] + pipeEnds + doneEnds { close(end) }
      throw PluginError.unreadableFolder(path: directory, reason: reason)
    }
    for entry in PluginHost.entries(of: directory)
    where PluginHost.isDirectory(directory + "/" + entry) {
      _ = loop.watch(directory + "/" + entry, as: entry)
    }
    self.directory = directory
    events = stream
    wakeWrite = pipeEnds[1]
    doneRead = doneEnds[0]
    loop.start()
  }

  deinit { stop() }

  /// Stops watching (the plugins stay loaded as they are) and finishes ``events``, once a
  /// change being applied has been applied: after it returns, the watcher loads nothing.
  /// Safe to call more than once, from any thread, but not while holding the tree lock (a
  /// plugin being loaded may wait for it).
  public func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
    close(wakeWrite)
    while read(doneRead, &byte, 1) != 0 && errno == EINTR {}
    close(doneRead)
  }

  /// `IN_CLOEXEC`, an enum in the C header.
  static let closeOnExec = 0o2_000_000
}

// MARK: - Hosting

extension PluginHost {
  /// Starts watching `directory` (a plugins folder, as ``loadAll(in:)`` loads it): from now
  /// on, a plugin whose files change is hot-reloaded, a new one is loaded and a removed one
  /// unloaded (see ``PluginWatcher``). The plugins already in it are not loaded by this
  /// call. Plugins are matched by path, `directory + "/" + entry`, as ``loadAll(in:)``
  /// makes them. Keep the watcher to keep watching: it stops when released.
  /// - Throws: ``PluginError/unreadableFolder(path:reason:)`` when the folder cannot be
  ///   watched.
  public func watch(_ directory: String) throws -> PluginWatcher {
    try PluginWatcher(host: self, directory: directory)
  }
}
