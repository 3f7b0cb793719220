/* A log's directory, its temporary file and its final name (log_place.h).
 * Everything is relative to the directory descriptor opened once: a
 * directory swapped for a symbolic link after the check cannot redirect
 * the log. */
#include "log/log_place.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/fd_room.h"
#include "core/real_calls.h"

static char token[9];

/* 32 random bits: the kernel's, or the clock's when getrandom cannot
 * answer without blocking (early boot). */
static uint32_t random32(void)
{
    uint32_t x;
    if (getrandom(&x, sizeof x, GRND_NONBLOCK) == (ssize_t)sizeof x)
        return x;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t y = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 32 ^
                 (uint64_t)(uintptr_t)&ts;
    return (uint32_t)(y ^ y >> 29);
}

void iolens_log_token_renew(void)
{
    snprintf(token, sizeof token, "%08x", (unsigned)random32());
}

const char *iolens_log_token(void)
{
    if (token[0] == '\0')
        iolens_log_token_renew();
    return token;
}

static void set_err(char *err, size_t errsz, const char *what, int errnum)
{
    if (errnum != 0)
        snprintf(err, errsz, "%s%s%s", what, what[0] ? ": " : "", strerror(errnum));
    else
        snprintf(err, errsz, "%s", what);
}

/* The directory must be one that only its owner, or nobody but the owner
 * of each file (sticky), can rename entries in. */
static int check_dir(int fd, char *err, size_t errsz)
{
    struct stat st;
    if (IOLENS_REAL(fstat)(fd, &st) != 0) {
        set_err(err, errsz, "log directory", errno);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        set_err(err, errsz, "log directory", ENOTDIR);
        return -1;
    }
    if (st.st_uid != geteuid() && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
        set_err(err, errsz,
                "the log directory belongs to another user and anyone may write to it "
                "without the sticky bit; refused",
                0);
        return -1;
    }
    return 0;
}

