// cs_hardstop.c: the backstop of `luahost --timeout`. Deadlines stop Lua code, but some work
// of a run is no Lua code a hook can reach: a blocking read or popen in a granted library,
// a trusted state's __gc (Lua runs finalizers with hooks off), the host reading the script
// from a pipe, formatting a huge error, closing a huge heap. Past the run's end plus a
// grace for the normal stops to report, this thread ends the process. Why C: _exit and a
// plain pthread, with no Swift runtime on the way out.
#define _GNU_SOURCE
#include "csystem.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *cs_hard_stop_thread(void *argument) {
  char *message = argument;
  struct timespec end;
  memcpy(&end, message, sizeof end);
  message += sizeof end;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR) {
  }
  /* The flush and the message may block on a stalled reader (a full pipe, a terminal
   * held with Ctrl-S): SIGALRM's default action ends the process then, two seconds on. */
  sigset_t alarm_only;
  sigemptyset(&alarm_only);
  sigaddset(&alarm_only, SIGALRM);
  pthread_sigmask(SIG_UNBLOCK, &alarm_only, NULL);
  signal(SIGALRM, SIG_DFL);
  alarm(2);
  /* Another thread may be inside a long write to stdout (holding its lock): then its
   * buffer is left, as a kill would leave it, rather than waiting on that lock. */
  if (ftrylockfile(stdout) == 0) {
    fflush_unlocked(stdout);
    funlockfile(stdout);
  }
  size_t length = strlen(message);
  while (length > 0) {
    ssize_t written = write(STDERR_FILENO, message, length);
    if (written <= 0) break;
    message += written;
    length -= (size_t)written;
  }
  _exit(1);
}

int cs_arm_hard_stop(unsigned long long nanoseconds, const char *message) {
  struct timespec end;
  clock_gettime(CLOCK_MONOTONIC, &end);
  unsigned long long total = (unsigned long long)end.tv_nsec + nanoseconds % 1000000000ULL;
  end.tv_sec += (time_t)(nanoseconds / 1000000000ULL + total / 1000000000ULL);
  end.tv_nsec = (long)(total % 1000000000ULL);
  /* The thread owns one block: the end, then the message. */
  size_t length = strlen(message);
  char *block = malloc(sizeof end + length + 1);
  if (block == NULL) return -1;
  memcpy(block, &end, sizeof end);
  memcpy(block + sizeof end, message, length + 1);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attributes, 64 * 1024);
  pthread_t thread;
  int status = pthread_create(&thread, &attributes, cs_hard_stop_thread, block);
  pthread_attr_destroy(&attributes);
  if (status != 0) {
    free(block);
    return -1;
  }
  return 0;
}
