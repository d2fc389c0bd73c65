// Debian's libedit (BSD editline) through its readline-compatible header.
#include <stdio.h>
#include <editline/readline.h>
