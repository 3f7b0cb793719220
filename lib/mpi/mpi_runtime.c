/*
 * The MPI job's life cycle (mpi_runtime.h) and the thin MPI layer of the
 * shutdown: the collectives that move the buffers lib/mpi/shared_reduce.c
 * prepares.  Nothing here does I/O or communicates before MPI_Finalize.
 *
 * Shutdown, on every rank, in MPI_Finalize before PMPI_Finalize:
 *   Alltoall    how many distinct ids go to each owner, with the rank's
 *               process start and the layers it has switched off
 *   Alltoallv   the ids
 *   Alltoallv   back: the writer of each id
 *   Alltoall    how many record bytes go to each writer
 *   Alltoallv   the records
 *   Alltoall    how many bytes of call sites go to each writer
 *   Alltoallv   the sites of the records each rank no longer writes
 * then the writer's collectives (lib/mpi/mpi_log.c).  The count is the same
 * for any number of files and layers; the volume is O(records).
 */
#include "mpi/mpi_runtime.h"

#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include "core/mpi_handles.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/file_table.h"
#include "layers/layer_ops.h"
#include "log/jobinfo.h"
#include "log/log_place.h"
#include "log/log_writer.h"
#include "log/log_regions.h"
#include "core/mpi_calls.h"
#include "core/mpi_family.h"
#include "core/termination.h"
#include "mpi/mpi_coll.h"
#include "mpi/mpi_log.h"
#include "core/real_calls.h"
#include "core/stderr_copy.h"
#include "format/record_merge.h"
#include "core/state.h"
#include "mpi/shared_reduce.h"
#include "mpi/shared_sites.h"

static struct {
    int init_seen;          /* MPI_Init succeeded, ever */
    int initialized;        /* ... and MPI_Finalize was not called yet */
    int forked;             /* a forked child of a rank */
    int rank, nprocs;
    double init_time;       /* absolute seconds */
    double clock_offset;    /* seconds to add to put this rank's times on rank 0's */
    double clock_uncertainty;
    char host[MPI_MAX_PROCESSOR_NAME + 1];
    char job_log[PATH_MAX]; /* the job log's path, agreed at MPI_Init */
} mpi = {.nprocs = 1};

int iolens_mpi_program_detected(void)
{
    return iolens_mpi_calls_usable();
}

int iolens_mpi_initialized(void)
{
    return mpi.initialized;
}

int iolens_mpi_init_seen(void)
{
    return mpi.init_seen;
}

int iolens_mpi_rank(void)
{
    return mpi.rank;
}

int iolens_mpi_nprocs(void)
{
    return mpi.nprocs;
}

int iolens_mpi_missing(const char *name)
{
    char line[160];
    snprintf(line, sizeof line, "iolens: the MPI library has no %s\n", name);
    iolens_real_say(line);
    return MPI_ERR_INTERN;
}

/* ------------------------------------------- the MPI library's family -- */

/* Whether the library's version text names the MPI libiolens was compiled
 * for: the family, and for Open MPI the major version (its ABI changes
 * between majors). */
static int library_matches(const char *text)
{
    if (iolens_mpi_family_of(text) != IOLENS_MPI_BUILT_FOR)
        return 0;
#ifdef OPEN_MPI
    return iolens_mpi_openmpi_major(text) == OMPI_MAJOR_VERSION;
#else
    return 1;
#endif
}

/* The one line, from the launcher's rank 0 (or a process no launcher
 * numbered): every rank finds the same mismatch.  None when iolens is
 * switched off (IOLENS_DISABLE, a setuid program). */
static void say_mismatch(const char *text)
{
    if (iolens_jobinfo_launcher_rank() > 0 || iolens_runtime_config()->disabled)
        return;
    char running[128], line[512];
    iolens_mpi_family_short_name(text, running, sizeof running);
    snprintf(line, sizeof line,
             "iolens: built for %s, but the program runs %s: MPI-IO not traced, one "
             "POSIX/STDIO log per process (preload the libiolens built for this MPI)\n",
             iolens_mpi_family_name(IOLENS_MPI_BUILT_FOR),
             running[0] != '\0' ? running : "an MPI without MPI_Get_library_version");
    iolens_real_say(line);
}

/* MPI_Get_library_version may be called before MPI_Init, and its
 * arguments (a char buffer and an int) mean the same in every MPI; the
 * buffer holds the longest text of either family, whichever mpi.h this
 * was compiled with.  Static: MPI_Init runs once, and MPICH's limit is 8
 * KiB. */
