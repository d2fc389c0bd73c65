-- A broken plugin: its button fails, and so does the last line of its code. Both
-- errors stop at its own panel ("Error in plugin broken"); the app and the other
-- plugin never notice.
ui.root:add(ui.button{
  id = "sync", title = "Sync",
  on_tap = function() local server = nil; return server.url end,
})
require "tasks"   -- this plugin's manifest does not ask for the capability
