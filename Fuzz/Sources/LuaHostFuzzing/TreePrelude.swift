extension TreeFuzzer {
  /// How many entries `actions` and `handlers` have in ``prelude``.
  static let actionCount = 28
  static let handlerCount = 16
  /// Actions that may route more or fewer than one error per failed tap (they route
  /// nested errors themselves); all others route exactly one.
  static let nestingActions: Set<Int> = [22, 26, 27]
  /// Handlers that may route errors of their own.
  static let nestingHandlers: Set<Int> = [15]
  /// How many entries `members` and `extremes` have in ``prelude``.
  static let memberCount = 22
  static let extremeCount = 22

  /// Lua helpers the fuzzer drives the tree through: every error kind as an action, every
  /// boundary decision as a handler, and thin wrappers over the `ui` API.
  static let prelude = """
    local close_error = setmetatable({}, {__close = function() error('in __close') end})
    local actions = {
      [0] = function() end,
      function() error('boom') end,
      function() error('plain', 0) end,
      function() error(nil) end,
      function() error(42) end,
      function() error(4.5) end,
      function() error(true) end,
      function() error({code = 7}) end,
      function() error(setmetatable({}, {__tostring = function() return 'custom' end})) end,
      function() error(setmetatable({}, {__tostring = function() error('tostring failed') end})) end,
      function() error(setmetatable({}, {__tostring = function() return 12 end})) end,
      function() error(print) end,
      function(view) error(view) end,
      function() error(coroutine.create(function() end)) end,
      function() host_fail(3) end,
      function() local ok, e = pcall(host_fail, 4) error(e) end,
      function() while true do end end,
      function() host_sleep() while true do end end,
      function() local t = {} while true do t[#t + 1] = ('x'):rep(1000) .. #t end end,
      function() local function r() return 1 + r() end return r() end,
      function() error(select(2, load('x x'))) end,
      function() coroutine.wrap(function() error('in coroutine') end)() end,
      function(view) view.env.error_handler(function() error('inner') end) error('outer') end,
      function() local x <close> = close_error end,
      function() xpcall(error, function() while true do end end, 'x') end,
      function(view) view:remove() error('removed myself') end,
      function(view) view:tap() end,
      function(view) host_call(function() view:tap() end) error('after nested tap') end,
    }
    local handlers = {
      [0] = function() end,
      function() return true end,
      function() return false end,
      function(err) return false, 'escalated: ' .. tostring(err) end,
      function() return 'transformed' end,
      function(err) return {wrapped = err} end,
      function() return false, setmetatable({}, {__tostring = function() error('bad') end}) end,
      function() error('handler failed') end,
      function() error({}) end,
      function() host_fail(9) end,
      function() while true do end end,
      function() host_sleep() while true do end end,
      function(err, view) return view end,
      function() return 0 / 0 end,
      function(err, view) view:remove() return false end,
      function(err, view) local p = view.parent if p then p:tap() end return false end,
    }
    -- Every ui entry point, called with hostile values: none may crash the host.
    local extremes = {[0] = math.mininteger, math.maxinteger, -0.0, 1/0, -1/0, 0/0, 1e308, -1e308,
      2^53, 2^63, 0, 1, -1, '', ('x'):rep(1 << 16), 'a\0b', {}, print, true, false, 'nan', '1e400'}
    local members = {
      [0] = function(v, a) return v:add(ui.stack{}, a) end,
      function(v, a) return ui.stack{}:move(v, a) end,
      function(v, a) v.id = a end,
      function(v, a) v.title = a end,
      function(v, a) v.text = a end,
      function(v, a) v.value = a end,
      function(v, a) return v:set_value(a) end,
      function(v, a) return v:find(a) end,
      function(_, a) return ui.find(a) end,
      function(v, a, b) v.env[a] = b end,
      function(v, a) return v.env[a] end,
      function(v, a) v.on_tap = a end,
      function(v, a) v.on_change = a end,
      function(v, a) v.on_error = a end,
      function(_, a, b) return ui.text{id = a, title = b, text = a, value = b} end,
      function(_, a, b) return ui.boundary{title = a, dismiss = b} end,
      function(_, a) return ui.button(a) end,
      function(_, a) return ui.stack{children = {a}} end,
      function(v, a) return v[a] end,
      function(v, a, b) v[a] = b end,
      function(v, a) return v:dismiss(a) end,
      function(_, a, b) return ui.window{id = a, children = b} end,
    }
    local kinds = {[0] = 'stack', 'group', 'text', 'button', 'text_field', 'boundary', 'window'}
    local h = {}
    function h.make(kind, id) return ui[kinds[kind]]{id = id} end
    function h.add(parent, child, index) return parent:add(child, index) end
    function h.move(view, parent, index) view:move(parent, index) end
    function h.remove(view) return view:remove() end
    function h.tap(view) return view:tap() end
    function h.settap(view, k) view.on_tap = actions[k] end
    function h.setchange(view, k) view.on_change = actions[k] end
    function h.seterror(view, k) view.on_error = handlers[k] end
    function h.setenv(view, key, value) view.env[key] = value end
    function h.route(view, k) return view.env.error_handler(actions[k], view) end
    function h.setvalue(view, value) return view:set_value(value) end
    function h.poke(view, m, a, b) return pcall(members[m], view, extremes[a], extremes[b]) end
    function h.inspect(view)
      local parts = {tostring(view), view.id, view.kind, view.path, view.depth, tostring(view.env),
                     tostring(view.env.theme), tostring(view.title), tostring(view.is_boundary)}
      for _, alert in ipairs(view.alerts) do
        parts[#parts + 1] = alert.title .. alert.message .. alert.path .. alert.count
          .. tostring(alert.location) .. tostring(alert.traceback) .. tostring(alert.unhandled)
      end
      local parent = view.parent
      if parent then parts[#parts + 1] = #parent.children end
      return table.concat(parts, ' ')
    end
    return h
    """
}
