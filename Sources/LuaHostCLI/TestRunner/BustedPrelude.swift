/// The Lua side of `luahost test` for busted specs: the `luahost` module a spec requires,
/// the luassert extensions for alerts, and the driver that runs Debian's busted over the
/// spec files. It runs in a trusted state: busted and luassert are required from their
/// installed paths, never copied.
enum BustedPrelude {
  /// Called with the host's helpers and busted's command-line arguments; returns busted's
  /// exit code (0 when every spec passed).
  static let source = """
    local host, args = ...

    local function matches(text, wanted)
      if text == nil then return false end
      text = tostring(text)
      if text:find(wanted, 1, true) then return true end
      local ok, found = pcall(string.find, text, wanted)
      return ok and found ~= nil
    end

    local function describe_alerts(alerts)
      if #alerts == 0 then return 'no alert' end
      local lines = {}
      for i, a in ipairs(alerts) do
        lines[i] = string.format('%s: %s [%s] at boundary %s', tostring(a.title),
          tostring(a.message), tostring(a.path), tostring(a.boundary))
      end
      return table.concat(lines, '; ')
    end

    -- The module a spec requires: the host's tree and plugins, driven from trusted code.
    local luahost = {
      ui = ui,
      -- Loads the plugin at PATH (a folder with init.lua, or a .lua file), sandboxed, into
      -- the tree's plugins panel; returns its name.
      load_plugin = host.load_plugin,
      -- Unloads every plugin and dismisses every alert: a fresh tree for the next test.
      reset = host.reset,
      -- The alerts up now, each with title, message, path and boundary.
      alerts = host.alerts,
      clear_alerts = host.clear_alerts,
      -- Waits until the timers and async work of the tree and its plugins are done (at
      -- most SECONDS, default 2).
      settle = function(seconds) host.settle(seconds or 2, false) end,
      -- Waits until an alert is up (at most SECONDS, default 2); returns the alerts.
      wait_for_alert = function(seconds)
        host.settle(seconds or 2, true)
        return host.alerts()
      end,
      describe_alerts = describe_alerts,
    }
    package.loaded.luahost = luahost

    -- luassert extensions. Each settles first, so an alert that async work raises later
    -- is seen.
    local assert = require 'luassert'
    local say = require 'say'

    local function register(name, callback, positive, negative)
      say:set('assertion.' .. name .. '.positive', positive)
      say:set('assertion.' .. name .. '.negative', negative)
      assert:register('assertion', name, callback,
        'assertion.' .. name .. '.positive', 'assertion.' .. name .. '.negative')
    end

    -- assert.alerted_at(boundary [, message_pattern [, seconds]]): an alert is up at BOUNDARY
    -- (a view id) whose message matches the pattern (plain text or a Lua pattern).
    register('alerted_at', function(state, arguments)
      local boundary, pattern = arguments[1], arguments[2]
      host.settle(arguments[3] or 2, true)
      local alerts = host.alerts()
      local found = false
      for _, a in ipairs(alerts) do
        if a.boundary == boundary and (pattern == nil or matches(a.message, pattern)) then
          found = true
        end
      end
      arguments[3], arguments.n = describe_alerts(alerts), 3
      return found
    end, 'Expected an alert at boundary %s matching %s, got: %s',
      'Expected no alert at boundary %s matching %s, got: %s')

    -- assert.reached(boundary [, seconds]): the error stopped at BOUNDARY, the only alert up.
    register('reached', function(state, arguments)
      host.settle(arguments[2] or 2, true)
      local alerts = host.alerts()
      arguments[2], arguments.n = describe_alerts(alerts), 2
      return #alerts == 1 and alerts[1].boundary == arguments[1]
    end, 'Expected the error to stop at boundary %s, got: %s',
      'Expected the error not to stop at boundary %s, got: %s')

    -- assert.no_alert([seconds]): once the tree settles, no alert is up.
    register('no_alert', function(state, arguments)
      host.settle(arguments[1] or 0.05, false)
      local alerts = host.alerts()
      arguments[1], arguments.n = describe_alerts(alerts), 1
      return #alerts == 0
    end, 'Expected no alert, got: %s', 'Expected an alert, got: %s')

    -- busted's own runner, with its exit turned into a return: luahost reports the result.
    local EXIT = {}
    local compatibility = require 'busted.compatibility'
    local code = 0
    compatibility.exit = function(status)
      code = status
      error(EXIT, 0)
    end
    arg = args
    local ok, err = pcall(require 'busted.runner', { standalone = false })
    io.stdout:flush()
    if not ok and err ~= EXIT then error(err, 0) end
    return code
    """
}
