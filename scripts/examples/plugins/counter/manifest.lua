return { name = "counter", version = "1.0.0" }
