/*
 * The mount table, read once at start-up from /proc/self/mounts through
 * the real system calls (the runtime must never trace itself).
 *
 * Entries live in budget memory, one allocation per mount holding the
 * struct and both strings; only the fixed array of IOLENS_MAX_MOUNTS
 * pointers is static.  The table may take at most 1/MOUNTS_BUDGET_SHARE
 * of the budget, so that a host with hundreds of mounts cannot leave a
 * small budget without room for file records; mounts beyond that, or
 * beyond IOLENS_MAX_MOUNTS, are left out (their files then match an
 * enclosing mount).  A later mount on the same point replaces the earlier
 * one, as the kernel hides the earlier one.
 *
 * Block sizes come from statfs (f_bsize), except for the file system types
 * in skip_statfs below: pseudo file systems, whose block size means nothing
 * for file alignment, and network or user-space file systems, on which
 * statfs can block for a long time (a dead server or FUSE daemon, an
 * automount being triggered).  Those get block size 0, which disables the
 * file-alignment check for their files.
 */
#include "core/mounts.h"

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/statfs.h>

#include "core/budget.h"
#include "core/real_calls.h"

#define IOLENS_MAX_MOUNTS 256
#define MOUNTS_BUDGET_SHARE 8

struct mount_entry {
    struct iolens_mount m;     /* first: iolens_mounts_at returns &e->m */
    size_t point_len;
    char strings[];            /* point, NUL, fstype, NUL */
};

static struct mount_entry *mount_table[IOLENS_MAX_MOUNTS];
static size_t mount_count;
static size_t mount_bytes;   /* budget taken so far */
static size_t mount_bytes_max;

/* ----------------------------------------------------------- parsing -- */

