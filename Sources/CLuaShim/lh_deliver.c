// lh_deliver.c: delivering a stop to the thread that runs the state.
//
// Why C, and why a signal: a stop hooks the running Lua thread (lua_sethook), and in Lua
// 5.4 lua_sethook also walks that thread's CallInfo list to set each Lua frame's `trap`
// (ldebug.c, settraps), which a tight loop reads. That walk is safe on the thread that runs
// the state, or in a signal handler that interrupted it (as lua.c's Ctrl-C does), but not
// from another thread: the running thread frees and reuses CallInfos meanwhile, so the walk
// read freed memory and wrote `trap` into it, or into a C frame's saved error handler, and
// the process crashed later somewhere else. So a thread that does not run the state never
// touches it: it sets the stop word (lh_stop.c), then sends the running thread a signal,
// whose handler hooks the state there.
//
// (A build for ThreadSanitizer polls instead: see LH_POLLS_FOR_STOPS in lh_private.h.)
//
// The signal is SIGSYS, queued with a mark so the handler tells it from the kernel's: it is
// one of the few signals a libdispatch worker thread (where Swift tasks run) leaves
// unblocked. Any other SIGSYS goes to the handler that was there before, or gets the
// default action.
//
// Invariants:
// * lh_active (this thread's list, innermost first) holds exactly the states with an
//   outermost entry open on this thread (lh_enter, lh_leave): only those are hooked by the
//   handler, and an entry open on this thread cannot close its state meanwhile.
// * S->tid is the kernel id of the thread that last opened an outermost entry of S. It
//   changes with a sequentially consistent store, read by the requester after its own
//   sequentially consistent store of the stop word, and lh_enter reads the word after it:
//   either the request signals the new thread or the entry sees the stop (lh_enter_stop).
//   When the thread did not change, the signal itself orders the two: a handler that runs
//   before the entry leaves the word for the entry's check to see.
#include "lh_private.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LH_SIGNAL SIGSYS
/* Set in si_errno of the signals this file sends, with si_code SI_QUEUE. */
#define LH_SIGNAL_MARK 0x4c48

__thread lh_state *lh_active __attribute__((tls_model("initial-exec")));
__thread int lh_own_tid __attribute__((tls_model("initial-exec")));

static struct sigaction lh_previous_action;
static pthread_once_t lh_install_once = PTHREAD_ONCE_INIT;

/* Whether S has an outermost entry open on this thread. */
static int lh_active_here(lh_state *S) {
  for (lh_state *open = lh_active; open != NULL; open = open->active_outer)
    if (open == S) return 1;
  return 0;
}

/* Hooks the thread running S, which runs on this thread (or is paused below a Swift
 * function here, in a call into another state). */
static void lh_arm_here(lh_state *S) {
  lua_State *running = atomic_load(&S->running);
  if (running != NULL) lh_arm(running);
}

static void lh_pass_on(int signo, siginfo_t *info, void *context) {
  struct sigaction *previous = &lh_previous_action;
  if (previous->sa_flags & SA_SIGINFO) {
    if (previous->sa_sigaction != NULL) previous->sa_sigaction(signo, info, context);
  } else if (previous->sa_handler == SIG_DFL) {
    /* What the kernel meant (a seccomp refusal): the default action, a core dump. */
    signal(signo, SIG_DFL);
    raise(signo);
  } else if (previous->sa_handler != SIG_IGN) {
    previous->sa_handler(signo);
  }
}

static void lh_signal_action(int signo, siginfo_t *info, void *context) {
  if (info == NULL || info->si_code != SI_QUEUE || info->si_errno != LH_SIGNAL_MARK ||
      info->si_pid != getpid()) {
    lh_pass_on(signo, info, context);
    return;
  }
  int saved = errno;
  lh_state *S = info->si_value.sival_ptr;
  /* Only a state open here is known to be alive; a late signal for one that is not has
   * nothing left to stop (its next entry checks the stop word itself). */
  if (lh_active_here(S) && lh_stopnow(S) != LH_STOP_NONE) lh_arm_here(S);
  errno = saved;
}

static void lh_install(void) {
  if (LH_POLLS_FOR_STOPS) return; /* no signal is sent (lh_private.h) */
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = lh_signal_action;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(LH_SIGNAL, &action, &lh_previous_action);
}

void lh_deliver_init(void) { pthread_once(&lh_install_once, lh_install); }

__attribute__((cold, noinline)) int lh_first_entry_here(void) {
  lh_own_tid = (int)syscall(SYS_gettid);
  /* A thread that blocks the signal would never take it: unblock it once per thread. */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, LH_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  return lh_own_tid;
}

void lh_deliver(lh_state *S) {
  if (lh_active_here(S)) { /* this thread runs it: hook it here, as the handler would */
    lh_arm_here(S);
    return;
  }
  if (LH_POLLS_FOR_STOPS) return; /* the running thread polls the stop word */
  int tid = atomic_load(&S->tid);
  if (tid == 0) return; /* never entered: its first entry checks the stop word */
  siginfo_t info;
  memset(&info, 0, sizeof info);
  info.si_signo = LH_SIGNAL;
  info.si_code = SI_QUEUE;
  info.si_errno = LH_SIGNAL_MARK;
  info.si_pid = getpid();
  info.si_uid = getuid();
  info.si_value.sival_ptr = S;
  /* A thread that has exited since fails with ESRCH, and a thread that reuses its id here
   * runs no entry of S: either way there is nothing to hook. */
  syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, LH_SIGNAL, &info);
}
