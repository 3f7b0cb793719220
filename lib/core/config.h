/* Configuration read once from the environment (man iolens(7)). */
#ifndef IOLENS_CONFIG_H
#define IOLENS_CONFIG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "core/pathname.h"

#define IOLENS_DEFAULT_MEMORY (2u * 1024u * 1024u)
#define IOLENS_MIN_MEMORY (16u * 1024u)

struct iolens_config {
    int disabled;                 /* IOLENS_DISABLE set to anything but 0 */
    int nonmpi;                   /* IOLENS_NONMPI=1: trace a non-MPI program */
    size_t memory;                /* IOLENS_MEMORY, bytes */
    int64_t mem_alignment;        /* IOLENS_MEM_ALIGNMENT, default 8 */
    unsigned layers_off;          /* bit per enum iolens_layer, IOLENS_DISABLE_LAYERS */
    int sites_off;                /* IOLENS_DISABLE_SITES set to anything but 0 */
    unsigned log_mode;            /* IOLENS_LOG_MODE: 0400 (default), 0440 or 0444 */
    char logdir[PATH_MAX];        /* IOLENS_LOGDIR or the configured default */
    char logfile[PATH_MAX];       /* IOLENS_LOGFILE, exact path, or "" */
    struct iolens_prefix_list exclude;  /* default or IOLENS_EXCLUDE */
    struct iolens_prefix_list include;  /* IOLENS_INCLUDE: traced even if excluded */
    int mpi_own_excluded;         /* the MPI's own files (iolens_path_is_mpi_own),
                                     excluded unless IOLENS_EXCLUDE replaces the defaults */
    char exclude_storage[4096];   /* the strings exclude points into */
    char include_storage[4096];   /* the strings include points into */
    char error[256];              /* first problem found, for one stderr line */
};

/* Path prefixes excluded unless IOLENS_EXCLUDE replaces them (with the
 * MPI library's own files, iolens_path_is_mpi_own). */
#define IOLENS_DEFAULT_EXCLUDE "/proc,/sys,/dev,/etc,/usr,/lib,/lib64,/bin,/sbin,/boot,/run"

/* Mode bits of a new log unless IOLENS_LOG_MODE says otherwise. */
#define IOLENS_DEFAULT_LOG_MODE 0400u

/* Parses an IOLENS_LOG_MODE value: octal, read bits only (a subset of
 * 0444) and always 0400.  Returns 0 and sets *out, or -1. */
int iolens_parse_log_mode(const char *text, unsigned *out);

/* Parses a size such as "65536", "64K", "2M" or "1G" (binary units).
 * Returns 0 and sets *out, or -1 if malformed or zero. */
int iolens_parse_size(const char *text, size_t *out);

/* Fills cfg from the environment, through getenv_fn (getenv in the
 * runtime, a table in unit tests).  cwd (may be NULL) makes a relative
 * IOLENS_LOGDIR/IOLENS_LOGFILE absolute.  Invalid values fall back to the
 * default and the first problem is described in cfg->error. */
void iolens_config_load(struct iolens_config *cfg, const char *(*getenv_fn)(const char *),
                        const char *cwd);

/* 1 if the normalized absolute path is to be traced. */
int iolens_config_traces_path(const struct iolens_config *cfg, const char *abspath);

#endif
