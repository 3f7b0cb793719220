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
 * never allocate.  ofds are recycled through a lock-free free list. */
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

static inline struct iolens_ofd *iolens_fd_lookup(int fd)
{
    if (__builtin_expect((unsigned)fd >= IOLENS_FD_MAX, 0))
        return NULL;
    iolens_ofd_slot *chunk = atomic_load_explicit(&iolens_fd_chunks[(unsigned)fd / IOLENS_FD_CHUNK],
                                                  memory_order_acquire);
    if (__builtin_expect(chunk == NULL, 0))
        return NULL;
    return atomic_load_explicit(&chunk[(unsigned)fd % IOLENS_FD_CHUNK], memory_order_acquire);
}

/* Binds fd to a fresh ofd for file/rec; returns it, or NULL if the budget
 * is full or fd is out of range.  Any previous binding of fd is dropped. */
struct iolens_ofd *iolens_fd_open(int fd, struct iolens_file *file, void *rec, int flags);

/* Makes newfd share oldfd's ofd (dup family).  Dropping newfd's previous
 * binding first, as dup2 closes it.  Returns the shared ofd or NULL. */
struct iolens_ofd *iolens_fd_dup(int oldfd, int newfd);

/* Unbinds fd; the ofd is recycled when its last descriptor goes. */
void iolens_fd_close(int fd);

#endif
