local words = require("lib.words")
ui.root:add(ui.text{ id = "greeting", text = words.hello("plugins") })
local ok = pcall(require, "../../escape")
print("escape blocked:", not ok)