int iolens_mpi_check_library(void)
{
    static char text[IOLENS_MPI_VERSION_TEXT_MAX];
    if (iolens_mpi_calls_refused())
        return 0;
    __typeof__(iolens_PMPI_Get_library_version) get = IOLENS_PMPI(PMPI_Get_library_version);
    int len = 0;
    text[0] = '\0';
    if (get != NULL && get(text, &len) == MPI_SUCCESS && len > 0)
        text[len < (int)sizeof text ? len : (int)sizeof text - 1] = '\0';
    text[sizeof text - 1] = '\0';
    if (library_matches(text))
        return 1;
    iolens_mpi_calls_refuse();
    /* The MPI-IO wrappers then only forward (their tracing() is off). */
    __atomic_fetch_or(&iolens_layers_off, 1u << IOLENS_LAYER_MPIIO, __ATOMIC_RELAXED);
    say_mismatch(text);
    return 0;
}

static double realtime_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------ clock offsets -- */

/*
 * Clock offsets, measured once at MPI_Init.  Ranks on different nodes have
 * different clocks, and the BPS union of access intervals (iolens-parser
 * --bps) merges the intervals of every rank on one time axis: each rank's
 * offset to rank 0 is stored with its intervals, so the union spans the
 * job on one clock.
 *
 * Every rank r > 0 does PING_ROUNDS ping-pong rounds with rank 0, which
 * serves the ranks in order: r notes t_send, sends, rank 0 answers with
 * its time t0 when the ping arrives, r notes t_recv.  If the two legs took
 * equally long, t0 was taken at (t_send + t_recv) / 2 on r's clock, so
 * offset = t0 - (t_send + t_recv) / 2, wrong by at most half the round
 * trip; the round with the shortest round trip is kept.  That costs
 * 2 * PING_ROUNDS * (nprocs - 1) small messages at start-up, once, served
 * one after another by rank 0 (a few microseconds each on one node).
 *
 * The time compared is the one the log uses: the process's start
 * (CLOCK_REALTIME at iolens_clock_init) plus the monotonic time since,
 * which is what a converted runtime timestamp plus the job-start shift
 * comes to (clock.h: the conversion maps units to the monotonic clock).
 * The monotonic clock is read rather than the runtime's own units, so
 * that the units' calibration is not fixed this early.  Integer
 * nanoseconds keep the sub-microsecond differences that a double of
 * absolute seconds would round off.  Ranks on one node then find an
 * offset of about 0 within the uncertainty.
 *
 * The messages go over MPI_COMM_WORLD with a tag of their own, before
 * MPI_Init returns: no message of the program can be in flight yet, and
 * MPI's ordering keeps later ones from matching these receives.
 */
#define PING_ROUNDS 5
#define PING_TAG 31117

static int64_t log_clock_ns(void)
{
    struct timespec real = iolens_clock_start_real();
    int64_t mono0 = (int64_t)iolens_clock_start_mono.tv_sec * 1000000000 +
                    iolens_clock_start_mono.tv_nsec;
    return (int64_t)real.tv_sec * 1000000000 + real.tv_nsec +
           ((int64_t)iolens_clock_monotonic_ns() - mono0);
}

/* Rank 0: answers every round of every other rank, in rank order. */
static void serve_clock_pings(int nprocs)
{
    for (int r = 1; r < nprocs; r++)
        for (int k = 0; k < PING_ROUNDS; k++) {
            int64_t t0;
            if (IOLENS_PMPI(PMPI_Recv)(&t0, 1, MPI_INT64_T, r, PING_TAG, MPI_COMM_WORLD,
                                       MPI_STATUS_IGNORE) != MPI_SUCCESS)
                return;
            t0 = log_clock_ns();
            if (IOLENS_PMPI(PMPI_Send)(&t0, 1, MPI_INT64_T, r, PING_TAG, MPI_COMM_WORLD) !=
                MPI_SUCCESS)
                return;
        }
}

