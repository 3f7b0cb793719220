/* The job's one log, written by all ranks at MPI_Finalize.
 *
 * Each rank builds and compresses its own regions (its NAMES regions, the
 * regions of each layer that is on, one INTERVALS and one SITES region), in parallel with
 * the others.  One
 * Gather brings every rank's region descriptors and facts to rank 0, which
 * places the ranks' bytes one after the other, creates the file under a
 * temporary name (O_CREAT | O_EXCL, in the log's directory), writes its
 * own regions and the job-wide ones (JOB, MOUNTS, RANKS, after the last
 * rank's) and broadcasts the name and every rank's offset.  Each rank then
 * writes its bytes with pwrite at its offset; an Allreduce agrees whether
 * every rank succeeded; only then does rank 0 write the header and the
 * region table, make the file read-only (0400) and rename it into place.
 * On any failure rank 0 deletes the temporary file and prints one line.
 * So the log is complete or absent, whatever fails on whichever rank.
 *
 * Why not MPI_File_open/MPI_File_write_at_all: on a 2-core machine with 8
 * ranks, ROMIO's collective open alone took 0.23-0.38 s (it runs about ten
 * collectives of its own), against a 0.5 s budget for the whole shutdown;
 * each rank writes one contiguous block, which needs no two-phase I/O.
 * The log directory must be shared by the ranks (a rank that cannot open
 * the temporary file fails the log, with its reason).
 *
 * Times.  Timestamps in the records are seconds since the job start: the
 * earliest process start of any rank, stored as the JOB record's start
 * time.  Each rank's own timestamps were shifted by its process start
 * minus the job start (lib/mpi/shared_reduce.h), so the records of different
 * ranks, and the reduced ones, share one time axis; each rank's INTERVALS
 * region is shifted the same way and carries the rank's clock offset to
 * rank 0 (measured at MPI_Init, mpi_runtime.h).  The RANKS region has
 * each rank's absolute MPI_Init and MPI_Finalize times; run_time is the
 * last MPI_Finalize minus the job start. */
#ifndef IOLENS_MPI_LOG_H
#define IOLENS_MPI_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "mpi/shared_reduce.h"

/* What a rank knows about itself and the job when it writes. */
struct iolens_mpi_job {
    int rank, nprocs;
    int64_t job_start_ns;       /* absolute (CLOCK_REALTIME): earliest process start */
    double init_time;           /* this rank's MPI_Init, absolute seconds */
    double finalize_time;       /* this rank's MPI_Finalize, absolute seconds */
    const char *host;           /* MPI processor name */
    unsigned layers_on;         /* bit per layer index; the same on every rank */
    int error;                  /* errno-style: this rank already failed (ENOMEM) */
    double clock_offset;        /* seconds to rank 0's clock, measured at MPI_Init */
    double clock_uncertainty;   /* seconds: how wrong clock_offset may be */
};

/* Memory a collective cannot do without (a receive buffer: the other
 * ranks are already sending).  Running out of it is fatal: one line, then
 * abort. */
void *iolens_mpi_must_alloc(size_t n);

struct iolens_site_list;

/* Every rank calls this with the records it writes (after the
 * reduction) and their call sites (after theirs, mpi/shared_sites.h).  Returns 0 when the log was written, -1 when it was not;
 * rank 0 has then printed "iolens: cannot write log <path>: <reason>".
 * (Only rank 0 learns of a failed final rename.) */
int iolens_mpi_log_write(const struct iolens_mpi_job *job, const struct iolens_record_set *recs,
                         const struct iolens_site_list *sites);

/* Pure helpers, exposed for the unit tests. */

/* Distinct host names of n ranks (hosts[i] is rank i's, each at most
 * hostsz bytes, NUL-terminated), in order of first appearance, written
 * NUL-separated into out (no final NUL; *outlen set); index[i] gets rank
 * i's position in that list.  Returns the number of distinct hosts, or -1
 * if out is too small or memory ran out. */
long iolens_mpi_host_list(const char *hosts, size_t hostsz, uint32_t n, char *out, size_t outsz,
                          size_t *outlen, uint32_t *index);

/* MPI_Get_library_version's text as one line for the job record: in each
 * line runs of blanks become one space, lines are joined by "; ", and
 * once the first line is in only whole lines are added, up to outsz - 1
 * characters (MPICH's text runs to kilobytes with its configure line). */
void iolens_mpi_version_line(const char *in, char *out, size_t outsz);

#endif
