host_sleep() while true do end
