/* Facts about the job for the job record: ids, user, command line, host. */
#ifndef IOLENS_JOBINFO_H
#define IOLENS_JOBINFO_H

#include <stddef.h>

/* The job id from SLURM_JOB_ID, PBS_JOBID, LSB_JOBID or FLUX_JOB_ID, else
 * the pid, written into out. */
void iolens_jobinfo_jobid(char *out, size_t outsz);
/* The user name ($USER/$LOGNAME checked against the uid, else the uid). */
void iolens_jobinfo_user(char *out, size_t outsz);
/* Executable path and arguments from /proc/self/cmdline; arguments are
 * NUL-separated, *args_len set.  Returned buffers are static. */
const char *iolens_jobinfo_exe(void);
const char *iolens_jobinfo_args(size_t *args_len);
/* The process's rank as its launcher gave it (PMI_RANK, PMIX_RANK,
 * OMPI_COMM_WORLD_RANK, SLURM_PROCID, FLUX_TASK_RANK, PALS_RANKID), known
 * before MPI_Init; -1 when no launcher set one. */
long iolens_jobinfo_launcher_rank(void);
/* Captures the command line (call at start-up, before the app changes argv). */
void iolens_jobinfo_capture(void);

#endif
