return { name = "wants_io", capabilities = { "io" } }
