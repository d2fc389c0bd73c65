local s = "a\0b"
print(#s, ("\xff\xfe"):byte(1, 2))
