// csystem.h: small C helpers for the terminal front end.
//  - C's standard streams: Swift 6 refuses to read the mutable globals `stdout`/`stderr`.
//    Writing through them keeps one buffer per stream, so output from Lua's `print` and
//    from Swift stays in order.
//  - libedit's settings are mutable C globals, which Swift 6 cannot assign either.
//  - The SIGINT handler must be async-signal-safe, so it is C: it counts and writes a byte
//    to a pipe; a Swift thread reads the pipe and interrupts the running Lua code.
//  - The backstop of --timeout (cs_hardstop.c) ends the process from a thread of its own,
//    with _exit, which Swift cannot reach without Foundation.
#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <stdio.h>

/// C's `stdout`.
FILE *cs_stdout(void);
/// C's `stderr`.
FILE *cs_stderr(void);
/// C's `stdin`.
FILE *cs_stdin(void);

/// A completion generator as readline calls it: the state-th match for text, malloc'd, or NULL.
typedef char *(*cs_completion_generator)(const char *text, int state);
/// Sets up libedit for the REPL: our completion generator, no space after a completion,
/// no signal handling of its own, and a getc that turns Ctrl-C at the prompt into a line end
/// (see cs_take_prompt_interrupt).
void cs_setup_editline(cs_completion_generator generator);
/// Keeps the terminal's settings of stdin as they are now, and has SIGTERM, SIGHUP and
/// SIGQUIT put them back before they end the process as by default: the line editor
/// leaves the terminal without echo and line editing while it reads.
void cs_restore_terminal_on_signals(void);
/// Whether Ctrl-C ended the last line read at the prompt (then the line is to be dropped).
int cs_take_prompt_interrupt(void);
/// Forgets Ctrl-C presses that came while code ran, before a new prompt.
void cs_forget_interrupts(void);

/// Opens a pseudo-terminal master (for tests); writes the slave's path into name. -1 on error.
/// (posix_openpt and friends need _GNU_SOURCE, which Swift's Glibc module does not set.)
int cs_open_pty(char *name, size_t size);
/// POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF, for starting a
/// child in a new session with no signal blocked and SIGINT at its default.
short cs_spawn_session_flags(void);

/// Installs the SIGINT handler and returns the read end of its pipe (-1 on failure). Each
/// Ctrl-C writes one byte there: the tag of the line that ran as it came (cs_set_running).
int cs_install_sigint(void);
/// Tags the line that runs now (1...255), or 0 at the prompt: a Ctrl-C read late from the
/// pipe then still says which line it was meant for.
void cs_set_running(int tag);

/// Ends the process with status 1 once `nanoseconds` have passed (CLOCK_MONOTONIC) unless
/// it ended first: from a thread of its own, it flushes stdout if no other thread is
/// writing to it, writes `message` (copied) to stderr and calls _exit. For work that no
/// deadline can stop (a blocking read, a finalizer that runs with hooks off). 0 on success.
int cs_arm_hard_stop(unsigned long long nanoseconds, const char *message);
#endif