/* Rank r > 0: the offset from the round with the shortest round trip. */
static void measure_clock_offset(void)
{
    int64_t best_rtt = INT64_MAX, best_offset = 0;
    for (int k = 0; k < PING_ROUNDS; k++) {
        int64_t t0 = 0, t_send = log_clock_ns();
        if (IOLENS_PMPI(PMPI_Send)(&t_send, 1, MPI_INT64_T, 0, PING_TAG, MPI_COMM_WORLD) !=
                MPI_SUCCESS ||
            IOLENS_PMPI(PMPI_Recv)(&t0, 1, MPI_INT64_T, 0, PING_TAG, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return;
        int64_t t_recv = log_clock_ns();
        if (t_recv - t_send < best_rtt) {
            best_rtt = t_recv - t_send;
            best_offset = t0 - (t_send + (t_recv - t_send) / 2);
        }
    }
    mpi.clock_offset = (double)best_offset * 1e-9;
    mpi.clock_uncertainty = (double)best_rtt * 0.5e-9;
}

/* IOLENS_DISABLE is the same on every rank (as for the shutdown): then no
 * rank takes part. */
static void estimate_clock_offsets(void)
{
    if (mpi.nprocs < 2 || iolens_runtime_config()->disabled ||
        IOLENS_PMPI(PMPI_Send) == NULL || IOLENS_PMPI(PMPI_Recv) == NULL)
        return;
    int saved_errno = errno;
    int saved_guard = iolens_in_runtime;
    iolens_in_runtime = 1;
    if (mpi.rank == 0)
        serve_clock_pings(mpi.nprocs);
    else
        measure_clock_offset();
    iolens_in_runtime = saved_guard;
    errno = saved_errno;
}

void iolens_mpi_clock_offset(double *offset, double *uncertainty)
{
    *offset = mpi.clock_offset;
    *uncertainty = mpi.clock_uncertainty;
}

/* ------------------------------------------------------- MPI_Init -- */

static int64_t process_start_ns(void);

/* The path the job's log will have (as lib/mpi/mpi_log.c names it: the
 * earliest process start of the job, rank 0's pid and job id), agreed on
 * now, while the ranks can still talk: a rank that ends without
 * MPI_Finalize names its own incomplete log after it. */
static void agree_job_log_path(void)
{
    int64_t start = process_start_ns(), job_start = start;
    IOLENS_PMPI(PMPI_Allreduce)(&start, &job_start, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    if (mpi.rank == 0) {
        const struct iolens_config *cfg = iolens_runtime_config();
        char user[256], jobid[256];
        iolens_jobinfo_user(user, sizeof user);
        iolens_jobinfo_jobid(jobid, sizeof jobid);
        if (cfg->logfile[0] != '\0')
            snprintf(mpi.job_log, sizeof mpi.job_log, "%s", cfg->logfile);
        else if (iolens_log_default_name(mpi.job_log, sizeof mpi.job_log, cfg->logdir, user,
                                         iolens_jobinfo_exe(), jobid,
                                         (long)(job_start / 1000000000), iolens_log_token(),
                                         (long)getpid()) != 0)
            mpi.job_log[0] = '\0';
    }
    IOLENS_PMPI(PMPI_Bcast)(mpi.job_log, (int)sizeof mpi.job_log, MPI_CHAR, 0, MPI_COMM_WORLD);
}

const char *iolens_mpi_job_log_path(void)
{
    return mpi.job_log[0] != '\0' ? mpi.job_log : NULL;
}

void iolens_mpi_on_init(void)
{
    if (mpi.init_seen || mpi.forked || iolens_mpi_calls_refused())
        return;
    mpi.init_time = realtime_now();
    IOLENS_PMPI(PMPI_Comm_rank)(MPI_COMM_WORLD, &mpi.rank);
    IOLENS_PMPI(PMPI_Comm_size)(MPI_COMM_WORLD, &mpi.nprocs);
    int len = 0;
    if (IOLENS_PMPI(PMPI_Get_processor_name)(mpi.host, &len) != MPI_SUCCESS || len <= 0)
        snprintf(mpi.host, sizeof mpi.host, "%s", iolens_runtime_hostname());
    else
        mpi.host[len < MPI_MAX_PROCESSOR_NAME ? len : MPI_MAX_PROCESSOR_NAME] = '\0';
    estimate_clock_offsets();
    agree_job_log_path();
    if (mpi.nprocs > 1)
        iolens_termination_set_grace(IOLENS_TERM_GRACE_MS);
    mpi.init_seen = 1;
    mpi.initialized = 1;
}

void iolens_mpi_on_fork_child(void)
{
    mpi.forked = 1;
    mpi.initialized = 0;
}

int iolens_mpi_forked_from_rank(void)
{
    return mpi.forked && mpi.init_seen;
}

/* ------------------------------------------------------- the shutdown -- */

/* The counts and displacements of the exchanges.  A rank that fails
 * (out of memory) still takes part in every collective, with nothing to
 * send, and reports its error to the log writer. */
struct exchange {
    int rank, nprocs;
    int *scount, *sdispl, *rcount, *rdispl;
    int error;              /* this rank's first failure (errno) */
};

/* What the first Alltoall carries to every rank. */
struct hello {
    int64_t count;          /* ids for the receiver, as their owner */
    int64_t start_ns;       /* the sender's process start, absolute */
    int64_t layers_off;     /* bit per layer index switched off at the sender;
                               bit 32 + index: the sender has records of it */
};

static void fail(struct exchange *x, int error)
{
    if (x->error == 0)
        x->error = error;
}

static void exchange_init(struct exchange *x)
{
    size_t n = (size_t)mpi.nprocs * sizeof(int);
    x->rank = mpi.rank;
    x->nprocs = mpi.nprocs;
    x->scount = iolens_mpi_must_alloc(n);
    x->sdispl = iolens_mpi_must_alloc(n);
    x->rcount = iolens_mpi_must_alloc(n);
    x->rdispl = iolens_mpi_must_alloc(n);
    memset(x->scount, 0, n);
    memset(x->sdispl, 0, n);
    x->error = 0;
}

static void exchange_free(struct exchange *x)
{
    free(x->scount);
    free(x->sdispl);
    free(x->rcount);
    free(x->rdispl);
}

static void clear_counts(struct exchange *x)
{
    memset(x->scount, 0, (size_t)x->nprocs * sizeof(int));
    memset(x->sdispl, 0, (size_t)x->nprocs * sizeof(int));
}

/* The receive displacements from the receive counts.  Returns the number
 * of items this rank receives. */
static size_t receive_displacements(struct exchange *x)
{
    size_t total = 0;
    for (int r = 0; r < x->nprocs; r++) {
        if (total > INT_MAX) {
            iolens_real_say("iolens: too much data for one rank in MPI_Finalize\n");
            abort();
        }
        x->rdispl[r] = (int)total;
        total += (size_t)x->rcount[r];
    }
    return total;
}

/* Whether IOLENS_DISABLE_LAYERS switched off the layer of layer index l
 * (a bit per enum iolens_layer).  A layer not compiled in has no records
 * and is not written when empty: it need not be switched off. */
static int layer_switched_off(unsigned l)
{
    unsigned off = iolens_runtime_config()->layers_off;
    const struct iolens_layer_ops *ops =
        iolens_layer_ops_of_kind(iolens_layer_desc_at(l)->region_kind);
    return ops != NULL && ((off >> ops->layer) & 1u);
}

static int64_t process_start_ns(void)
{
    struct timespec ts = iolens_clock_start_real();
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Some layers' regions are written even when empty (POSIX, STDIO and
 * MPI-IO); the others (HDF5) only in a job where some rank has records of
 * them: their entries in the layer table say which. */
static int layer_written_when_empty(unsigned l)
{
    const struct iolens_layer_ops *ops =
        iolens_layer_ops_of_kind(iolens_layer_desc_at(l)->region_kind);
    return ops != NULL && (ops->empty_region & IOLENS_EMPTY_IN_JOB_LOG);
}

/* Alltoall of the send counts.  It also tells every rank every other
 * rank's process start, switched-off layers and layers with records: the
 * job starts at the earliest process start, and a layer switched off
 * anywhere (or, for the HDF5 layers, without records anywhere) is left out
 * everywhere, so that every rank writes the same regions. */
static size_t exchange_counts_hello(struct exchange *x, struct iolens_mpi_job *job,
                                    const struct iolens_record_set *set)
{
    struct hello *out = iolens_mpi_must_alloc((size_t)x->nprocs * sizeof *out);
    struct hello *in = iolens_mpi_must_alloc((size_t)x->nprocs * sizeof *in);
    int64_t off = 0, used = 0;
    for (unsigned l = 0; l < iolens_layer_desc_count(); l++) {
        off |= (int64_t)layer_switched_off(l) << l;
        used |= (int64_t)(l < set->nlayers && set->count[l] > 0) << l;
    }
    for (int r = 0; r < x->nprocs; r++)
        out[r] = (struct hello){x->scount[r], process_start_ns(), off | used << 32};
    iolens_coll_alltoall(out, 3, MPI_INT64_T, in, 3, MPI_INT64_T, MPI_COMM_WORLD);
    job->job_start_ns = in[0].start_ns;
    for (int r = 0; r < x->nprocs; r++) {
        x->rcount[r] = (int)in[r].count;
        if (in[r].start_ns < job->job_start_ns)
            job->job_start_ns = in[r].start_ns;
        off |= in[r].layers_off & 0xffffffff;
        used |= (in[r].layers_off >> 32) & 0xffffffff;
    }
    job->layers_on = 0;
    for (unsigned l = 0; l < iolens_layer_desc_count(); l++)
        if (!((off >> l) & 1) && (layer_written_when_empty(l) || ((used >> l) & 1)))
            job->layers_on |= 1u << l;
    free(out);
    free(in);
    return receive_displacements(x);
}

/* Plain Alltoall of the send counts. */
static size_t exchange_counts(struct exchange *x)
{
    iolens_coll_alltoall(x->scount, 1, MPI_INT, x->rcount, 1, MPI_INT, MPI_COMM_WORLD);
    return receive_displacements(x);
}

/* The packed bytes of send (x->scount and x->sdispl) to every rank, and
 * what every rank packed for this one: an Alltoall of the counts, then an
 * Alltoallv.  Frees send; returns the bytes received (*nrecv of them). */
static unsigned char *exchange_bytes(struct exchange *x, unsigned char *send, size_t *nrecv)
{
    *nrecv = exchange_counts(x);
    unsigned char *recv = iolens_mpi_must_alloc(*nrecv);
    iolens_coll_alltoallv(send, x->scount, x->sdispl, MPI_BYTE, recv, x->rcount, x->rdispl,
                          MPI_BYTE, MPI_COMM_WORLD);
    free(send);
    return recv;
}

/* This rank's records of every layer it has on, and its call sites, in
 * one walk over the files. */
static void collect(struct exchange *x, int was_active, struct iolens_record_set *set,
                    struct iolens_site_list *sites)
{
    memset(set, 0, sizeof *set);
    set->nlayers = iolens_layer_desc_count();
    const struct iolens_layer_desc *want[IOLENS_SHARE_MAX_LAYERS];
    unsigned at[IOLENS_SHARE_MAX_LAYERS], nwant = 0;
    for (unsigned l = 0; was_active && l < set->nlayers && l < IOLENS_SHARE_MAX_LAYERS; l++) {
        if (!layer_switched_off(l)) {
            want[nwant] = iolens_layer_desc_at(l);
            at[nwant++] = l;
        }
    }
    void *records[IOLENS_SHARE_MAX_LAYERS];
    long counts[IOLENS_SHARE_MAX_LAYERS];
    if (was_active &&
        iolens_layers_collect_with_sites(want, nwant, x->rank, records, counts, sites) != 0)
        fail(x, ENOMEM);
    for (unsigned k = 0; k < nwant; k++) {
        set->records[at[k]] = records[k];
        set->count[at[k]] = counts[k] > 0 ? (size_t)counts[k] : 0;
    }
}

/* Once the job start and the layers are agreed on: drops the layers
 * switched off on another rank and moves the timestamps to the job's time
 * axis. */
static void align_to_job(const struct iolens_mpi_job *job, struct iolens_record_set *set)
{
    double shift = (double)(process_start_ns() - job->job_start_ns) * 1e-9;
    for (unsigned l = 0; l < set->nlayers; l++) {
        if (!(job->layers_on & (1u << l))) {
            free(set->records[l]);
            set->records[l] = NULL;
            set->count[l] = 0;
        }
        iolens_share_shift_timestamps(iolens_layer_desc_at(l), set->records[l], set->count[l],
                                      shift);
    }
}

/* Steps 1 and 2: the distinct ids to their owners, the writers back; on
 * the way, the job start and the layers (see exchange_counts_hello).
 * Returns the assignment (sorted by id) and its length in *n. */
static struct iolens_share_assign *assign_writers(struct exchange *x, struct iolens_mpi_job *job,
                                                  struct iolens_record_set *set, size_t *n)
{
    uint64_t *ids = NULL;
    long nids = x->error ? -1 : iolens_share_ids_by_owner(set, x->nprocs, &ids, x->scount,
                                                           x->sdispl);
    if (nids < 0) {
        fail(x, ENOMEM);
        nids = 0;
        clear_counts(x);
    }
    size_t nrecv = exchange_counts_hello(x, job, set);
    align_to_job(job, set);
    uint64_t *recv = iolens_mpi_must_alloc(nrecv * sizeof *recv);
    iolens_coll_alltoallv(ids, x->scount, x->sdispl, MPI_UINT64_T, recv, x->rcount,
                                x->rdispl, MPI_UINT64_T, MPI_COMM_WORLD);

    /* As owner: decide; should that fail, every holder keeps its own. */
    int32_t *writer = iolens_mpi_must_alloc(nrecv * sizeof *writer);
    if (iolens_share_decide(recv, x->rcount, x->rdispl, x->nprocs, writer) != 0) {
        fail(x, ENOMEM);
        for (int r = 0; r < x->nprocs; r++)
            for (int i = 0; i < x->rcount[r]; i++)
                writer[x->rdispl[r] + i] = r;
    }
    int32_t *mine = iolens_mpi_must_alloc((size_t)nids * sizeof *mine);
    iolens_coll_alltoallv(writer, x->rcount, x->rdispl, MPI_INT32_T, mine, x->scount,
                                x->sdispl, MPI_INT32_T, MPI_COMM_WORLD);
    free(recv);
    free(writer);

    struct iolens_share_assign *a = iolens_share_assign_build(ids, mine, (size_t)nids);
    if (a == NULL)
        fail(x, ENOMEM);
    *n = a != NULL ? (size_t)nids : 0;
    free(ids);
    free(mine);
    return a;
}

/* Step 3: records to their writers, and the reduction of what arrives,
 * in place in set: what stays is not copied. */
static void move_and_reduce(struct exchange *x, struct iolens_record_set *set,
                            const struct iolens_share_assign *a, size_t na)
{
    unsigned char *send = NULL;
    if (x->error != 0 ||
        iolens_share_split(set, a, na, x->rank, x->nprocs, &send, x->scount, x->sdispl) != 0) {
        fail(x, ENOMEM);
        clear_counts(x);
    }
    size_t nrecv;
    unsigned char *recv = exchange_bytes(x, send, &nrecv);
    if (x->error == 0 && iolens_share_reduce(set, recv, nrecv) != 0)
        fail(x, ENOMEM);
    free(recv);
}

/* Step 4: the call sites of the records this rank no longer writes to
 * their writers, and what arrives added to its own, so that a shared
 * record keeps the job's top sites, written once (shared_sites.h). */
static void move_sites(struct exchange *x, struct iolens_site_list *sites,
                       const struct iolens_share_assign *a, size_t na)
{
    unsigned char *send = NULL;
    if (x->error != 0 ||
        iolens_share_sites_split(sites, a, na, x->rank, x->nprocs, &send, x->scount,
                                 x->sdispl) != 0) {
        fail(x, ENOMEM);
        clear_counts(x);
    }
    size_t nrecv;
    unsigned char *recv = exchange_bytes(x, send, &nrecv);
    if (x->error == 0 && iolens_share_sites_merge(sites, recv, nrecv) != 0)
        fail(x, ENOMEM);
    free(recv);
}

static void shutdown_job(int was_active, double finalize_time)
{
    struct iolens_mpi_job job = {
        .rank = mpi.rank,
        .nprocs = mpi.nprocs,
        .init_time = mpi.init_time,
        .finalize_time = finalize_time,
        .host = mpi.host,
    };
    iolens_mpi_clock_offset(&job.clock_offset, &job.clock_uncertainty);
    struct exchange x;
    exchange_init(&x);
    struct iolens_record_set set;
    struct iolens_site_list sites = {0};
    collect(&x, was_active, &set, &sites);
    size_t na = 0;
    struct iolens_share_assign *a = assign_writers(&x, &job, &set, &na);
    move_and_reduce(&x, &set, a, na);
    move_sites(&x, &sites, a, na);
    free(a);
    job.error = x.error;
    iolens_mpi_log_write(&job, &set, &sites);
    iolens_site_list_free(&sites);
    iolens_record_set_free(&set);
    exchange_free(&x);
}

void iolens_mpi_on_finalize(void)
{
    if (!mpi.initialized || mpi.forked)
        return;
    mpi.initialized = 0;
    /* IOLENS_DISABLE (the same on every rank) means no shutdown at all. */
    if (iolens_runtime_config()->disabled || !iolens_mpi_calls_usable())
        return;
    int saved_errno = errno;
    int saved_guard = iolens_in_runtime;
    iolens_in_runtime = 1;
    /* Tracing stops here: I/O after MPI_Finalize is not in the log.  A
     * rank whose runtime could not start (no budget) still takes part,
     * with no records. */
    int was_active = atomic_exchange(&iolens_active, 0);
    shutdown_job(was_active, realtime_now());
    iolens_in_runtime = saved_guard;
    errno = saved_errno;
}
