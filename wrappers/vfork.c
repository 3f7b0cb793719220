/* vfork: the child runs on its parent's memory, the runtime's included,
 * until it execs or exits, and the parent's calling thread waits until
 * then.  Whatever a wrapper did in the child (a dup2 onto its stdout, a
 * close_range of the descriptors it should not inherit: Python's
 * subprocess does both) changed the parent's bookkeeping.  So the thread
 * that calls vfork is marked first (IOLENS_GUARD_VFORK, core/state.h):
 * the child sees the mark and passes every call through, and the parent
 * takes it away at its next call.
 *
 * The wrapper must not return twice through a frame of its own: the
 * child would reuse the stack the parent returns through.  So it only
 * marks the thread and then jumps to the C library's vfork, which
 * returns straight to the caller, twice, as it does untraced.  That jump
 * is written in assembly: a C tail call is the compiler's choice.  On an
 * architecture without it, vfork is not wrapped (the child then goes on
 * changing the parent's bookkeeping, as before). */
#include <errno.h>
#include <unistd.h>

#include "core/real_calls.h"
#include "core/state.h"
#include "wrapper.h"

#if defined(__x86_64__)

/* The failure of a vfork the C library does not have: ENOSYS, as every
 * wrapper without its real function. */
static pid_t vfork_missing(void)
{
    errno = ENOSYS;
    return -1;
}

/* Marks the thread (unless the runtime is off, or the guard is set for
 * another reason, which then covers the child as well) and returns the
 * real vfork to jump to.  Called from the assembly below, before the
 * real vfork. */
__attribute__((visibility("hidden"), used)) void *iolens_vfork_prepare(void)
{
    pid_t (*real)(void) = IOLENS_REAL(vfork);
    if (real == NULL)
        return (void *)vfork_missing;
    if (iolens_in_runtime == 0 && atomic_load_explicit(&iolens_active, memory_order_relaxed))
        iolens_in_runtime = IOLENS_GUARD_VFORK;
    return (void *)real;
}

/* At entry the stack is 8 bytes off 16-byte alignment; one 8-byte slot
 * aligns it for the call.  The real vfork is then entered as if called
 * by our caller. */
__asm__(".text\n"
        ".globl vfork\n"
        ".type vfork, @function\n"
        "vfork:\n"
#ifdef __CET__
        "    endbr64\n"
#endif
        "    sub $8, %rsp\n"
        "    call iolens_vfork_prepare\n"
        "    add $8, %rsp\n"
        "    jmp *%rax\n"
        ".size vfork, .-vfork\n");

#endif
