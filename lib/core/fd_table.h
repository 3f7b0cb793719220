/* Per-descriptor state, kept apart from the per-file counters.
 *
 * A descriptor maps to an "open file description" (struct iolens_ofd),
 * as in the kernel: dup, dup2, dup3 and fcntl(F_DUPFD) make a second
 * descriptor share the same ofd, and so the same offset, exactly as the
 * kernel does.  The ofd holds the current offset and the end of the last
 * access, which drive the consecutive/sequential/stride rules.
 *
 * The table is two-level (chunks of descriptors allocated from the budget
 * on first use), so lookups on the read/write path are two loads and
 * never allocate.  ofds are recycled through a lock-free free list.
 *
 * Overflow.  When the budget cannot hold an ofd (or the chunk of a
 * descriptor's slot), the descriptor is still bound: to one static
 * overflow ofd set up at start-up for <other files>
 * (iolens_fd_set_overflow).  It lives in the descriptor's slot if the
 * chunk exists, else as a bit of a static bitmap, so binding it never
 * allocates and every later call on the descriptor is still counted.
 * Descriptors on the overflow ofd share its offset, so only the access
 * pattern counters of <other files> are approximate, never the totals. */
#ifndef IOLENS_FD_TABLE_H
#define IOLENS_FD_TABLE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct iolens_file;

struct iolens_ofd {
    struct iolens_file *file;   /* the file the descriptor is open on */
    void *rec;                  /* the layer record counters go to */
    _Atomic int64_t offset;     /* current file position as tracked */
    int64_t last_end;           /* end offset of the previous access, -1 none */
    int64_t last_start;         /* start offset of the previous access, -1 none */
    int flags;                  /* open flags (O_APPEND matters) */
    _Atomic int refs;           /* descriptors sharing this ofd */
    struct iolens_ofd *next_free;
};

#define IOLENS_FD_CHUNK 256
#define IOLENS_FD_MAX 65536     /* descriptors above this are not tracked */

int iolens_fd_table_init(void);
/* Clears the free-list lock (runtime.h: iolens_runtime_release_locks). */
void iolens_fd_table_release_locks(void);

/* Looks up the ofd of fd; NULL if the descriptor is not tracked. */
struct iolens_ofd *iolens_fd_get(int fd);

/* The same, inline, for the read/write path: a range check and two
 * acquire loads (plain loads on x86_64, ldar on aarch64). */
typedef _Atomic(struct iolens_ofd *) iolens_ofd_slot;
extern _Atomic(iolens_ofd_slot *) iolens_fd_chunks[IOLENS_FD_MAX / IOLENS_FD_CHUNK];

/* The overflow bitmap lookup (out of line: only for a descriptor without
 * an ofd in its slot, and only once an overflow binding was ever made). */
extern _Atomic int iolens_fd_overflow_used;
struct iolens_ofd *iolens_fd_lookup_overflow(int fd);

static inline struct iolens_ofd *iolens_fd_lookup(int fd)
{
    if (__builtin_expect((unsigned)fd >= IOLENS_FD_MAX, 0))
        return NULL;
    iolens_ofd_slot *chunk = atomic_load_explicit(&iolens_fd_chunks[(unsigned)fd / IOLENS_FD_CHUNK],
                                                  memory_order_acquire);
    struct iolens_ofd *ofd = NULL;
    if (__builtin_expect(chunk != NULL, 1))
        ofd = atomic_load_explicit(&chunk[(unsigned)fd % IOLENS_FD_CHUNK], memory_order_acquire);
    if (__builtin_expect(ofd == NULL, 0) &&
        __builtin_expect(atomic_load_explicit(&iolens_fd_overflow_used, memory_order_relaxed), 0))
        return iolens_fd_lookup_overflow(fd);
    return ofd;
}

/* Sets up the overflow ofd: descriptors the budget cannot hold an ofd for
 * are bound to it, and so count into file/rec (<other files>).  Until it
 * is set, such descriptors are left unbound. */
void iolens_fd_set_overflow(struct iolens_file *file, void *rec);
/* Whether ofd is the overflow ofd. */
int iolens_fd_is_overflow(const struct iolens_ofd *ofd);

/* Binds fd to a fresh ofd for file/rec and returns it.  When the budget
 * cannot hold one, fd is bound to the overflow ofd, which is returned
 * (NULL if there is none yet); NULL if fd is out of range.  Any previous
 * binding of fd is dropped. */
struct iolens_ofd *iolens_fd_open(int fd, struct iolens_file *file, void *rec, int flags);

/* Makes newfd share oldfd's ofd (dup family).  Dropping newfd's previous
 * binding first, as dup2 closes it.  Returns the shared ofd (the overflow
 * ofd if newfd's slot cannot be had) or NULL. */
struct iolens_ofd *iolens_fd_dup(int oldfd, int newfd);

/* Unbinds fd; the ofd is recycled when its last descriptor goes. */
void iolens_fd_close(int fd);

/* The lowest descriptor from from to last (both included) that is bound
 * (to an ofd or to the overflow one), or -1: a walk for close_range. */
int iolens_fd_next_bound(unsigned from, unsigned last);

/* fn is called with each ofd whose last descriptor went (by a close, or
 * a rebinding of the number by open or dup2), just before it is recycled,
 * its file and rec still set; never for the overflow ofd.  The POSIX layer
 * counts the ofds open on a record through it (an idle record may be
 * parked).  fn runs with no lock of this table held. */
void iolens_fd_set_release_hook(void (*fn)(struct iolens_ofd *ofd));

/* Calls fn on each descriptor's ofd (not the overflow one): an ofd that
 * several descriptors share, once for each.  Not on the read/write path:
 * a walk of every chunk made. */
void iolens_fd_foreach_ofd(void (*fn)(struct iolens_ofd *ofd, void *arg), void *arg);

/* What the descriptor table would still need to bind every descriptor it
 * was asked to without the overflow ofd: chunks refused, plus ofds beyond
 * those allocated at the peak of descriptors open at once (a demand
 * function, budget.h). */
uint64_t iolens_fd_table_unmet_bytes(uint64_t budget);

#endif
