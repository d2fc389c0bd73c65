// lh_tsan.c: what a build for ThreadSanitizer needs, and nothing else builds.
//
// Why C: the sanitizer keeps a shadow copy of each thread's call stack, and unwinds it on a
// longjmp only if it sees the longjmp. It intercepts `longjmp` and `siglongjmp`, but not
// `_longjmp` nor the fortified `__longjmp_chk`, which Debian's liblua calls for every error
// and every yield. So each Lua error that crossed a frame of this shim (a trampoline, a hook,
// a coroutine step) left that frame on the shadow stack for good; in a long run the shadow
// stack ran past its end and the process died inside the sanitizer (a SEGV while it hashed
// or pushed a stack), at random and far from the cause. Defined here, in the executable,
// these two take the place of libc's for liblua, and go through the intercepted `longjmp`,
// which has the same effect (neither restores a signal mask that `_setjmp` did not save).
#include "lh_private.h"

#if LH_TSAN_BUILD /* lh_private.h */

#include <setjmp.h>

/* `longjmp` itself, not a fortified redirection of it back to __longjmp_chk. */
extern void lh_intercepted_longjmp(struct __jmp_buf_tag env[1], int value) __asm__("longjmp")
  __attribute__((noreturn));

__attribute__((noreturn)) void __longjmp_chk(struct __jmp_buf_tag env[1], int value) {
  lh_intercepted_longjmp(env, value);
}

__attribute__((noreturn)) void _longjmp(struct __jmp_buf_tag env[1], int value) {
  lh_intercepted_longjmp(env, value);
}

#endif
