/*
 * Runs of repeated accesses and what ends them, for test_repeat_runs.sh.
 *
 *   prog_repeat_runs DIR
 *
 * Each file of DIR gets a scripted sequence of reads and writes: long
 * runs of the same access (in place, back to back, strided, backwards)
 * broken by what must end a run in the runtime's bookkeeping: another
 * descriptor on the file, a dup'ed descriptor, a switch between reading
 * and writing, a reopen, another size, another buffer or file alignment,
 * a seek.  Every access is printed on stdout as
 *   access FILE DESC KIND START SIZE BUFADDR
 * (DESC numbers the open file descriptions, as dup shares one; KIND r or
 * w; BUFADDR the buffer's address) and every open as "open FILE", so
 * that repeat_runs_oracle.py can work out every counter from what the
 * program did, not from iolens.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[3072];
static _Alignas(4096) char buffer[1 << 16];
static int next_desc = 1;

struct desc {
    int fd, id;
    const char *name;
    int64_t pos; /* the file position, for read and write */
};

static void die(const char *what, const char *name)
{
    perror(what);
    fprintf(stderr, "prog_repeat_runs: %s %s\n", what, name);
    exit(1);
}

static struct desc open_desc(const char *name, int flags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct desc d = {open(path, flags | O_RDWR, 0644), next_desc++, name, 0};
    if (d.fd < 0)
        die("open", path);
    printf("open %s\n", name);
    return d;
}

static void note(const struct desc *d, char kind, int64_t start, size_t size, const char *buf)
{
    printf("access %s %d %c %" PRId64 " %zu %" PRIuPTR "\n", d->name, d->id, kind, start, size,
           (uintptr_t)buf);
}

static void put(struct desc *d, int64_t at, size_t size, size_t buf_off)
{
    const char *buf = buffer + buf_off;
    if (at >= 0) {
        if (pwrite(d->fd, buf, size, at) != (ssize_t)size)
            die("pwrite", d->name);
        note(d, 'w', at, size, buf);
    } else {
        if (write(d->fd, buf, size) != (ssize_t)size)
            die("write", d->name);
        note(d, 'w', d->pos, size, buf);
        d->pos += (int64_t)size;
    }
}

static void get(struct desc *d, int64_t at, size_t size, size_t buf_off)
{
    char *buf = buffer + buf_off;
    if (at >= 0) {
        if (pread(d->fd, buf, size, at) != (ssize_t)size)
            die("pread", d->name);
        note(d, 'r', at, size, buf);
    } else {
        if (read(d->fd, buf, size) != (ssize_t)size)
            die("read", d->name);
        note(d, 'r', d->pos, size, buf);
        d->pos += (int64_t)size;
    }
}

static void seek_to(struct desc *d, int64_t at)
{
    if (lseek(d->fd, at, SEEK_SET) != at)
        die("lseek", d->name);
    d->pos = at;
}

static void shut(struct desc *d)
{
    close(d->fd);
}

/* In place, as the 1-byte pwrite benchmark: the buffer's alignment
 * changes twice. */
