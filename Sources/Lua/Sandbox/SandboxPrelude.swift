import CLua

extension LuaState {
  /// The sandbox's policy, in Lua: it runs once per state, before any script, and replaces
  /// globals with the versions in `lib` (C functions that behave as liblua's but
  /// stop; see `lh_lib.c`). Scripts can reach only what it leaves.
  ///
  /// `...` is its hooks, in this order (passed by `applySandbox` as arguments, not in a
  /// table, which costs a table and seven stores per sandbox):
  /// - `lib`: the sandbox's C functions, and `loaded` (the registry's `package.loaded`);
  /// - `write`: takes one printed line;
  /// - `readmodule`: a path to the file's text, or nil outside the module folder;
  /// - `path`: the `package.path` that `require` searches ("" without a module folder);
  /// - `fullos`, `fullpackage`, `fulldebug`: whether those capabilities were granted.
  ///
  /// Every sandbox runs it when it is made (compiled once per process: see
  /// ``sandboxPreludeBytecode``), so a syntax error here fails every test at once.
  static let sandboxPrelude = #"""
    local lib, write, readmodule, path, fullos, fullpackage, fulldebug = ...
    local G = _G

    G.dofile, G.loadfile = nil, nil
    G.load = lib.load
    G.xpcall = lib.xpcall
    G.setmetatable = lib.setmetatable
    G.collectgarbage = lib.makecollectgarbage(collectgarbage)
    G.print = lib.makeprint(write)

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
    if not fullos then
      local os = G.os
      G.os = {clock = os.clock, time = os.time, date = os.date, difftime = os.difftime}
      lib.loaded.os = G.os
    end

    if not fulldebug then
      G.debug = lib.debug
      lib.loaded.debug = G.debug
    end

    if not fullpackage then
      local package = {
        config = '/\n;\n?\n!\n-\n',
        loaded = lib.loaded,
        preload = {},
        path = path,
      }
      G.package = package
      lib.loaded.package = package  -- as stock lists every loaded library, package too
      G.require = lib.makerequire(package, readmodule)
    end
    """#

  /// The prelude's name in tracebacks and error messages.
  static let sandboxPreludeName = "=luahost:sandbox"

  /// ``sandboxPrelude`` compiled once per process, as Lua bytecode with its debug
  /// information (its errors and tracebacks read as the source's), or `nil` if it does not
  /// compile (each sandbox then compiles the text, and fails with the syntax error).
  ///
  /// Compiling the prelude was most of the cost of making a sandbox (case 7a in
  /// BENCHMARKS.md); loading the bytecode is a fraction of it. Only the host loads
  /// bytecode, and only these bytes, which this process made with this liblua: scripts
  /// still cannot (their `load` is text only).
  package static let sandboxPreludeBytecode: [UInt8]? = {
    guard let L = luaL_newstate() else { return nil }
    defer { lua_close(L) }
    var text = sandboxPrelude
    let status = text.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        luaL_loadbufferx(L, $0.baseAddress, $0.count, sandboxPreludeName, "t")
      }
    }
    guard status == LUA_OK else { return nil }
    var bytes: [UInt8] = []
    let failed = withUnsafeMutablePointer(to: &bytes) { buffer in
      lua_dump(
        L,
        { _, data, size, buffer in
          guard let data, let buffer else { return 1 }
          buffer.assumingMemoryBound(to: [UInt8].self).pointee.append(
            contentsOf: UnsafeRawBufferPointer(start: data, count: size))
          return 0
        }, buffer, 0)
    }
    return failed == 0 ? bytes : nil
  }()
}