static bool has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool skip_statfs(const char *fstype)
{
    static const char *const exact[] = {
        "proc", "sysfs", "devpts", "mqueue", "debugfs", "tracefs", "securityfs", "pstore",
        "bpf", "autofs", "configfs", "binfmt_misc", "hugetlbfs", "cifs", "9p", "afs", "ceph",
    };
    /* cgroup, cgroup2; nfs, nfs4; smb3, smbfs; fuse, fuseblk, fusectl, fuse.* */
    static const char *const prefixes[] = {"cgroup", "nfs", "smb", "fuse"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strcmp(fstype, exact[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (has_prefix(fstype, prefixes[i]))
            return true;
    return false;
}

static int64_t block_size_of(const char *point, const char *fstype)
{
    struct statfs sf;
    if (skip_statfs(fstype) || statfs(point, &sf) != 0)
        return 0;
    return (int64_t)sf.f_bsize;
}

static bool is_octal(char c) { return c >= '0' && c <= '7'; }

/* Undoes the kernel's octal escapes (\040 space, \011 tab, \012 newline,
 * \134 backslash) in place; returns the new length. */
static size_t unescape(char *s)
{
    char *out = s;
    for (const char *in = s; *in != '\0';) {
        if (in[0] == '\\' && is_octal(in[1]) && is_octal(in[2]) && is_octal(in[3])) {
            int v = (in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0');
            if (v > 0 && v < 256) {
                *out++ = (char)v;
                in += 4;
                continue;
            }
        }
        *out++ = *in++;
    }
    *out = '\0';
    return (size_t)(out - s);
}

/* Splits off the next space-separated field of *line; NULL if none. */
static char *next_field(char **line)
{
    char *s = *line;
    while (*s == ' ')
        s++;
    if (*s == '\0')
        return NULL;
    char *end = strchr(s, ' ');
    if (end != NULL) {
        *end = '\0';
        *line = end + 1;
    } else {
        *line = s + strlen(s);
    }
    return s;
}

/* ------------------------------------------------------------ table -- */

static void add_mount(const char *point, size_t plen, const char *fstype)
{
    size_t tlen = strlen(fstype);
    size_t slot = mount_count;
    for (size_t i = 0; i < mount_count; i++)
        if (mount_table[i]->point_len == plen && memcmp(mount_table[i]->m.point, point, plen) == 0)
            slot = i;
    size_t size = sizeof(struct mount_entry) + plen + 1 + tlen + 1;
    if (slot == IOLENS_MAX_MOUNTS)
        return;
    if (size > mount_bytes_max - mount_bytes) {
        /* Left out for want of the budget's share: a larger budget would
         * keep it, so "memory needed" counts it. */
        iolens_budget_add_needed(iolens_budget_round(size));
        return;
    }
    struct mount_entry *e = iolens_budget_alloc(size);
    if (e == NULL)
        return;
    mount_bytes += size;
    memcpy(e->strings, point, plen + 1);
    memcpy(e->strings + plen + 1, fstype, tlen + 1);
    e->m.point = e->strings;
    e->m.fstype = e->strings + plen + 1;
    e->m.block_size = block_size_of(point, fstype);
    e->point_len = plen;
    mount_table[slot] = e;
    if (slot == mount_count)
        mount_count++;
}

/* One line: "device mountpoint fstype options dump pass". */
static void parse_line(char *line)
{
    char *rest = line;
    char *device = next_field(&rest);
    char *point = next_field(&rest);
    char *fstype = next_field(&rest);
    if (device == NULL || point == NULL || fstype == NULL || point[0] != '/')
        return;
    size_t plen = unescape(point);
    unescape(fstype);
    add_mount(point, plen, fstype);
}

/* Long lines (overlayfs options run to kilobytes) keep only their first
 * LINE_KEEP bytes, which always hold the three fields we use unless the
 * mount point itself is enormous; such a line is dropped. */
#define LINE_KEEP 8192
static char line_buf[LINE_KEEP + 1];
static char read_buf[4096];

static void finish_line(size_t len, bool overflowed)
{
    line_buf[len] = '\0';
    /* An overflowed line is usable only if the fstype field ended in it. */
    if (overflowed) {
        char *sp1 = strchr(line_buf, ' ');
        char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
        char *sp3 = sp2 ? strchr(sp2 + 1, ' ') : NULL;
        if (sp3 == NULL)
            return;
        *sp3 = '\0';
    }
    parse_line(line_buf);
}

int iolens_mounts_load(void)
{
    struct iolens_budget_stats bs;
    iolens_budget_stats(&bs);
    mount_count = 0;
    mount_bytes = 0;
    mount_bytes_max = (size_t)(bs.budget / MOUNTS_BUDGET_SHARE);
    if (IOLENS_REAL(open) == NULL || IOLENS_REAL(read) == NULL || IOLENS_REAL(close) == NULL)
        return -1;
    int fd = iolens_real_open("/proc/self/mounts", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t len = 0;
    bool overflowed = false;
    for (;;) {
        ssize_t n = iolens_real_read(fd, read_buf, sizeof read_buf);
        if (n <= 0)
            break; /* EOF, or an error: keep what was read */
        for (ssize_t i = 0; i < n; i++) {
            char c = read_buf[i];
            if (c == '\n') {
                finish_line(len, overflowed);
                len = 0;
                overflowed = false;
            } else if (len < LINE_KEEP) {
                line_buf[len++] = c;
            } else {
                overflowed = true;
            }
        }
    }
    if (len > 0)
        finish_line(len, overflowed);
    iolens_real_close(fd);
    return (int)mount_count;
}

/* ----------------------------------------------------------- lookups -- */

/* 1 if the mount point is abspath or one of its parent directories. */
static bool covers(const struct mount_entry *e, const char *abspath)
{
    if (e->point_len == 1) /* "/" */
        return abspath[0] == '/';
    return strncmp(abspath, e->m.point, e->point_len) == 0 &&
           (abspath[e->point_len] == '/' || abspath[e->point_len] == '\0');
}

const struct iolens_mount *iolens_mounts_find(const char *abspath)
{
    const struct mount_entry *best = NULL;
    for (size_t i = 0; i < mount_count; i++) {
        const struct mount_entry *e = mount_table[i];
        if (covers(e, abspath) && (best == NULL || e->point_len > best->point_len))
            best = e;
    }
    return best ? &best->m : NULL;
}

size_t iolens_mounts_count(void)
{
    return mount_count;
}

const struct iolens_mount *iolens_mounts_at(size_t i)
{
    return i < mount_count ? &mount_table[i]->m : NULL;
}
