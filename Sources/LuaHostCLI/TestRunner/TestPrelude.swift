/// The Lua side of `luahost test`: `test`, `describe`, and `expect.*`, installed in each
/// test's sandbox before its file runs. Failures are raised as tables marked `__expect`,
/// which the runner tells apart from errors outside any expectation.
enum TestPrelude {
  static let source = """
    local host = ...
    local registry, groups = {}, {}
    local type, pairs, ipairs, tostring, pcall, error, select = type, pairs, ipairs, tostring, pcall, error, select
    local sort, concat, format = table.sort, table.concat, string.format
    local FAILURE = {}

    local function fail(message)
      error(setmetatable({ __expect = true, message = message }, FAILURE), 0)
    end
    FAILURE.__tostring = function(f) return f.message end

    local function register(name, fn, skip)
      if type(name) ~= 'string' then error("test: the name must be a string", 3) end
      if type(fn) ~= 'function' then error("test: '" .. name .. "' needs a function", 3) end
      -- Set once the file has run: a test registered from inside a running test would
      -- never run, and its failures would be lost.
      if registry.closed then
        error("test: '" .. name .. "' is registered inside a running test; register tests at the top of the file or in describe", 3)
      end
      local full = #groups > 0 and (concat(groups, ' ') .. ' ' .. name) or name
      registry[#registry + 1] = { name = full, fn = fn, skip = skip or false }
    end
    test = setmetatable({ skip = function(name, fn) register(name, fn or function() end, true) end },
      { __call = function(_, name, fn) register(name, fn, false) end })
    function describe(name, fn)
      groups[#groups + 1] = tostring(name)
      fn()
      groups[#groups] = nil
    end

    local function show(v)
      if type(v) == 'string' then return format('%q', v) end
      return tostring(v)
    end

    -- Differences between two values, as lines such as `.a[2]: expected 1, got 2`.
    local function diff(a, b, path, out, seen)
      if type(a) == 'table' and type(b) == 'table' then
        if seen[a] == b then return end
        seen[a] = b
        local keys = {}
        for k in pairs(a) do keys[#keys + 1] = k end
        for k in pairs(b) do if a[k] == nil then keys[#keys + 1] = k end end
        sort(keys, function(x, y) return tostring(x) < tostring(y) end)
        for _, k in ipairs(keys) do
          local step = type(k) == 'string' and ('.' .. k) or ('[' .. tostring(k) .. ']')
          diff(a[k], b[k], path .. step, out, seen)
        end
      elseif a ~= b then
        out[#out + 1] = (path == '' and 'value' or path) .. ': expected ' .. show(b) .. ', got ' .. show(a)
      end
    end

    local function matches(text, wanted)
      if text == nil then return false end
      if text:find(wanted, 1, true) then return true end
      local ok, found = pcall(string.find, text, wanted)
      return ok and found ~= nil
    end

    local function describe_alerts(alerts)
      if #alerts == 0 then return 'no alert' end
      local lines = {}
      for i, a in ipairs(alerts) do
        lines[i] = format('%s: %s [%s] at boundary %s%s', a.title, a.message, a.path, a.boundary,
          a.count > 1 and (' x' .. a.count) or '')
      end
      return concat(lines, '; ')
    end

    -- Runs fn, then lets async work it started settle: until an alert is up (when one is
    -- expected) or nothing is in flight, for at most `within` seconds (default 2).
    -- With no fn, it only settles and reads the alerts up now (after alert:choose, say).
    local function run_for_alerts(fn, within, wants_alert)
      if fn == nil then
        host.settle(within or 2, wants_alert)
        return host.alerts()
      end
      host.clear_alerts()
      local ok, err = pcall(fn)
      if not ok then
        if host.is_stop(err) then error(err, 0) end
        fail('the function raised an error instead of raising an alert: ' .. tostring(err))
      end
      host.settle(within or 2, wants_alert)
      return host.alerts()
    end

    expect = {}

    function expect.eq(actual, expected, label)
      local out = {}
      diff(actual, expected, '', out, {})
      if #out > 0 then fail((label and (label .. ': ') or '') .. concat(out, '\\n')) end
    end

    function expect.truthy(value, label)
      if not value then fail((label or 'value') .. ' is not truthy: ' .. show(value)) end
    end

    function expect.alert(fn, spec)
      spec = spec or {}
      local alerts = run_for_alerts(fn, spec.within, true)
      if #alerts ~= 1 then fail('expected exactly one alert, got ' .. #alerts .. ': ' .. describe_alerts(alerts)) end
      local a = alerts[1]
      for _, field in ipairs{ 'title', 'dismiss', 'path', 'boundary', 'count' } do
        if spec[field] ~= nil and a[field] ~= spec[field] then
          fail(format('expected alert %s %s, got %s (alert: %s)', field, show(spec[field]), show(a[field]), describe_alerts(alerts)))
        end
      end
      if spec.message ~= nil and not matches(a.message, spec.message) then
        fail(format('expected alert message to match %s, got %s', show(spec.message), show(a.message)))
      end
      if spec.chain ~= nil and not matches(a.chain, spec.chain) then
        fail(format('expected alert handler chain to match %s, got %s', show(spec.chain), show(a.chain)))
      end
      if spec.actions ~= nil then
        local out = {}
        diff(a.actions, spec.actions, '', out, {})
        if #out > 0 then
          fail(format('expected alert buttons {%s}, got {%s}', concat(spec.actions, ', '), concat(a.actions, ', ')))
        end
      end
      return a
    end

    function expect.no_alert(fn, options)
      local alerts = run_for_alerts(fn, options and options.within)
      if #alerts > 0 then fail('expected no alert, got ' .. describe_alerts(alerts)) end
    end

    function expect.reaches(fn, boundary)
      local alerts = run_for_alerts(fn)
      if #alerts ~= 1 or alerts[1].boundary ~= boundary then
        fail('expected the error to stop at boundary ' .. show(boundary) .. ', got ' .. describe_alerts(alerts))
      end
      return alerts[1]
    end

    local KINDS = { timeout = true, memory = true, syntax = true, runtime = true, swift = true,
      instructions = true, interrupted = true }

    function expect.error(fn, wanted, options)
      if KINDS[wanted] then
        local within = options and options.within or 1
        local kind, message = host.protected(fn, within)
        if kind == nil then fail('expected a ' .. wanted .. ' error, but the function returned') end
        if kind ~= wanted then fail('expected a ' .. wanted .. ' error, got ' .. kind .. ': ' .. message) end
        return message
      end
      local ok, err = pcall(fn)
      if ok then fail('expected an error' .. (wanted and (' matching ' .. show(wanted)) or '') .. ', but the function returned') end
      if host.is_stop(err) then error(err, 0) end
      local message = tostring(err)
      if wanted ~= nil and not matches(message, wanted) then
        fail(format('expected an error matching %s, got %s', show(wanted), show(message)))
      end
      return err
    end

    -- Compiles source as a chunk: a syntax error is raised as a syntax error.
    compile = host.compile

    return registry
    """
}
