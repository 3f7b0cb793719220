/* iolens-pio-perf: the loops of the classic pio_perf (process counts,
 * transfer sizes, APIs, iterations of write then read) and the output. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/out_file.h"
#include "pio_perf.h"

const struct pio_api_ops *pio_api(enum pio_api api)
{
    switch (api) {
    case PIO_POSIX: return &pio_posix_ops;
    case PIO_MPIIO: return &pio_mpiio_ops;
#ifdef IOLENS_HAVE_HDF5
    case PIO_PHDF5: return &pio_phdf5_ops;
#endif
    default: return NULL;
    }
}

/* The data files of one case: DIR/iolens-pio-perf.JOB.API.K.dat (JOB:
 * rank 0's process id, so that concurrent runs do not collide). */
static char **make_paths(const struct pio_options *o, const struct pio_api_ops *api, long job)
{
    char **paths = calloc(o->num_files, sizeof *paths);
    if (paths == NULL)
        pio_fail("calloc", "out of memory");
    for (uint64_t k = 0; k < o->num_files; k++)
        if (asprintf(&paths[k], "%s/" PIO_PROG ".%ld.%s.%" PRIu64 ".%s", o->dir, job, api->key, k,
                     api == pio_api(PIO_PHDF5) ? "h5" : "dat") < 0)
            pio_fail("asprintf", "out of memory");
    return paths;
}

static void remove_files(const struct pio_case *c)
{
    for (uint64_t k = 0; k < c->opts->num_files; k++) {
        if (c->rank == 0 && !c->opts->keep && unlink(c->paths[k]) != 0)
            pio_fail("unlink", c->paths[k]);
        free(c->paths[k]);
    }
    free(c->paths);
}

static struct pio_ring make_ring(const struct pio_case *c)
{
    uint64_t n = pio_case_transfers(c), most = PIO_RING_MAX / c->xfer;
    struct pio_ring ring = {.slots = n < most ? n : most};
    if (ring.slots == 0)
        ring.slots = 1;
    ring.buf = malloc(ring.slots * c->xfer);
    if (ring.buf == NULL)
        pio_fail("malloc", "out of memory for the transfer buffers");
    return ring;
}

/* Iterations of one API, then its report (rank 0). */
static void run_api(struct pio_case *c, long job, FILE *raw)
{
    const struct pio_options *o = c->opts;
    c->paths = make_paths(o, c->api, job);
    struct pio_ring ring = make_ring(c);
    struct pio_rank_times *all = calloc(c->nprocs, sizeof *all);
    if (all == NULL)
        pio_fail("calloc", "out of memory");
    struct pio_result res[2] = {{.c = c, .op = PIO_WRITE}, {.c = c, .op = PIO_READ}};
    for (int op = 0; op < 2; op++) {
        pio_stats_init(&res[op].st);
        res[op].bytes = o->file_size * o->num_files;
    }
    for (uint64_t it = 0; it < o->iterations; it++)
        for (int op = 0; op < 2; op++) {
            struct pio_rank_times t = {0};
            pio_run_phase(c, (enum pio_op)op, &ring, &t);
            pio_stats_add(&res[op].st, &t, c->comm, all);
            if (c->rank == 0 && raw != NULL)
                pio_report_raw(raw, c, (enum pio_op)op, it, all);
        }
    for (int op = 0; c->rank == 0 && op < 2; op++) {
        if (o->json)
            pio_report_json(stdout, &res[op]);
        else
            pio_report_text(stdout, &res[op]);
    }
    fflush(stdout);
    MPI_Barrier(c->comm);   /* every rank has closed the files */
    remove_files(c);
    free(all);
    free(ring.buf);
}

static bool api_selected(const struct pio_options *o, enum pio_api a)
{
    return o->apis == 0 ? pio_api(a) != NULL : (o->apis & (1u << a)) != 0;
}

/* The transfer sizes and APIs of one process count, on comm. */
static void run_procs(const struct pio_options *o, uint64_t nprocs, MPI_Comm comm, long job,
                      FILE *raw)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    for (uint64_t x = o->min_xfer; x <= o->max_xfer; x *= 2) {
        if (rank == 0 && !o->json)
            pio_report_case_header(stdout, o, nprocs, x);
        for (int a = 0; a < PIO_NAPIS; a++) {
            if (!api_selected(o, (enum pio_api)a))
                continue;
            struct pio_case c = {.opts = o, .api = pio_api((enum pio_api)a), .nprocs = nprocs,
                                 .xfer = x, .comm = comm, .rank = rank};
            run_api(&c, job, raw);
        }
    }
}

/* Checks that need the job: 0, or 1 after a message (rank 0). */
static int check_job(const struct pio_options *o, int rank, int size)
{
    if ((o->apis & (1u << PIO_PHDF5)) && pio_api(PIO_PHDF5) == NULL) {
        if (rank == 0)
            fprintf(stderr, PIO_PROG ": -H: this build has no parallel HDF5\n");
        return 1;
    }
    if (rank == 0)
        return pio_check_cases(o, size) != 0;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct pio_options o;
    int status = pio_parse_options(argc, argv, &o, rank == 0);
    if (status == 0)
        status = check_job(&o, rank, size);
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (status != 0) {
        MPI_Finalize();
        return status < 0 ? 0 : status;
    }
    long job = (long)getpid();
    MPI_Bcast(&job, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    /* The raw results go through out_file.h: a new file renamed into
     * place at the end, never a planted symlink followed. */
    struct iolens_out out = {0};
    FILE *raw = NULL;
    if (rank == 0 && o.output != NULL) {
        int e = iolens_out_open(&out, o.output);
        if (e != 0)
            pio_fail(o.output, strerror(e));
        raw = out.fp;
    }
    if (raw != NULL)
        fputs("# procs xfer api op iteration rank open close S T B first\n", raw);
    for (uint64_t n = o.min_procs; n <= o.max_procs; n *= 2) {
        MPI_Comm comm;
        MPI_Comm_split(MPI_COMM_WORLD, (uint64_t)rank < n ? 0 : MPI_UNDEFINED, rank, &comm);
        if (comm != MPI_COMM_NULL) {
            run_procs(&o, n, comm, job, raw);
            MPI_Comm_free(&comm);
        }
        MPI_Barrier(MPI_COMM_WORLD);   /* the other ranks wait */
    }
    if (raw != NULL) {
        int e = iolens_out_commit(&out);
        if (e != 0)
            pio_fail(o.output, strerror(e));
    }
    MPI_Finalize();
    return 0;
}
