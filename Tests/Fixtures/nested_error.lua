local function validate(config)
  if not config.name then
    error("config has no name")
  end
end

local function load_plugin()
  validate({})
end

load_plugin()
