/* The runtime's one kind of lock: a test-and-test-and-set spinlock on an
 * _Atomic int (0: free), held for a few counter or table updates and never
 * across a system call.  Every lock in lib/ is one of these, taken with:
 *
 *  - iolens_lock / iolens_unlock: records and interval stores, the read
 *    and write path.  The lock is skipped while the process has a single
 *    thread: glibc's __libc_single_threaded is cleared by the first
 *    pthread_create and never set again, so nothing can race with the
 *    caller while it is set.  (A thread made by a raw clone() would not
 *    clear it.)  iolens_lock returns whether it took the lock, which
 *    iolens_unlock then gets back.
 *  - iolens_lock_always / iolens_unlock_always: tables changed at open
 *    and close, and the MPI-IO and HDF5 records, whose libraries may run
 *    threads of their own.
 *  - iolens_trylock: a store's fast path that goes another way when the
 *    lock is taken.
 *  - iolens_once: a set-up made on first use (a library layer's interval
 *    store, MPI-IO's tables), off the read/write path.
 *
 * The exceptions, and why: the two symbol resolvers (layers/hdf5_calls.c
 * and mpi/mpi_calls.c) hold a pthread mutex across dlopen/dlsym, which
 * take the loader's own lock and may run constructors: a waiter must
 * sleep there, not spin.  They run when a library is looked up, never on
 * the read/write path.
 *
 * A forked child clears every spinlock (iolens_runtime_release_locks):
 * another thread of the parent may have held it at the fork. */
#ifndef IOLENS_SPINLOCK_H
#define IOLENS_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>

#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define IOLENS_HAVE_LIBC_SINGLE_THREADED 1
#endif
#endif

static inline void iolens_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Pauses between looks at a taken lock before giving the CPU away. */
#define IOLENS_SPINS_BEFORE_YIELD 64

/* One round of waiting for a lock: a pause, and every
 * IOLENS_SPINS_BEFORE_YIELD rounds a sched_yield().  With more threads
 * than CPUs the holder may have been preempted: spinning on would burn
 * the waiter's whole time slice while the holder cannot run (measured:
 * 4 threads on one shared file on 2 CPUs added over 1 us a call). */
static inline void iolens_spin_wait(unsigned *spins)
{
    if (++*spins < IOLENS_SPINS_BEFORE_YIELD) {
        iolens_cpu_relax();
    } else {
        *spins = 0;
        sched_yield();
    }
}

/* Whether the process has a single thread (glibc's flag, above): then
 * nothing can race with the caller.  0 when the C library does not say. */
static inline int iolens_single_threaded(void)
{
#ifdef IOLENS_HAVE_LIBC_SINGLE_THREADED
    return __libc_single_threaded;
#else
    return 0;
#endif
}

/* Takes the lock even in a single-threaded process. */
static inline void iolens_lock_always(_Atomic int *lock)
{
    unsigned spins = 0;
    while (atomic_exchange_explicit(lock, 1, memory_order_acquire))
        while (atomic_load_explicit(lock, memory_order_relaxed))
            iolens_spin_wait(&spins);
}

static inline int iolens_lock(_Atomic int *lock)
{
#ifdef IOLENS_HAVE_LIBC_SINGLE_THREADED
    if (__libc_single_threaded)
        return 0;
#endif
    iolens_lock_always(lock);
    return 1;
}

static inline void iolens_unlock(_Atomic int *lock, int held)
{
    if (held)
        atomic_store_explicit(lock, 0, memory_order_release);
}

/* Releases a lock taken with iolens_lock_always or iolens_trylock.  Also
 * what a forked child does to every lock, which another thread of the
 * parent may have held at the fork (iolens_runtime_release_locks). */
static inline void iolens_unlock_always(_Atomic int *lock)
{
    atomic_store_explicit(lock, 0, memory_order_release);
}

/* Takes the lock only if it is free at once (even in a single-threaded
 * process); returns whether it did. */
static inline int iolens_trylock(_Atomic int *lock)
{
    return !atomic_exchange_explicit(lock, 1, memory_order_acquire);
}

/* Runs set_up(arg) unless *done says it ran, the first caller under
 * lock; *done is then set with a release store and tested with an
 * acquire load, so that every later caller sees the set-up's work whole
 * (one load once it is done). */
static inline void iolens_once(_Atomic int *done, _Atomic int *lock, void (*set_up)(void *arg),
                               void *arg)
{
    if (atomic_load_explicit(done, memory_order_acquire))
        return;
    iolens_lock_always(lock);
    if (!atomic_load_explicit(done, memory_order_relaxed)) {
        set_up(arg);
        atomic_store_explicit(done, 1, memory_order_release);
    }
    iolens_unlock_always(lock);
}

#endif
