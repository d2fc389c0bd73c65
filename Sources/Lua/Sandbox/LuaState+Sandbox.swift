import CLuaShim

extension LuaState {
  /// Whether `value` is the error value of a host stop (timeout, interrupt, budget): Lua
  /// code that catches errors should rethrow these.
  public static func isStopValue(_ value: LuaValue) -> Bool {
    guard case .lightUserdata(let pointer?) = value else { return false }
    return (1...3).contains { lh_stop_marker(Int32($0)) == UnsafeRawPointer(pointer) }
  }

  /// Creates a state that runs untrusted code under `sandbox`.
  /// - Throws: ``LuaError`` when the state cannot be created.
  public convenience init(sandbox: LuaSandbox) throws {
    var libraries: LuaLibraries = [.safe, .os]
    if sandbox.capabilities.contains(.io) { libraries.insert(.io) }
    if sandbox.capabilities.contains(.package) { libraries.insert(.package) }
    if sandbox.capabilities.contains(.debug) { libraries.insert(.debug) }
    try self.init(libraries: libraries)
    try applySandbox(sandbox)
    memoryLimit = sandbox.memoryLimit
    timeout = sandbox.timeout
    instructionLimit = sandbox.instructionLimit
  }

  private func applySandbox(_ sandbox: LuaSandbox) throws {
    let output = sandbox.output
    let write = try function { arguments in
      let line = try LuaString(luaValue: arguments.first ?? "")
      if let output { output(line.description) } else { StandardOutput.writeLine(line) }
      return []
    }
    let isStop = try function { arguments in
      [.boolean(LuaState.isStopValue(arguments.first ?? .nil))]
    }
    let directory: LuaValue = sandbox.moduleDirectory.map { .string(LuaString($0)) } ?? .nil
    let readModule = try function { arguments in
      let path = try String(luaValue: arguments.first ?? .nil)
      guard let bytes = try? LuaState.readFile(path) else { return [.nil] }
      return [.string(LuaString(bytes: bytes))]
    }
    let patternCheck = try function { arguments in
      guard arguments.count >= 2, case .string(let subject) = arguments[0],
        case .string(let pattern) = arguments[1]
      else { return [true] }
      var start = try Int?(luaValue: arguments.count > 2 ? arguments[2] : .nil) ?? 1
      if start < 0 { start = max(subject.bytes.count + start + 1, 1) }
      let all = arguments.count > 3 && arguments[3].isTruthy
      let limit = try Int64?(luaValue: arguments.count > 4 ? arguments[4] : .nil) ?? -1
      let ok = subject.bytes.withUnsafeBufferPointer { s in
        pattern.bytes.withUnsafeBufferPointer { p in
          s.withMemoryRebound(to: CChar.self) { s in
            p.withMemoryRebound(to: CChar.self) { p in
              lh_pattern_within_budget(
                s.baseAddress, s.count, p.baseAddress, p.count, max(start, 1) - 1, all ? 1 : 0,
                limit,
                Int64(sandbox.maxPatternSteps))
            }
          }
        }
      }
      return [.boolean(ok != 0)]
    }
    try load(Self.sandboxPrelude, name: "=sandbox").call(
      .function(write), .function(isStop), directory, .function(readModule),
      .boolean(sandbox.capabilities.contains(.os)),
      .boolean(sandbox.capabilities.contains(.package)),
      .integer(Int64(sandbox.maxStringLength)), .integer(Int64(sandbox.maxSortLength)),
      .function(patternCheck))
  }

