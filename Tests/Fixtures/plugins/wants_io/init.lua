ui.root:add(ui.text{ id = "files", text = type(io) })
