extension LuaState {
  /// The sandbox's policy, in Lua: it runs once per state, before any script, and replaces
  /// globals with the versions in `hooks.lib` (C functions that behave as liblua's but
  /// stop; see `lh_lib.c`). Scripts can reach only what it leaves.
  ///
  /// `...` is one table of named hooks, built by `applySandbox`:
  /// - `lib`: the sandbox's C functions, and `loaded` (the registry's `package.loaded`);
  /// - `write`: takes one printed line;
  /// - `readmodule`: a path to the file's text, or nil outside the module folder;
  /// - `path`: the `package.path` that `require` searches ("" without a module folder);
  /// - `fullos`, `fullpackage`, `fulldebug`: whether those capabilities were granted.
  ///
  /// Every sandbox runs it when it is made, so the tests compile it hundreds of times: a
  /// syntax error here fails them all at once.
  static let sandboxPrelude = #"""
    local hooks = ...
    local lib = hooks.lib
    local G = _G

    G.dofile, G.loadfile = nil, nil
    G.load = lib.load
    G.xpcall = lib.xpcall
    G.setmetatable = lib.setmetatable
    G.collectgarbage = lib.makecollectgarbage(collectgarbage)
    G.print = lib.makeprint(hooks.write)

    local string, table = G.string, G.table
    string.dump = nil
    for _, name in ipairs({'rep', 'find', 'match', 'gmatch', 'gsub'}) do
      string[name] = lib[name]
    end
    for _, name in ipairs({'concat', 'insert', 'remove', 'move', 'sort'}) do
      table[name] = lib[name]
    end

    getmetatable('').__metatable = 'locked'

    G.os.date = lib.makeosdate(G.os.date)
    if not hooks.fullos then
      local os = G.os
      G.os = {clock = os.clock, time = os.time, date = os.date, difftime = os.difftime}
      lib.loaded.os = G.os
    end

    if not hooks.fulldebug then
      G.debug = lib.debug
      lib.loaded.debug = G.debug
    end

    if not hooks.fullpackage then
      local package = {
        config = '/\n;\n?\n!\n-\n',
        loaded = lib.loaded,
        preload = {},
        path = hooks.path,
      }
      G.package = package
      lib.loaded.package = package  -- as stock lists every loaded library, package too
      G.require = lib.makerequire(package, hooks.readmodule)
    end
    """#
}