  /// The sandbox, written in Lua: it captures the originals as upvalues, then replaces the
  /// globals, so scripts can reach only the filtered versions.
  static let sandboxPrelude = """
    local write, isstop, moduledir, readmodule, fullos, fullpackage, maxstring, maxsort, patternok = ...
    local G = _G
    local rawload, rawxpcall, rawsetmetatable, rawcollect = load, xpcall, setmetatable, collectgarbage
    local type, select, tostring, error, rawget, rawlen = type, select, tostring, error, rawget, rawlen
    local concat, rep, sort, gsub = table.concat, string.rep, table.sort, string.gsub

    dofile, loadfile = nil, nil
    string.dump = nil

    function load(chunk, name, mode, env)
      if env == nil then env = G end
      return rawload(chunk, name, 't', env)
    end

    function collectgarbage(option, ...)
      if option == 'count' then return rawcollect('count') end
      error("collectgarbage: only 'count' is allowed in the sandbox", 2)
    end

    function setmetatable(t, mt)
      if type(mt) == 'table' and rawget(mt, '__gc') ~= nil then
        error('__gc metamethods are not allowed in the sandbox', 2)
      end
      return rawsetmetatable(t, mt)
    end

    function xpcall(f, handler, ...)
      return rawxpcall(f, function(e)
        if isstop(e) then return e end
        return handler(e)
      end, ...)
    end

    local function line(...)
      local parts = {}
      for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
      return concat(parts, '\\t')
    end
    function print(...) write(line(...)) end
    local warnings = false
    function warn(first, ...)
      if select('#', ...) == 0 and type(first) == 'string' and first:sub(1, 1) == '@' then
        if first == '@on' then warnings = true elseif first == '@off' then warnings = false end
        return
      end
      if warnings then write('Lua warning: ' .. concat({first, ...})) end
    end

    function string.rep(s, n, sep)
      local size = #tostring(s) * n + (sep and #tostring(sep) * (n - 1) or 0)
      if size > maxstring then error('string.rep: result too large for the sandbox', 2) end
      return rep(s, n, sep)
    end
    function table.concat(list, sep, i, j)
      local n = (j or #list) - (i or 1) + 1
      if n > maxstring then error('table.concat: result too large for the sandbox', 2) end
      local result = concat(list, sep, i, j)
      return result
    end
    function table.sort(list, comp)
      if rawlen(list) > maxsort then error('table.sort: too many elements for the sandbox', 2) end
      return sort(list, comp)
    end

    local find, match, gmatch, sgsub = string.find, string.match, string.gmatch, string.gsub
    local function checked(s, p, init, all, limit)
      if type(s) == 'string' and type(p) == 'string' and #s > 16
        and not patternok(s, p, init, all, limit) then
        error('pattern too complex for the sandbox', 3)
      end
    end
    function string.find(s, p, init, plain)
      if not plain then checked(s, p, init, false) end
      return find(s, p, init, plain)
    end
    function string.match(s, p, init) checked(s, p, init, false) return match(s, p, init) end
    function string.gmatch(s, p, init) checked(s, p, init, true) return gmatch(s, p, init) end
    function string.gsub(s, p, repl, n) checked(s, p, 1, true, n) return sgsub(s, p, repl, n) end

    getmetatable('').__metatable = 'locked'

    if not fullos then
      local os = os
      G.os = {clock = os.clock, time = os.time, date = os.date, difftime = os.difftime}
    end

    if not fullpackage then
      local loaded = {}
      for _, name in ipairs{'string', 'table', 'math', 'utf8', 'coroutine', 'os', 'io', 'debug'} do
        loaded[name] = G[name]
      end
      function require(name)
        if type(name) ~= 'string' then error("bad argument #1 to 'require' (string expected)", 2) end
        if loaded[name] ~= nil then return loaded[name] end
        if moduledir == nil then error("module '" .. name .. "' not found: require has no module folder here", 2) end
        if name:find('[^%w_.]') or name:find('%.%.') then error("module '" .. name .. "' not found: bad module name", 2) end
        local path = moduledir .. '/' .. gsub(name, '%.', '/') .. '.lua'
        local source = readmodule(path)
        if source == nil then error("module '" .. name .. "' not found: no file '" .. path .. "'", 2) end
        local chunk, err = rawload(source, '@' .. path, 't', G)
        if not chunk then error(err, 2) end
        local result = chunk(name, path)
        if result == nil then result = true end
        loaded[name] = result
        return result
      end
    end
    """
}
