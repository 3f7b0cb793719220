/* The job header of iolens-parser's text modes: "# key: value" lines from
 * the job, mounts and ranks regions, every string escaped (output/put_escaped.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/put_escaped.h"
#include "report/report_text.h"

/* A NUL-separated list printed space-separated. */
static void put_list(FILE *out, const char *s, size_t len)
{
    size_t start = 0;
    bool first = true;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\0')
            continue;
        if (i > start || i < len) {
            if (!first)
                fputc(' ', out);
            iolens_put_escaped_n(out, s + start, i - start);
            first = false;
        }
        start = i + 1;
    }
}

/* The first line of s (the MPI library's version string runs over several
 * lines); "none" when empty. */
static void put_first_line(FILE *out, const char *s, size_t len)
{
    size_t n = 0;
    while (n < len && s[n] != '\n' && s[n] != '\0')
        n++;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n == 0)
        fputs("none", out);
    else
        iolens_put_escaped_n(out, s, n);
}

/* Entry i of a NUL-separated list of len bytes, or NULL; *n gets its length. */
static const char *list_entry(const char *s, size_t len, size_t i, size_t *n)
{
    size_t start = 0;
    for (size_t pos = 0; pos <= len; pos++) {
        if (pos < len && s[pos] != '\0')
            continue;
        if (i-- == 0) {
            *n = pos - start;
            return s + start;
        }
        start = pos + 1;
    }
    return NULL;
}

/* Whether the ranks ran more than one executable (an MPMD job). */
static bool several_executables(const struct iolens_log *log)
{
    const char *exes = log->jobstr[IOLENS_JOBSTR_EXES];
    return exes != NULL && memchr(exes, '\0', log->jobstr_len[IOLENS_JOBSTR_EXES]) != NULL;
}

static void put_entry(FILE *out, const char *list, size_t len, size_t i)
{
    size_t n = 0;
    const char *s = list_entry(list, len, i, &n);
    if (s != NULL)
        iolens_put_escaped_n(out, s, n);
    else
        fputc('?', out);
}

/* One line per rank of an MPI job (ranks region); its executable when
 * the job had several. */
static void print_ranks(FILE *out, const struct iolens_log *log)
{
    bool exes = several_executables(log);
    for (size_t r = 0; r < log->nranks; r++) {
        const struct iolens_rank_info *ri = &log->ranks[r];
        fprintf(out, "# rank %zu: host ", r);
        put_entry(out, log->jobstr[IOLENS_JOBSTR_HOSTS], log->jobstr_len[IOLENS_JOBSTR_HOSTS],
                  ri->host_index);
        fprintf(out, " start %.6f end %.6f", ri->start_time, ri->end_time);
        if (exes) {
            fputs(" exe ", out);
            put_entry(out, log->jobstr[IOLENS_JOBSTR_EXES], log->jobstr_len[IOLENS_JOBSTR_EXES],
                      ri->exe_index);
        }
        fputc('\n', out);
    }
}

static void put_time(FILE *out, const char *label, int64_t sec, int64_t nsec)
{
    char human[64] = "?";
    time_t t = (time_t)sec;
    struct tm tm;
    if (localtime_r(&t, &tm) != NULL)
        strftime(human, sizeof human, "%Y-%m-%d %H:%M:%S %Z", &tm);
    fprintf(out, "# %s: %" PRId64 ".%09" PRId64 " (%s)\n", label, sec,
           nsec >= 0 && nsec < 1000000000 ? nsec : 0, human);
}

/* A Darshan log's own lines: its format, its runtime's version, what of
 * it was not read and whether Darshan marked it partial. */
static void print_darshan_lines(FILE *out, const struct iolens_log *log)
{
    fprintf(out, "# log format: darshan %s (a Darshan log)\n# darshan version: ",
            log->source_version);
    iolens_put_escaped(out, log->jobstr[IOLENS_JOBSTR_VERSION]);
    fputc('\n', out);
    if (log->partial_modules != NULL) {
        fprintf(out, "# partial: yes (Darshan ran out of records in ");
        iolens_put_escaped(out, log->partial_modules);
        fprintf(out, ": files it did not record are missing)\n");
    }
    fprintf(out, "# skipped Darshan modules: %s\n",
            log->skipped_modules != NULL ? log->skipped_modules : "none");
    if (log->nodes_given > 0)
        fprintf(out, "# nnodes: %" PRIu32 " (from --nodes)\n", log->nodes_given);
    else if (log->job.nnodes == 0)
        fprintf(out, "# nnodes: not in a Darshan log (MiB/s/CN needs --nodes N)\n");
    else
        fprintf(out, "# nnodes estimated: %u, the distinct host names of the DXT records\n",
                (unsigned)log->job.nnodes);
}

/* The lines only an iolens log has: its runtime's process, memory budget
 * and folding. */
