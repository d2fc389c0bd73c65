return { name = "stats", version = "1.0", capabilities = { "tasks" } }
