#include "csystem.h"

FILE *cs_stdout(void) { return stdout; }
FILE *cs_stderr(void) { return stderr; }