static void print_iolens_lines(FILE *out, const struct iolens_log *log)
{
    const struct iolens_job_fixed *j = &log->job;
    if (log->nodes_given > 0)
        fprintf(out, "# nnodes: %" PRIu32 " (from --nodes; the log says %" PRIu32 ")\n",
                log->nodes_given, j->nnodes);
    else
        fprintf(out, "# nnodes: %" PRIu32 "\n", j->nnodes);
    fprintf(out, "# pid: %" PRId64 "\n", j->pid);
    if (j->parent_pid != 0 || (log->flags & IOLENS_FLAG_FORKED))
        fprintf(out, "# parent_pid: %" PRId64 "\n", j->parent_pid);
    if (log->flags & IOLENS_FLAG_INCOMPLETE)
        fprintf(out, "# incomplete: yes (written at a signal that ends the process, or exit without MPI_Finalize)\n");
    if (log->flags & IOLENS_FLAG_EXEC)
        fprintf(out, "# exec: yes (written at execve; the program that followed, same pid, has its own log)\n");
    fprintf(out, "# hosts: ");
    put_list(out, log->jobstr[IOLENS_JOBSTR_HOSTS], log->jobstr_len[IOLENS_JOBSTR_HOSTS]);
    if (several_executables(log)) {
        fprintf(out, "\n# executables: ");
        put_list(out, log->jobstr[IOLENS_JOBSTR_EXES], log->jobstr_len[IOLENS_JOBSTR_EXES]);
    }
    fprintf(out, "\n# iolens version: ");
    iolens_put_escaped(out, log->jobstr[IOLENS_JOBSTR_VERSION]);
    fprintf(out, "\n# mpi library: ");
    put_first_line(out, log->jobstr[IOLENS_JOBSTR_MPI_VERSION],
                   log->jobstr_len[IOLENS_JOBSTR_MPI_VERSION]);
    fprintf(out, "\n# memory budget: %" PRIu64 "\n# memory used: %" PRIu64
           "\n# memory needed: %" PRIu64 "\n",
           j->budget_bytes, j->budget_used, j->budget_needed);
    fprintf(out, "# folded files: %" PRIu64, j->folded_files);
    if (j->folded_files > 0)
        fprintf(out, " (estimate, standard error %.1f%%)",
               100.0 * IOLENS_FOLDED_FILES_ERROR(j->budget_bytes));
    fprintf(out, "\n# folded opens: %" PRIu64 "\n", j->folded_opens);
    fprintf(out, "# unknown regions skipped: %u\n", log->unknown_regions);
}

void iolens_report_job_header(FILE *out, const struct iolens_log *log)
{
    const struct iolens_job_fixed *j = &log->job;
    bool darshan = log->source == IOLENS_SOURCE_DARSHAN;
    if (darshan)
        print_darshan_lines(out, log);
    else
        fprintf(out, "# iolens log format version: %u\n", (unsigned)log->version);
    fprintf(out, "# exe: ");
    iolens_put_escaped_n(out, log->jobstr[IOLENS_JOBSTR_EXE], log->jobstr_len[IOLENS_JOBSTR_EXE]);
    if (log->jobstr_len[IOLENS_JOBSTR_ARGS] > 0) {
        fputc(' ', out);
        put_list(out, log->jobstr[IOLENS_JOBSTR_ARGS], log->jobstr_len[IOLENS_JOBSTR_ARGS]);
    }
    fprintf(out, "\n# uid: %" PRIu64 "\n", j->uid);
    if (!darshan) {
        fprintf(out, "# user: ");
        iolens_put_escaped(out, log->jobstr[IOLENS_JOBSTR_USER]);
        fputc('\n', out);
    }
    fprintf(out, "# jobid: ");
    iolens_put_escaped(out, log->jobstr[IOLENS_JOBSTR_JOBID]);
    fputc('\n', out);
    put_time(out, "start_time", j->start_time_sec, j->start_time_nsec);
    put_time(out, "end_time", j->end_time_sec, j->end_time_nsec);
    fprintf(out, "# run_time: %.6f\n", j->run_time);
    fprintf(out, "# nprocs: %" PRIu32 "\n", j->nprocs);
    if (darshan) {
        fprintf(out, "# hosts: ");
        put_list(out, log->jobstr[IOLENS_JOBSTR_HOSTS], log->jobstr_len[IOLENS_JOBSTR_HOSTS]);
        fputc('\n', out);
    } else {
        print_iolens_lines(out, log);
    }
    for (size_t i = 0; i < log->nmounts; i++) {
        fprintf(out, "# mount: ");
        iolens_put_escaped(out, log->mounts[i].point);
        fputc('\t', out);
        iolens_put_escaped(out, log->mounts[i].fstype);
        fprintf(out, "\t%" PRId64 "\n", log->mounts[i].block_size);
    }
    print_ranks(out, log);
}
