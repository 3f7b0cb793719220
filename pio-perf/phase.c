/* One phase (write or read) of one iteration on one rank: open every
 * file, barrier, the accesses, barrier, close every file; with the times
 * of the timing model (timing.c).  Transfer g of the phase goes to file
 * g / (dsets * m), dataset (g / m) % dsets, the pattern's transfer g % m
 * (m transfers per dataset). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pio_perf.h"

struct transfer {
    uint64_t file, dset, offset;   /* offset within the dataset */
    uint64_t position;             /* offset within the file's data: its contents */
};

uint64_t pio_case_transfers(const struct pio_case *c)
{
    struct pio_pattern p;
    pio_pattern_init(&p, c->opts, c->nprocs, c->rank, c->xfer);
    return c->opts->num_files * c->opts->num_dsets * pio_pattern_transfers(&p);
}

static struct transfer transfer_at(const struct pio_pattern *p, uint64_t ndsets, uint64_t g)
{
    uint64_t m = pio_pattern_transfers(p);
    struct transfer t = {.file = g / (ndsets * m), .dset = (g / m) % ndsets,
                         .offset = pio_pattern_offset(p, g % m)};
    t.position = t.dset * pio_pattern_extent(p) + t.offset;
    return t;
}

static unsigned char *slot_of(const struct pio_ring *ring, uint64_t xfer, uint64_t g)
{
    return ring->buf + (g % ring->slots) * xfer;
}

static void fill_slot(const struct pio_ring *ring, const struct pio_pattern *p, uint64_t ndsets,
                      uint64_t g)
{
    struct transfer t = transfer_at(p, ndsets, g);
    pio_fill(slot_of(ring, p->xfer, g), p->xfer, t.file, t.position);
}

static void check_slot(const struct pio_ring *ring, const struct pio_pattern *p, uint64_t ndsets,
                       uint64_t g, const char *path)
{
    struct transfer t = transfer_at(p, ndsets, g);
    int64_t bad = pio_check(slot_of(ring, p->xfer, g), p->xfer, t.file, t.position);
    if (bad < 0)
        return;
    char msg[512];
    snprintf(msg, sizeof msg,
             "%s: dataset %" PRIu64 ", byte %" PRIu64 " is not what was written", path, t.dset,
             t.offset + (uint64_t)bad);
    pio_fail("verify", msg);
}

static void open_files(const struct pio_case *c, enum pio_op op, uint64_t extent,
                       struct pio_file **files)
{
    for (uint64_t k = 0; k < c->opts->num_files; k++)
        files[k] = c->api->open(c->paths[k], op, c->comm, c->opts->num_dsets, extent);
}

static void close_files(const struct pio_case *c, struct pio_file **files)
{
    for (uint64_t k = 0; k < c->opts->num_files; k++)
        c->api->close(files[k]);
}

/* The accesses, between the barriers; sets t->first and t->last. */
static void access_all(const struct pio_case *c, enum pio_op op, const struct pio_pattern *p,
                       struct pio_ring *ring, struct pio_file **files, struct pio_rank_times *t)
{
    uint64_t n = pio_case_transfers(c), nd = c->opts->num_dsets;
    for (uint64_t g = 0; g < n; g++) {
        struct transfer x = transfer_at(p, nd, g);
        unsigned char *buf = slot_of(ring, p->xfer, g);
        if (g >= ring->slots && op == PIO_WRITE)
            fill_slot(ring, p, nd, g);
        else if (g >= ring->slots && c->opts->verify)
            check_slot(ring, p, nd, g - ring->slots, c->paths[x.file]);
        double start = pio_now();
        if (g == 0)
            t->first = start;
        if (op == PIO_WRITE)
            c->api->write(files[x.file], x.dset, x.offset, buf, p->xfer);
        else
            c->api->read(files[x.file], x.dset, x.offset, buf, p->xfer);
        t->last = pio_now();
    }
}

/* Before the phase: the write data, or a cleared buffer to read into. */
static void prepare_ring(struct pio_ring *ring, const struct pio_pattern *p, uint64_t ndsets,
                         uint64_t n, enum pio_op op)
{
    uint64_t used = n < ring->slots ? n : ring->slots;
    if (op == PIO_READ) {
        memset(ring->buf, 0, used * p->xfer);
        return;
    }
    for (uint64_t g = 0; g < used; g++)
        fill_slot(ring, p, ndsets, g);
}

void pio_run_phase(const struct pio_case *c, enum pio_op op, struct pio_ring *ring,
                   struct pio_rank_times *t)
{
    struct pio_pattern p;
    pio_pattern_init(&p, c->opts, c->nprocs, c->rank, c->xfer);
    uint64_t n = pio_case_transfers(c);
    struct pio_file **files = calloc(c->opts->num_files, sizeof *files);
    if (files == NULL)
        pio_fail("calloc", "out of memory");
    prepare_ring(ring, &p, c->opts->num_dsets, n, op);

    MPI_Barrier(c->comm);
    double t0 = pio_now();
    open_files(c, op, pio_pattern_extent(&p), files);
    t->open = pio_now() - t0;
    MPI_Barrier(c->comm);
    t->barrier_end = pio_now();
    access_all(c, op, &p, ring, files, t);
    MPI_Barrier(c->comm);
    t->closing_end = pio_now();
    t0 = pio_now();
    close_files(c, files);
    t->close = pio_now() - t0;
    free(files);

    if (op == PIO_READ && c->opts->verify)
        for (uint64_t g = n > ring->slots ? n - ring->slots : 0; g < n; g++)
            check_slot(ring, &p, c->opts->num_dsets, g, c->paths[transfer_at(&p, c->opts->num_dsets, g).file]);
}
