/* Call sites: where in the program a traced read or write was made.
 *
 * A site is a return address.  A wrapper the program called directly
 * notes its own return address; a wrapper of an I/O library (MPI-IO,
 * and the HDF5 calls that write: H5Dread/H5Dwrite, the file's create,
 * open and flushes, the closes) also claims the thread's "outer site" slot for the time of the
 * library call, so that the reads and writes the library makes beneath
 * it (ROMIO's or HDF5's pwrite) are charged to the program's line that
 * entered the library, without walking the stack: no frame pointers or
 * unwind tables are needed.
 *
 * Each layer record keeps its first site in place (struct
 * iolens_site_ref: most records are read or written from one line, and
 * pay nothing more) and a bounded table of the others, attached from the
 * budget when a second site shows up.  The log writer turns the addresses
 * into (module, build-id, offset) off the hot path (log/sites_region.h). */
#ifndef IOLENS_CALL_SITE_H
#define IOLENS_CALL_SITE_H

#include <stddef.h>
#include <stdint.h>

/* Sites a record counts apart on the read/write path: a call from one of
 * them costs a few compares.  As many as the log keeps
 * (IOLENS_SITES_LOGGED, log_format.h). */
#define IOLENS_SITES_KEPT 4

struct iolens_site_slot {
    uintptr_t addr;           /* return address; 0: slot free */
    uint64_t ops;
    int64_t bytes;
    double time;              /* clock units (clock.h), summed call durations */
};

/*
 * A record's sites, top ones by bytes, with every figure exact.
 *
 * The first IOLENS_SITES_KEPT sites take the kept slots: the record's
 * own (struct iolens_site_ref) and the table's.  A later site waits in
 * the "waiting" slot and takes a kept slot as soon as it has moved more
 * bytes than the smallest kept site, which then waits in its place: the
 * loop that writes 2 million 16-byte records from a fifth line still gets
 * a line of its own.  Only one site can wait: a newcomer takes the waiting
 * slot from a site that made a single call there, else it goes to other.
 *
 * A site is counted apart only if none of its calls was ever counted in
 * other, so that a site's figures are all of its calls: "spilled" has one
 * bit per hash of each site whose calls went to other (a bit set by
 * another site only keeps a newcomer out, which is safe).  The slots and
 * other add up to the record's reads and writes in every case.
 *
 * The waiting slot and the mask are attached from the budget when a fifth
 * site first shows up (most records never see one); without room, later
 * sites go to other, as they would without that part.
 */
struct iolens_site_late {
    struct iolens_site_slot waiting; /* addr 0: none waits */
    uint64_t spilled;                /* a bit per site hash (call_site.c) */
};

/* The late part that could not be allocated: later sites go to other. */
#define IOLENS_SITES_NO_LATE ((struct iolens_site_late *)1)

struct iolens_site_table {
    struct iolens_site_slot slot[IOLENS_SITES_KEPT - 1]; /* kept after the first */
    struct iolens_site_late *late;   /* NULL until a fifth site */
    uint64_t other_ops;              /* the calls of every site not counted apart */
    int64_t other_bytes;
    double other_time;
};

/* What a layer record holds: its first site, and the table of the rest. */
struct iolens_site_ref {
    struct iolens_site_slot first;   /* the first kept slot; addr 0: no call yet */
    struct iolens_site_table *more;  /* NULL until a second site;
                                      * IOLENS_SITES_NONE: no sites kept */
};

/* A table's figures, copied under the record's lock for the log: the
 * kept and waiting sites (addr 0: an empty slot) and other (addr 0). */
struct iolens_site_snapshot {
    struct iolens_site_slot top[IOLENS_SITES_KEPT + 1];
    struct iolens_site_slot other;
};

/* Copies a record's sites into *out: 1 if it has any (a call was
 * counted and they were not given up), else 0. */
int iolens_sites_snapshot(const struct iolens_site_ref *ref, struct iolens_site_snapshot *out);

/* A table that could not be allocated (budget full): the record keeps no
 * sites at all rather than some, so that what it keeps is exact (its
 * first slot is emptied too).  Also every record's, at its first call,
 * when sites are off (IOLENS_DISABLE_SITES). */
#define IOLENS_SITES_NONE ((struct iolens_site_table *)1)

/* 1 unless IOLENS_DISABLE_SITES (set once at start-up).  Read at a
 * record's first call (iolens_sites_count_more), not on every call. */
