/* The mount table, read once at start-up from /proc/self/mounts: mount
 * point, file system type and block size (statfs f_bsize).  Used for file
 * alignment and written to the log. */
#ifndef IOLENS_MOUNTS_H
#define IOLENS_MOUNTS_H

#include <stddef.h>
#include <stdint.h>

struct iolens_mount {
    const char *point;
    const char *fstype;
    int64_t block_size;
};

/* Reads the table into budget memory; returns the number of mounts or -1. */
int iolens_mounts_load(void);
/* Longest mount point that prefixes abspath, or NULL. */
const struct iolens_mount *iolens_mounts_find(const char *abspath);
size_t iolens_mounts_count(void);
const struct iolens_mount *iolens_mounts_at(size_t i);

#endif
