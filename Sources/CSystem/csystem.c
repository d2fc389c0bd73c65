#define _GNU_SOURCE
#include "csystem.h"

#include <spawn.h>
#include <stdlib.h>

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <editline/readline.h>

FILE *cs_stdout(void) { return stdout; }
FILE *cs_stderr(void) { return stderr; }
FILE *cs_stdin(void) { return stdin; }

int cs_open_pty(char *name, size_t size) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) return -1;
  if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, name, size) != 0) {
    close(master);
    return -1;
  }
  return master;
}

short cs_spawn_session_flags(void) {
  return POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
}

static int cs_pipe[2] = {-1, -1};        /* read by the interrupt watcher thread */
static int cs_prompt_pipe[2] = {-1, -1}; /* read by cs_getc at the prompt */
static volatile sig_atomic_t cs_sigint_pending = 0;
static atomic_int cs_prompt_interrupt = 0;
static atomic_int cs_running_tag = 0; /* lock-free, so the handler may read it */

void cs_set_running(int tag) { atomic_store(&cs_running_tag, tag); }

static void cs_on_sigint(int signo) {
  (void)signo;
  int saved = errno;
  cs_sigint_pending = 1;
  char byte = (char)atomic_load(&cs_running_tag);
  if (cs_pipe[1] >= 0) {
    ssize_t ignored = write(cs_pipe[1], &byte, 1);
    (void)ignored;
  }
  if (cs_prompt_pipe[1] >= 0) {
    ssize_t ignored = write(cs_prompt_pipe[1], &byte, 1);
    (void)ignored;
  }
  errno = saved;
}

int cs_install_sigint(void) {
  if (cs_pipe[0] < 0) {
    if (pipe(cs_pipe) != 0 || pipe(cs_prompt_pipe) != 0) return -1;
    fcntl(cs_pipe[1], F_SETFL, O_NONBLOCK);
    fcntl(cs_prompt_pipe[0], F_SETFL, O_NONBLOCK);
    fcntl(cs_prompt_pipe[1], F_SETFL, O_NONBLOCK);
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = cs_on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0; /* no SA_RESTART: a read at the prompt returns EINTR */
  sigaction(SIGINT, &action, NULL);
  /* A parent may have blocked SIGINT (thread pools do); the REPL needs it. */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  return cs_pipe[0];
}

static void cs_drain(int fd) {
  char buffer[64];
  while (fd >= 0 && read(fd, buffer, sizeof buffer) > 0) {}
}

/* Reads one byte for libedit, waiting on the terminal and on the SIGINT prompt pipe at once
 * (poll, so a Ctrl-C that lands between two reads is not lost). Ctrl-C ends the line, and
 * cs_take_prompt_interrupt tells the REPL to drop it. */
static int cs_getbyte(FILE *stream) {
  for (;;) {
    struct pollfd fds[2] = {{fileno(stream), POLLIN, 0}, {cs_prompt_pipe[0], POLLIN, 0}};
    int ready = poll(fds, cs_prompt_pipe[0] >= 0 ? 2 : 1, -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return EOF;
    }
    if (cs_prompt_pipe[0] >= 0 && (fds[1].revents & POLLIN)) {
      cs_drain(cs_prompt_pipe[0]);
      cs_sigint_pending = 0;
      atomic_store(&cs_prompt_interrupt, 1);
      return '\n';
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      unsigned char c;
      ssize_t n = read(fileno(stream), &c, 1);
      if (n == 1) return c;
      if (n < 0 && errno == EINTR) continue;
      return EOF;
    }
  }
}

/* A byte read past a character that it does not continue, returned next (or -2: none). */
static int cs_pending_byte = -2;

/* Reads one character for libedit: libedit takes what rl_getc_function returns as one wide
 * character, so a UTF-8 sequence is decoded here into its code point (byte by byte, each
 * non-ASCII byte was a character of its own: refused as unprintable, or shown as Latin-1).
 * A byte that is no valid start or continuation goes through alone, as before. */
static int cs_getc(FILE *stream) {
  int c = cs_pending_byte != -2 ? cs_pending_byte : cs_getbyte(stream);
  cs_pending_byte = -2;
  if (c < 0xC2 || c > 0xF4) return c; /* EOF, ASCII, a stray continuation, an invalid lead */
  int more = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
  int point = c & (0x3F >> more);
  for (int i = 0; i < more; i++) {
    int next = cs_getbyte(stream);
    if (next < 0x80 || next > 0xBF) { /* not a continuation: the lead goes alone */
      cs_pending_byte = next;
      return c;
    }
    point = (point << 6) | (next & 0x3F);
  }
  /* Overlong three- and four-byte forms, surrogates, points past U+10FFFF: a replacement. */
  if ((more == 2 && (point < 0x800 || (point >= 0xD800 && point <= 0xDFFF))) ||
      (more == 3 && (point < 0x10000 || point > 0x10FFFF)))
    return 0xFFFD;
  return point;
}

int cs_take_prompt_interrupt(void) {
  cs_sigint_pending = 0;
  return atomic_exchange(&cs_prompt_interrupt, 0);
}

void cs_forget_interrupts(void) {
  cs_drain(cs_prompt_pipe[0]);
  cs_sigint_pending = 0;
  atomic_store(&cs_prompt_interrupt, 0);
}

static struct termios cs_saved_termios;
static volatile sig_atomic_t cs_have_termios = 0;

/* Puts the terminal back, then ends the process of the same signal, by default (the
 * handler was reset on entry, and the signal raised here waits for it to return). */
static void cs_on_ending_signal(int signo) {
  if (cs_have_termios) tcsetattr(STDIN_FILENO, TCSANOW, &cs_saved_termios);
  raise(signo);
}

void cs_restore_terminal_on_signals(void) {
  if (tcgetattr(STDIN_FILENO, &cs_saved_termios) != 0) return;
  cs_have_termios = 1;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = cs_on_ending_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGHUP, &action, NULL);
  sigaction(SIGQUIT, &action, NULL);
}

void cs_setup_editline(cs_completion_generator generator) {
  /* The terminal's character set, for the line editor's wide characters (what it shows and
   * what it hands back), as GNU readline sets it under the stock `lua`: LC_CTYPE only, from
   * the environment. In a UTF-8 locale no byte above 0x7F is a letter to Lua's patterns, as
   * in the C locale. */
  setlocale(LC_CTYPE, "");
  rl_catch_signals = 0;
  rl_completion_entry_function = generator;
  rl_completion_append_character = '\0';
  rl_getc_function = cs_getc;
}