static void in_place(void)
{
    struct desc d = open_desc("inplace.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 100; i++)
        put(&d, 0, 1, 0);
    for (int i = 0; i < 10; i++)
        put(&d, 0, 1, 1);
    for (int i = 0; i < 10; i++)
        put(&d, 0, 1, 0);
    shut(&d);
}

/* Back to back through the file position, across a block boundary (the
 * file alignment changes there), then a seek, reads and writes. */
static void back_to_back(void)
{
    struct desc d = open_desc("consec.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 5000; i++)
        put(&d, -1, 1, 0);
    seek_to(&d, 0);
    for (int i = 0; i < 100; i++)
        get(&d, -1, 16, 0);
    for (int i = 0; i < 10; i++)
        put(&d, -1, 16, 0);
    seek_to(&d, 8);
    for (int i = 0; i < 10; i++)
        get(&d, -1, 16, 0);
    shut(&d);
}

/* Forward strides, and the ones Darshan does not count after a last
 * byte of 0 (a 1-byte access at offset 0). */
static void strided(void)
{
    struct desc d = open_desc("strided.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 50; i++)
        put(&d, i * 300, 100, 0);
    shut(&d);
    d = open_desc("edge.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 20; i++)
        put(&d, i * 5, 1, 0);
    for (int i = 0; i < 20; i++)
        put(&d, 200 + i * 5, 1, 0);
    /* A second descriptor starts at 0 while the file's step is still a
     * block: its next writes have that step (and the same alignment), but
     * after its first one the last byte is 0, so that stride is not
     * counted. */
    for (int i = 0; i < 5; i++)
        put(&d, 1 << 20 | i << 12, 1, 0);
    struct desc e = open_desc("edge.dat", 0);
    for (int i = 0; i < 20; i++)
        put(&e, i << 12, 1, 0);
    shut(&e);
    shut(&d);
    d = open_desc("backward.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 50; i++)
        put(&d, 65536 - i * 512, 512, 0);
    for (int i = 0; i < 10; i++)
        put(&d, 1 + i * 8192, 4096, 0);
    shut(&d);
}

/* Two descriptors on one file, then a run after them, then a dup'ed
 * descriptor sharing the file position. */
static void two_descriptors(void)
{
    struct desc a = open_desc("twofds.dat", O_CREAT | O_TRUNC);
    struct desc b = open_desc("twofds.dat", 0);
    for (int i = 0; i < 50; i++) {
        put(&a, i * 8, 8, 0);
        put(&b, 4096 + i * 8, 8, 0);
    }
    for (int i = 0; i < 30; i++)
        put(&a, 800 + i * 8, 8, 0);
    struct desc c = a;
    c.fd = dup(a.fd);
    if (c.fd < 0)
        die("dup", a.name);
    for (int i = 0; i < 20; i++) {
        put(&a, -1, 8, 0);
        c.pos = a.pos;
        put(&c, -1, 8, 0);
        a.pos = c.pos;
    }
    shut(&c);
    shut(&b);
    shut(&a);
}

/* A reopen forgets the last bytes (Darshan's rule): the same run of
 * writes before and after it. */
static void reopen(void)
{
    struct desc d = open_desc("reopen.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 10; i++)
        put(&d, -1, 4, 0);
    shut(&d);
    d = open_desc("reopen.dat", 0);
    for (int i = 0; i < 10; i++)
        put(&d, -1, 4, 0);
    shut(&d);
    d = open_desc("reopen.dat", 0);
    for (int i = 0; i < 10; i++)
        put(&d, 40 + i * 4, 4, 0);
    /* An open of the file on another descriptor, in the middle of a run,
     * forgets the last bytes too. */
    struct desc e = open_desc("reopen.dat", 0);
    for (int i = 0; i < 10; i++)
        put(&d, 80 + i * 4, 4, 0);
    shut(&e);
    shut(&d);
}

/* Reading and writing in turn, then a run of reads; sizes that change
 * and come back. */
static void mixed(void)
{
    struct desc d = open_desc("rwmix.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 40; i++) {
        put(&d, i * 64, 64, 0);
        get(&d, i * 64, 64, 0);
    }
    for (int i = 0; i < 40; i++)
        get(&d, i * 64, 64, 0);
    shut(&d);
    d = open_desc("sizes.dat", O_CREAT | O_TRUNC);
    for (int i = 0; i < 10; i++)
        put(&d, -1, 100, 0);
    for (int i = 0; i < 10; i++)
        put(&d, -1, 200, 0);
    for (int i = 0; i < 10; i++)
        put(&d, -1, 100, 0);
    shut(&d);
}

int main(int argc, char **argv)
{
    if (argc != 2 || strlen(argv[1]) >= sizeof dir) {
        fprintf(stderr, "usage: prog_repeat_runs DIR\n");
        return 2;
    }
    strcpy(dir, argv[1]);
    setvbuf(stdout, NULL, _IOFBF, 1 << 20);
    in_place();
    back_to_back();
    strided();
    two_descriptors();
    reopen();
    mixed();
    return 0;
}
