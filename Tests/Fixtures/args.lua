-- Prints its arguments the way scripts usually read them.
print("count", select("#", ...))
print("varargs", ...)
print("arg", arg[0]:match("[^/]*$"), arg[1], arg[2], #arg)
