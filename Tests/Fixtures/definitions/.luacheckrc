-- Generated from the live LuaHost API by luahost definitions (luahost 0.1.0); run it again instead of editing.
-- The globals a LuaHost plugin sees, with their fields, for luacheck.
stds.luahost = {
  read_globals = {
    _G = { other_fields = true },
    _VERSION = { other_fields = true },
    assert = {},
    collectgarbage = {},
    coroutine = { fields = { close = {}, create = {}, isyieldable = {}, resume = {}, running = {}, status = {}, wrap = {}, yield = {} } },
    debug = { fields = { getinfo = {}, traceback = {}, upvalueid = {}, upvaluejoin = {} } },
    error = {},
    getmetatable = {},
    ipairs = {},
    load = {},
    math = { fields = { abs = {}, acos = {}, asin = {}, atan = {}, atan2 = {}, ceil = {}, cos = {}, cosh = {}, deg = {}, exp = {}, floor = {}, fmod = {}, frexp = {}, huge = {}, ldexp = {}, log = {}, log10 = {}, max = {}, maxinteger = {}, min = {}, mininteger = {}, modf = {}, pi = {}, pow = {}, rad = {}, random = {}, randomseed = {}, sin = {}, sinh = {}, sqrt = {}, tan = {}, tanh = {}, tointeger = {}, type = {}, ult = {} } },
    next = {},
    os = { fields = { clock = {}, date = {}, difftime = {}, time = {} } },
    package = { fields = { config = {}, loaded = { read_only = false, other_fields = true }, path = {}, preload = { read_only = false, other_fields = true } } },
    pairs = {},
    pcall = {},
    print = {},
    rawequal = {},
    rawget = {},
    rawlen = {},
    rawset = {},
    require = {},
    select = {},
    setmetatable = {},
    string = { fields = { byte = {}, char = {}, find = {}, format = {}, gmatch = {}, gsub = {}, len = {}, lower = {}, match = {}, pack = {}, packsize = {}, rep = {}, reverse = {}, sub = {}, unpack = {}, upper = {} } },
    table = { fields = { concat = {}, insert = {}, move = {}, pack = {}, remove = {}, sort = {}, unpack = {} } },
    tonumber = {},
    tostring = {},
    type = {},
    utf8 = { fields = { char = {}, charpattern = {}, codepoint = {}, codes = {}, len = {}, offset = {} } },
    warn = {},
    xpcall = {},
    timer = {
      fields = {
        after = {},
        sleep = {},
      },
    },
    ui = {
      fields = {
        boundary = {},
        button = {},
        error = {},
        find = {},
        group = {},
        root = {
          fields = {
            add = {},
            alert = { other_fields = true },
            alerts = { other_fields = true },
            children = { other_fields = true },
            depth = { other_fields = true },
            dismiss = {},
            env = { read_only = false, other_fields = true },
            find = {},
            id = { read_only = false, other_fields = true },
            is_boundary = { other_fields = true },
            kind = { other_fields = true },
            move = {},
            on_change = { read_only = false, other_fields = true },
            on_error = { read_only = false, other_fields = true },
            on_reset = { read_only = false, other_fields = true },
            on_tap = { read_only = false, other_fields = true },
            parent = { other_fields = true },
            path = { other_fields = true },
            remove = {},
            set_value = {},
            tap = {},
            text = { read_only = false, other_fields = true },
            title = { read_only = false, other_fields = true },
            value = { read_only = false, other_fields = true },
          },
        },
        stack = {},
        text = {},
        text_field = {},
        window = {},
      },
    },
  },
}
-- What luahost test adds, for *_test.lua files.
stds.luahost_test = {
  read_globals = {
    compile = {},
    describe = {},
    expect = {
      fields = {
        alert = {},
        eq = {},
        error = {},
        no_alert = {},
        reaches = {},
        truthy = {},
      },
    },
    test = {
      fields = {
        skip = {},
      },
    },
  },
}
std = "luahost"
files["**/*_test.lua"] = { std = "luahost+luahost_test" }
-- A plugin's own globals are the functions the host calls by name (Plugin.call), so
-- they may be set at the top level and need no use in the plugin itself.
allow_defined_top = true
-- Every handler receives its view first (on_tap = function(self) … end), used or not.
ignore = { "131", "212/self" }
exclude_files = { ".luahost/**/*.lua" }