extern int iolens_sites_on;

/* The site the next layer bookkeeping call of iolens_posix_read/write
 * charges (set by the caller right before it, taken by the layer), and
 * the outer site an I/O library's wrapper holds while the library runs.
 * The read and write wrappers' own path passes its site as an argument
 * instead (iolens_posix_write_ofd ...): no thread-local store and load. */
extern __thread uintptr_t iolens_site_current __attribute__((tls_model("initial-exec")));
extern __thread uintptr_t iolens_site_outer __attribute__((tls_model("initial-exec")));

/* The site of a read or write, with ra = __builtin_return_address(0) of
 * the exported function: the outer site if a library call is under way,
 * else ra.  Never 0 for a real call.  Whether sites are kept at all is
 * not asked here (see iolens_sites_on). */
static inline uintptr_t iolens_site_of(void *ra)
{
    uintptr_t outer = iolens_site_outer;
    return outer != 0 ? outer : (uintptr_t)ra;
}

/* The same, noted for the next bookkeeping call that takes it. */
static inline void iolens_site_note(void *ra)
{
    iolens_site_current = iolens_site_of(ra);
}

/* Taken once by the layer: a bookkeeping call not preceded by a note
 * (the runtime's own, unit tests) charges no site. */
static inline uintptr_t iolens_site_take(void)
{
    uintptr_t site = iolens_site_current;
    iolens_site_current = 0;
    return site;
}

/* An I/O library's wrapper, around the real call: claims the outer slot
 * if no outer call holds it (returns whether it did), and gives it back. */
static inline int iolens_site_enter(void *ra)
{
    if (iolens_site_outer != 0)
        return 0;
    iolens_site_outer = (uintptr_t)ra;
    return 1;
}

static inline void iolens_site_leave(int claimed)
{
    if (claimed)
        iolens_site_outer = 0;
}

static inline void iolens_site_add(struct iolens_site_slot *s, int64_t bytes, double time)
{
    s->ops++;
    s->bytes += bytes;
    s->time += time;
}

/* A call that is not from the record's first site: the record's first
 * call, or a later site (the table, attached here, then the late part).
 * Out of line: the read/write path of a record used from one line never
 * gets here after its first call. */
void iolens_sites_count_more(struct iolens_site_ref *ref, uintptr_t site, int64_t bytes,
                             double time);

/* Charges one call of bytes and time (clock units) to site in the
 * record's sites, under the record's lock.  site 0: a bookkeeping call no
 * wrapper made (the runtime's own, unit tests), nothing. */
static inline void iolens_sites_count(struct iolens_site_ref *ref, uintptr_t site, int64_t bytes,
                                      double time)
{
    if (site == 0)
        return;
    if (__builtin_expect(ref->first.addr == site, 1)) {
        iolens_site_add(&ref->first, bytes, time);
        return;
    }
    if (ref->more == IOLENS_SITES_NONE)
        return;
    iolens_sites_count_more(ref, site, bytes, time);
}

/* iolens_sites_count without the call: counts and returns 1 when the
 * site is the first one, 0 or not kept; returns 0, changing nothing, when
 * iolens_sites_count would have to go out of line. */
static inline int iolens_sites_count_inline(struct iolens_site_ref *ref, uintptr_t site,
                                            int64_t bytes, double time)
{
    if (site == 0)
        return 1;
    if (__builtin_expect(ref->first.addr == site, 1)) {
        iolens_site_add(&ref->first, bytes, time);
        return 1;
    }
    return ref->more == IOLENS_SITES_NONE;
}

/* Charges every call of src's sites to dst, under dst's lock: the record
 * of a file folded whole into <other files> (layers/park_pool.h).  Each
 * site's figures stay all of its calls: a site src kept apart is kept
 * apart in dst if it can be, and src's calls in other go to dst's other,
 * with every later call of their sites.  When that cannot stay exact
 * (src had calls but no sites, or dst already keeps apart a site src
 * spilled, or no room), dst keeps no sites at all. */
void iolens_sites_fold(struct iolens_site_ref *dst, const struct iolens_site_ref *src,
                       int src_had_calls);

/* A forked child's record starts afresh: its sites are emptied, the
 * table and its late part kept attached. */
void iolens_sites_clear(struct iolens_site_ref *ref);

/* Bytes of one table in the budget (without the late part): what a
 * record pays when a second site shows up. */
unsigned long iolens_sites_table_size(void);

#endif
