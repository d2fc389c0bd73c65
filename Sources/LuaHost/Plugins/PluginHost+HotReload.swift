import Lua
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Hot reload

extension PluginHost {
  /// Loads the plugin named `name` again from its files into a fresh sandbox, and swaps it
  /// in only once its main chunk has run cleanly up to its first wait; until then, and if
  /// that fails, the version loaded before keeps running.
  ///
  /// The old version's global `on_unload`, if it defines one, is called first; what it
  /// returns (plain data: nil, booleans, numbers, strings, nested tables of those, at most
  /// 32 deep and 100,000 values) is copied into the new state and passed to the new main
  /// chunk as its `...` (`local previous = ...`). `on_unload` runs on every attempt, also
  /// one that then fails, so it should only read state, not tear it down. A failing
  /// `on_unload`, or a value that is not plain data, is reported on the host's output and
  /// the new version gets nil.
  ///
  /// On a swap the new panel takes the old one's place, and the old version is unloaded:
  /// its timers and waiting work are cancelled, and none of them runs afterwards.
  /// - Returns: the new version.
  /// - Throws: ``PluginError/unknownPlugin(_:)``, or
  ///   ``PluginError/reloadFailed(plugin:reason:loadedAt:)``, which also shows on the old
  ///   version's panel as an alert.
  @discardableResult
  public func hotReload(_ name: String) throws -> Plugin {
    guard let old = plugin(named: name) else { throw PluginError.unknownPlugin(name) }
    let state = handoff(from: old)
    let made: MadePlugin
    do {
      made = try make(path: old.path, policy: old.policy, checkingName: false)
    } catch {
      throw failedReload(of: old, reason: "\(error)")
    }
    guard made.plugin.name == old.name else {
      made.plugin.unload()
      throw failedReload(
        of: old,
        reason: "its manifest renames it to \(made.plugin.name) (unload it and load that instead)")
    }
    if let error = start(made, previousState: state) {
      made.plugin.unload()
      throw failedReload(of: old, reason: (error as? LuaError)?.message ?? "\(error)")
    }
    switch swap(old, for: made.plugin) {
    case .swapped: break
    case .gone:
      made.plugin.unload()
      throw PluginError.unknownPlugin(name)
    case .tooDeep:
      made.plugin.unload()
      throw failedReload(
        of: old,
        reason:
          "its views would go more than \(ScriptedTree.maximumDepth) levels deep in the tree")
    }
    old.unload()
    return made.plugin
  }

  /// Calls `old`'s `on_unload` and copies what it returns; nil (reported) if it fails.
  private func handoff(from old: Plugin) -> PluginHandoff? {
    var state: PluginHandoff?
    let failure = old.attempt { lua in
      guard case .function(let function) = try lua.globals().rawGet("on_unload") else { return }
      state = try PluginHandoff(copying: function.call().first ?? .nil)
    }
    if let failure {
      let reason = (failure as? LuaError)?.message ?? "\(failure)"
      // The reason is the plugin's error message: escaped, so it cannot drive the terminal
      // or start a line that looks like another plugin's.
      output(
        "[\(old.name)] on_unload failed: \(reason.visibleControls(keepingNewlines: false)); "
          + "the new version starts without state")
      return nil
    }
    return state
  }

  /// The error of a failed reload of `old`, shown on its panel.
  private func failedReload(of old: Plugin, reason: String) -> PluginError {
    var stamp = [CChar](repeating: 0, count: 16)
    var seconds = old.loadedAt
    var parts = tm()
    localtime_r(&seconds, &parts)
    _ = strftime(&stamp, stamp.count, "%H:%M:%S", &parts)
    let error = PluginError.reloadFailed(
      plugin: old.name, reason: reason,
      loadedAt: String(decoding: stamp.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
    old.show(loadFailure: error)
    return error
  }

  /// What became of a swap of one version of a plugin for another.
  private enum SwapOutcome {
    case swapped
    /// `old` is not loaded any more (another thread unloaded or replaced it).
    case gone
    /// The new version's views would go deeper than `ScriptedTree.maximumDepth`: its main
    /// chunk ran while its panel was in no tree (at depth 0), so the limit could not count
    /// the levels above the panel then.
    case tooDeep
  }

  /// Puts `new` in `old`'s place, in the list and in the container, if its views fit there.
  private func swap(_ old: Plugin, for new: Plugin) -> SwapOutcome {
    View.treeLock.withLock {
      registry.withLock { registry in
        guard let index = registry.plugins.firstIndex(where: { $0 === old }) else { return .gone }
        let room = ScriptedTree.maximumDepth - container.depth - 1
        let height = new.panel.height(notCountingPast: max(room, 0), checkingForStop: {})
        guard room >= 0, height <= room else { return .tooDeep }
        let panelIndex = container.children.firstIndex { $0 === old.panel }
        _ = old.panel.removeFromParent()
        do {
          try insert(new.panel, at: panelIndex)
        } catch {
          try? insert(old.panel, at: panelIndex)
          return .gone
        }
        registry.plugins[index] = new
        return .swapped
      }
    }
  }
}
