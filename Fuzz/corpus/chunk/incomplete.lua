function f() if x then