static int open_dir(struct iolens_log_place *p)
{
    int fd = IOLENS_REAL(open)(p->dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EMFILE && iolens_fd_room_make(&p->fd_room))
        fd = IOLENS_REAL(open)(p->dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return fd;
}

/* Explains a failed open of the directory: a symbolic link is refused,
 * not followed. */
static void open_failure(const char *dir, int errnum, char *err, size_t errsz)
{
    struct stat st;
    if (errnum == ENOTDIR && IOLENS_REAL(lstat)(dir, &st) == 0 && S_ISLNK(st.st_mode))
        set_err(err, errsz, "the log directory is a symbolic link; refused", 0);
    else
        set_err(err, errsz, "", errnum);
}

int iolens_log_place_open(struct iolens_log_place *p, const char *path,
                          enum iolens_log_naming naming, long pid, int make_dir, int *created,
                          char *err, size_t errsz)
{
    memset(p, 0, sizeof *p);
    p->dirfd = -1;
    p->naming = naming;
    p->pid = pid;
    if (created != NULL)
        *created = 0;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash == NULL ? 0 : (size_t)(slash - path);
    const char *name = slash == NULL ? path : slash + 1;
    if (name[0] == '\0') { /* ends in '/': a directory, not a log's name */
        set_err(err, errsz, "", EISDIR);
        return -1;
    }
    if (dirlen >= sizeof p->dir || strlen(name) >= sizeof p->name) {
        set_err(err, errsz, "", ENAMETOOLONG);
        return -1;
    }
    if (slash == path)
        strcpy(p->dir, "/");
    else if (slash == NULL)
        strcpy(p->dir, ".");
    else
        memcpy(p->dir, path, dirlen);
    strcpy(p->name, name);

    p->dirfd = open_dir(p);
    if (p->dirfd < 0 && errno == ENOENT && make_dir) {
        /* Not world-writable: a directory shared by several users is the
         * site's to make (mode 1777), not the first user's. */
        if (mkdir(p->dir, 0700) == 0) {
            if (created != NULL)
                *created = 1;
        } else if (errno != EEXIST) {
            p->mkdir_failed = 1;
            set_err(err, errsz, "cannot create the log directory", errno);
            iolens_fd_room_give_back(&p->fd_room);
            return -1;
        }
        p->dirfd = open_dir(p);
    }
    if (p->dirfd < 0) {
        open_failure(p->dir, errno, err, errsz);
        iolens_fd_room_give_back(&p->fd_room);
        return -1;
    }
    if (check_dir(p->dirfd, err, errsz) != 0) {
        iolens_log_place_close(p);
        return -1;
    }
    return 0;
}

void iolens_log_place_close(struct iolens_log_place *p)
{
    if (p->dirfd >= 0)
        IOLENS_REAL(close)(p->dirfd);
    p->dirfd = -1;
    iolens_fd_room_give_back(&p->fd_room);
}

void iolens_log_place_path(const struct iolens_log_place *p, const char *name, char *out,
                           size_t outsz)
{
    snprintf(out, outsz, "%s%s%s", p->dir, strcmp(p->dir, "/") == 0 ? "" : "/", name);
}

static int create_temp(int dirfd, const char *tmp)
{
    return IOLENS_REAL(openat)(dirfd, tmp, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC,
                               0600);
}

int iolens_log_place_temp(struct iolens_log_place *p, char *tmp, size_t tmpsz)
{
    /* O_EXCL and O_NOFOLLOW: whatever is at the name (a file, a symlink
     * planted by someone else) is never opened, followed or truncated.
     * The name is not predictable, so such a plant cannot block the log:
     * another name is tried. */
    for (unsigned attempt = 0; attempt < 16; attempt++) {
        int n = snprintf(tmp, tmpsz, "%s.tmp-%ld-%08x", p->name, p->pid, (unsigned)random32());
        if (n < 0 || (size_t)n >= tmpsz || (size_t)n > NAME_MAX) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int fd = create_temp(p->dirfd, tmp);
        if (fd < 0 && errno == EMFILE && iolens_fd_room_make(&p->fd_room))
            fd = create_temp(p->dirfd, tmp);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

void iolens_log_place_discard(const struct iolens_log_place *p, const char *tmp)
{
    IOLENS_REAL(unlinkat)(p->dirfd, tmp, 0);
}

/* The name of try i (see enum iolens_log_naming).  Returns 0 or -1. */
static int name_for_try(const struct iolens_log_place *p, unsigned i, char *out, size_t outsz)
{
    char fresh[16];
    snprintf(fresh, sizeof fresh, "-%08x", (unsigned)random32());
    int n;
    if (p->naming == IOLENS_NAMING_TOKEN) {
        size_t len = strlen(p->name), ext = strlen(".iolens");
        if (len >= ext && strcmp(p->name + len - ext, ".iolens") == 0)
            len -= ext;
        n = i == 0 ? snprintf(out, outsz, "%s", p->name)
                   : snprintf(out, outsz, "%.*s%s%s", (int)len, p->name, fresh, p->name + len);
    } else {
        unsigned step = i + (p->naming == IOLENS_NAMING_EXACT_CHILD);
        n = step == 0   ? snprintf(out, outsz, "%s", p->name)
            : step == 1 ? snprintf(out, outsz, "%s.%ld", p->name, p->pid)
                        : snprintf(out, outsz, "%s.%ld%s", p->name, p->pid, fresh);
    }
    return n < 0 || (size_t)n >= outsz || (size_t)n > NAME_MAX ? -1 : 0;
}

/* This process's own earlier log under its token name (written at
 * a signal, then again at exit) is replaced; nobody else could have known
 * the name before it existed. */
static int own_earlier_log(const struct iolens_log_place *p, unsigned i, const char *name)
{
    struct stat st;
    return p->naming == IOLENS_NAMING_TOKEN && i == 0 &&
           IOLENS_REAL(fstatat)(p->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode) &&
           st.st_uid == geteuid();
}

/* Renames without replacing anything: RENAME_NOREPLACE, or where the file
 * system lacks it (older NFS), a hard link, which never replaces either. */
static int rename_noreplace(int dirfd, const char *from, const char *to)
{
    int (*real_renameat2)(int, const char *, int, const char *, unsigned) = IOLENS_REAL(renameat2);
    if (real_renameat2 == NULL)
        errno = ENOSYS;
    else if (real_renameat2(dirfd, from, dirfd, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
        return -1;
    if (linkat(dirfd, from, dirfd, to, 0) != 0)
        return -1;
    IOLENS_REAL(unlinkat)(dirfd, from, 0);
    return 0;
}

int iolens_log_place_publish(const struct iolens_log_place *p, const char *tmp, char *path,
                             size_t pathsz, char *err, size_t errsz)
{
    char name[NAME_MAX + 1];
    iolens_log_place_path(p, p->name, path, pathsz);
    if (p->naming == IOLENS_NAMING_REPLACE) {
        if (IOLENS_REAL(renameat)(p->dirfd, tmp, p->dirfd, p->name) == 0)
            return 0;
        set_err(err, errsz, "rename", errno);
        return -1;
    }
    for (unsigned i = 0; i < IOLENS_LOG_NAME_TRIES; i++) {
        if (name_for_try(p, i, name, sizeof name) != 0) {
            set_err(err, errsz, "rename", ENAMETOOLONG);
            return -1;
        }
        iolens_log_place_path(p, name, path, pathsz);
        if (rename_noreplace(p->dirfd, tmp, name) == 0)
            return 0;
        int e = errno;
        if (e == EEXIST && own_earlier_log(p, i, name) &&
            IOLENS_REAL(renameat)(p->dirfd, tmp, p->dirfd, name) == 0)
            return 0;
        /* EEXIST: taken; EPERM: taken by another user in a sticky
         * directory.  Anything else will not change with the name. */
        if (e != EEXIST && e != EPERM) {
            set_err(err, errsz, "rename", e);
            return -1;
        }
    }
    snprintf(err, errsz, "every name tried was taken (%d tries)", IOLENS_LOG_NAME_TRIES);
    return -1;
}
