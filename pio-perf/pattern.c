/* Access patterns of pio-bench: where each transfer of a rank goes within
 * one dataset region.  With n ranks, block b, stride s, nest count c and
 * nest stride S (bytes), transfer size x, and j the rank's block index:
 *   contiguous      rank r owns [r * share, (r + 1) * share), in order;
 *   strided         block j at j * s + r * b (defaults b = x, s = n * b:
 *                   the ranks' blocks interleave);
 *   nested-strided  block j = g * c + k at g * S + k * s + r * b
 *                   (defaults c = 4, S = 2 * c * s: groups of c strided
 *                   blocks, with a gap as long as a group between them).
 * A block of several transfers is accessed in order. */
#include <inttypes.h>

#include "pio_perf.h"

const char *pio_pattern_name(enum pio_pattern_kind k)
{
    switch (k) {
    case PIO_STRIDED: return "strided";
    case PIO_NESTED: return "nested-strided";
    default: return "contiguous";
    }
}

void pio_pattern_init(struct pio_pattern *p, const struct pio_options *o, uint64_t nprocs,
                      int rank, uint64_t xfer)
{
    *p = (struct pio_pattern){.kind = o->pattern, .xfer = xfer, .nprocs = nprocs, .rank = rank};
    p->share = o->file_size / o->num_dsets / nprocs;
    p->block = o->block != 0 ? o->block : xfer;
    p->stride = o->stride != 0 ? o->stride : nprocs * p->block;
    p->nest_count = o->nest_count != 0 ? o->nest_count : 4;
    p->nest_stride = o->nest_stride != 0 ? o->nest_stride : 2 * p->nest_count * p->stride;
}

uint64_t pio_pattern_transfers(const struct pio_pattern *p)
{
    return p->share / p->xfer;
}

uint64_t pio_pattern_offset(const struct pio_pattern *p, uint64_t i)
{
    if (p->kind == PIO_CONTIGUOUS)
        return (uint64_t)p->rank * p->share + i * p->xfer;
    uint64_t per_block = p->block / p->xfer;
    uint64_t j = i / per_block, within = (i % per_block) * p->xfer;
    uint64_t base = (uint64_t)p->rank * p->block + within;
    if (p->kind == PIO_STRIDED)
        return j * p->stride + base;
    return (j / p->nest_count) * p->nest_stride + (j % p->nest_count) * p->stride + base;
}

uint64_t pio_pattern_extent(const struct pio_pattern *p)
{
    struct pio_pattern last = *p;
    last.rank = (int)(p->nprocs - 1);
    uint64_t n = pio_pattern_transfers(p);
    return n == 0 ? 0 : pio_pattern_offset(&last, n - 1) + p->xfer;
}

/* The problem of one (nprocs, xfer) case, or NULL. */
static const char *case_problem(const struct pio_options *o, uint64_t nprocs, uint64_t xfer)
{
    struct pio_pattern p;
    pio_pattern_init(&p, o, nprocs, 0, xfer);
    if (o->file_size % o->num_dsets != 0 || (o->file_size / o->num_dsets) % PIO_ELMT_SIZE != 0)
        return "the file size is not a multiple of the number of datasets times 4 (int elements)";
    if (xfer % PIO_ELMT_SIZE != 0)
        return "the transfer size is not a multiple of 4 (int elements)";
    if ((o->file_size / o->num_dsets) % (nprocs * p.block) != 0)
        return "a dataset does not split into equal shares of whole blocks for every process";
    if (p.block % xfer != 0)
        return "the block size is not a multiple of the transfer size";
    if (p.kind != PIO_CONTIGUOUS && p.stride < nprocs * p.block)
        return "the stride is shorter than the processes' blocks (processes x block)";
    if (p.kind == PIO_NESTED && p.nest_stride < (p.nest_count - 1) * p.stride + nprocs * p.block)
        return "the nest stride is shorter than a group of blocks";
    return NULL;
}

int pio_check_cases(const struct pio_options *o, int world_size)
{
    if (o->max_procs > (uint64_t)world_size) {
        fprintf(stderr, PIO_PROG ": -P %" PRIu64 " is more than the %d processes of the job\n",
                o->max_procs, world_size);
        return -1;
    }
    for (uint64_t n = o->min_procs; n <= o->max_procs; n *= 2)
        for (uint64_t x = o->min_xfer; x <= o->max_xfer; x *= 2) {
            const char *why = case_problem(o, n, x);
            if (why != NULL) {
                fprintf(stderr,
                        PIO_PROG ": %" PRIu64 " processes, transfer size %" PRIu64 ": %s\n", n,
                        x, why);
                return -1;
            }
        }
    return 0;
}
