/// The files `luahost new plugin NAME` starts a plugin with: a manifest, a panel with a
/// button that works and one that fails, and tests of both. `name` is a valid plugin name
/// (letters, digits, `_`, `-`, `.`), so it can stand inside a Lua string as it is.
struct PluginTemplate {
  let name: String

  /// The files, by name inside the plugin's folder, in the order they are listed.
  var files: [(name: String, contents: String)] {
    [("manifest.lua", manifest), ("init.lua", main), ("\(name)_test.lua", spec)]
  }

  var manifest: String {
    """
    -- What the plugin says about itself. capabilities = { "os" } would ask the host for a
    -- library or one of its modules; the host grants only what it allows.
    return { name = "\(name)", version = "0.1.0" }

    """
  }

  var main: String {
    """
    -- The \(name) plugin. ui.root is this plugin's panel, its own error boundary: an error
    -- here raises an alert there ("Error in plugin \(name)") and nowhere else.
    local taps = 0
    local label = ui.root:add(ui.text{ id = "\(name)-label", text = "Hello from \(name)" })

    ui.root:add(ui.button{ id = "\(name)-tap", title = "Tap me", on_tap = function()
      taps = taps + 1
      label.text = "tapped " .. taps .. (taps == 1 and " time" or " times")
    end })

    -- A button whose action fails: the alert names the plugin and the button.
    ui.root:add(ui.button{ id = "\(name)-fail", title = "Fail", on_tap = function()
      error("\(name) failed on purpose", 0)
    end })

    """
  }

  var spec: String {
    """
    -- Tests of the \(name) plugin. Run them from the folder that holds the plugin:
    --   luahost test --plugins . \(name)
    describe("\(name)", function()
      test("tapping counts the taps", function()
        expect.no_alert(function() ui.find("\(name)-tap"):tap() end)
        expect.eq(ui.find("\(name)-label").text, "tapped 1 time")
      end)

      test("an error alerts at the plugin's own boundary", function()
        expect.alert(function() ui.find("\(name)-fail"):tap() end, {
          title = "Error in plugin \(name)",
          message = "\(name) failed on purpose",
          path = "root/plugins/\(name)/\(name)-fail",
          boundary = "\(name)",
        })
      end)
    end)

    """
  }
}
