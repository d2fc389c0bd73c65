// csystem.h: C's standard streams for Swift 6, which refuses to read the mutable globals
// `stdout` and `stderr` directly. Writing through them keeps one buffer per stream, so
// output from Lua's `print` and from Swift stays in order.
#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <stdio.h>

/// C's `stdout`.
FILE *cs_stdout(void);
/// C's `stderr`.
FILE *cs_stderr(void);

#endif
