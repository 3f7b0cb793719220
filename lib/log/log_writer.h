/* Serializes the runtime's state into one log file (format in
 * include/iolens/log_format.h): each region packed, zlib-compressed and
 * CRC'd, written under a temporary name created with O_EXCL, given its
 * mode (0400 by default), then renamed to a free name (log_place.h). */
#ifndef IOLENS_LOG_WRITER_H
#define IOLENS_LOG_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log_format.h"

/* A region to write, raw (uncompressed) bytes. */
struct iolens_region_src {
    uint32_t kind;
    uint32_t version;
    const void *data;
    size_t size;
};

/* Writes header, region table and compressed regions to path (via a
 * temporary file beside it), replacing what is there: for tools that
 * write a log where their user said, not for the runtime.  On failure
 * returns -1 and writes a reason into err.  Uses only the real system
 * calls. */
int iolens_log_write_file(const char *path, uint64_t flags,
                          const struct iolens_region_src *regions, unsigned nregions,
                          char *err, size_t errsz);

/* Fills a file header for a table of n region descriptors: magic,
 * version, byte order, flags, sizes, and header_crc over the header (with
 * header_crc 0) followed by the table.  The MPI writer uses it too. */
void iolens_log_header_build(struct iolens_file_header *h, uint64_t flags,
                             const struct iolens_region_desc *descs, uint32_t n);

/* Mode bits of a new log: IOLENS_LOG_MODE, 0400 by default. */
unsigned iolens_log_mode(void);

/* Ignores SIGXFSZ while a log is written (saving the disposition), so
 * that a file size limit fails the write instead of killing the program;
 * restore puts the saved disposition back. */
struct sigaction;
void iolens_log_quiet_sigxfsz(struct sigaction *saved);
void iolens_log_restore_sigxfsz(const struct sigaction *saved);

/* The one line that says the default log directory was just made,
 * private (log_place.h). */
void iolens_log_say_dir_created(const char *dir);

/* Prints the one line a failed log gets:
 * "iolens: cannot write log PATH: REASON[ (rank N)]" (rank shown if > 0). */
void iolens_log_report_failure(const char *path, const char *reason, int failed_rank);

/* Builds <logdir>/<user>_<exe>_<jobid>_<YYYYmmdd-HHMMSS>_<token>_<pid>.iolens
 * (token: iolens_log_token(), which makes the name unpredictable). */
int iolens_log_default_name(char *out, size_t outsz, const char *logdir, const char *user,
                            const char *exe, const char *jobid, long start_sec, const char *token,
                            long pid);

/* Gathers the job record, mounts, names and layer records from the
 * runtime and writes the process's log, with extra header flags
 * (IOLENS_FLAG_INCOMPLETE), at base_path instead of the usual path if not
 * NULL, and, if suffix is not NULL, the path's final ".iolens" replaced
 * by suffix (an MPI rank's ".rank<N>.incomplete.iolens").  The path
 * written (or "" on failure) goes to path_out if not NULL.  Prints one
 * stderr line on failure.  Returns 0 or -1. */
int iolens_log_write_process(uint64_t extra_flags, const char *base_path, const char *suffix,
                             char *path_out, size_t path_outsz);

#endif
