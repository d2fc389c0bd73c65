return { name = "greeter", version = "1.0.0" }
