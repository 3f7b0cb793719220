/* Writing a tool's output file safely (out_file.h). */
#include "output/out_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A name not in use, to be created with O_EXCL: 64 random bits, so that
 * nobody can guess it in advance. */
static char *random_name(const char *path, const char *what)
{
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        r = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 32;
    }
    char *name;
    if (asprintf(&name, "%s.%s-%016llx", path, what, (unsigned long long)r) < 0)
        return NULL;
    return name;
}

/* The existing file at path when it is not a regular file (a device, a
 * FIFO): opened for writing in place; NULL otherwise (errno 0), or on an
 * error (errno set).  O_CREAT is not given, so nothing is made here. */
static FILE *open_in_place(const char *path)
{
    struct stat sb;
    errno = 0;
    if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode)) {
        errno = 0;
        return NULL;
    }
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    /* Checked again on what was opened: the name may have changed. */
    if (fstat(fd, &sb) != 0 || S_ISREG(sb.st_mode)) {
        close(fd);
        errno = 0;
        return NULL;
    }
    FILE *fp = fdopen(fd, "w");
    if (fp == NULL)
        close(fd);
    return fp;
}

int iolens_out_open(struct iolens_out *o, const char *path)
{
    *o = (struct iolens_out){0};
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return 0;
    }
    if ((o->path = strdup(path)) == NULL)
        return ENOMEM;
    if ((o->fp = open_in_place(path)) != NULL)
        return 0;
    if (errno != 0) {
        int e = errno;
        iolens_out_abort(o);
        return e;
    }
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 16; attempt++) {
        free(o->tmp);
        if ((o->tmp = random_name(path, "tmp")) == NULL)
            break;
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0 || (o->fp = fdopen(fd, "w")) == NULL) {
        int e = o->tmp == NULL ? ENOMEM : errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        iolens_out_abort(o);
        return e;
    }
    return 0;
}

int iolens_out_commit(struct iolens_out *o)
{
    int e = 0;
    if (o->fp == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout))
            e = errno != 0 ? errno : EIO;
        o->fp = NULL;
    } else if (o->fp != NULL) {
        if (ferror(o->fp))
            e = EIO;
        if (fclose(o->fp) != 0 && e == 0)
            e = errno;
        o->fp = NULL;
    }
    if (e == 0 && o->tmp != NULL && rename(o->tmp, o->path) != 0)
        e = errno;
    if (e != 0) {
        iolens_out_abort(o);
        return e;
    }
    free(o->tmp);
    free(o->path);
    *o = (struct iolens_out){0};
    return 0;
}

void iolens_out_abort(struct iolens_out *o)
{
    if (o->fp != NULL && o->fp != stdout)
        fclose(o->fp);
    if (o->tmp != NULL)
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    *o = (struct iolens_out){0};
}

/* ----------------------------------------------- libraries by name -- */

int iolens_out_dir_open(struct iolens_out_dir *d, const char *path)
{
    *d = (struct iolens_out_dir){0};
    if ((d->path = strdup(path)) == NULL || asprintf(&d->dir, "%s.tmpdir-XXXXXX", path) < 0) {
        d->dir = NULL;
        iolens_out_dir_abort(d);
        return ENOMEM;
    }
    if (mkdtemp(d->dir) == NULL) {
        int e = errno;
        free(d->dir);
        d->dir = NULL;
        iolens_out_dir_abort(d);
        return e;
    }
    if (asprintf(&d->file, "%s/new", d->dir) < 0) {
        d->file = NULL;
        iolens_out_dir_abort(d);
        return ENOMEM;
    }
    return 0;
}

/* Removes the private directory and whatever the library left in it (a
 * journal): it is ours alone, and holds no subdirectory. */
static void remove_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        DIR *dp = fdopendir(fd);
        if (dp != NULL) {
            struct dirent *e;
            while ((e = readdir(dp)) != NULL)
                if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                    unlinkat(dirfd(dp), e->d_name, 0);
            closedir(dp);
        } else {
            close(fd);
        }
    }
    rmdir(dir);
}

int iolens_out_dir_commit(struct iolens_out_dir *d)
{
    int e = rename(d->file, d->path) != 0 ? errno : 0;
    iolens_out_dir_abort(d);
    return e;
}

void iolens_out_dir_abort(struct iolens_out_dir *d)
{
    if (d->dir != NULL)
        remove_dir(d->dir);
    free(d->dir);
    free(d->file);
    free(d->path);
    *d = (struct iolens_out_dir){0};
}

int iolens_out_replaces_input(const char *path, const char *const *inputs, int n)
{
    struct stat out, in;
    if (strcmp(path, "-") == 0 || lstat(path, &out) != 0 || !S_ISREG(out.st_mode))
        return -1;
    for (int i = 0; i < n; i++)
        if (stat(inputs[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
            return i;
    return -1;
}
