/* Descriptor sharing (test_dup.sh).
 *
 * usage: prog_dup FILE
 *   1. fd = open(FILE); 100 bytes written through fd, then through each of
 *      dup(fd), dup2(fd, 20), dup3(fd, 21), fcntl(F_DUPFD),
 *      fcntl(F_DUPFD_CLOEXEC): all share fd's offset, so the 6 writes are
 *      consecutive (0, 100, ..., 500).  dup2(fd, fd) changes nothing.
 *      The duplicates are closed and a 7th write through fd lands at 600.
 *   2. Two independent opens a and b read 100 bytes each, twice,
 *      interleaved: each has its own offset (0, 0, 100, 100).
 *   3. a seeks to 0 and reads 50; b seeks to the end and reads 0 (end of
 *      file).
 *   4. O_APPEND: two descriptors opened with O_APPEND on APPENDFILE write
 *      10 bytes each in turn (x, y, x: at 0, 10, 20); a third, opened
 *      without O_APPEND, gets it with fcntl(F_SETFL) and writes at 30.
 *      Then 5 bytes each, all appended whatever their offset: pwrite(x, 0)
 *      at 40; on a fourth descriptor w without O_APPEND, pwritev2 with
 *      RWF_APPEND at offset 0 (45) and at -1 (50, w moves to 55), and a
 *      plain write on w (55).
 *   5. Relative names, run from a directory HOME: "rel" in HOME;
 *      chdir(OTHERDIR) and "rel" again (now OTHERDIR/rel);
 *      openat(HOME's descriptor, "rel2"); fchdir back to HOME and
 *      "../<OTHERDIR's name>/./rel3".  Each gets one 10-byte write.
 *
 * usage: prog_dup FILE APPENDFILE OTHERDIR */
/* pwritev2, RWF_APPEND: _GNU_SOURCE comes from build_config.h */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static char buf[100];

static int fail(const char *what)
{
    perror(what);
    return 1;
}

static int write_through(int fd)
{
    return write(fd, buf, sizeof buf) == (ssize_t)sizeof buf ? 0 : -1;
}

static int expect_read(int fd, size_t len, ssize_t expected, char first)
{
    char in[100];
    ssize_t n = read(fd, in, len);
    return n == expected && (n == 0 || in[0] == first) ? 0 : -1;
}

static int write_new(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "0123456789", 10) != 10 || close(fd) != 0)
        return fail(name);
    return 0;
}

static int appending(const char *path)
{
    int x = open(path, O_CREAT | O_WRONLY | O_APPEND | O_TRUNC, 0644);
    int y = open(path, O_WRONLY | O_APPEND);
    int z = open(path, O_WRONLY);
    int w = open(path, O_WRONLY); /* opened here: an open resets Darshan's last byte */
    if (x < 0 || y < 0 || z < 0 || w < 0)
        return fail("open appendfile");
    if (write(x, "0123456789", 10) != 10 || write(y, "0123456789", 10) != 10 ||
        write(x, "0123456789", 10) != 10)
        return fail("append");
    int flags = fcntl(z, F_GETFL);
    if (flags < 0 || fcntl(z, F_SETFL, flags | O_APPEND) != 0 || write(z, "0123456789", 10) != 10)
        return fail("append after F_SETFL");
    if (lseek(z, 0, SEEK_CUR) != 40)
        return fail("appended size");
    /* Linux appends these whatever their offset: pwrite on x at 0 lands at
     * 40; on w (no O_APPEND, at 0), pwritev2 with RWF_APPEND at 0 lands at
     * 45 and leaves w at 0, at -1 lands at 50 and moves w to 55, where a
     * plain write then lands. */
    struct iovec v = {"0123456789", 5};
    if (pwrite(x, "0123456789", 5, 0) != 5 || pwritev2(w, &v, 1, 0, RWF_APPEND) != 5 ||
        lseek(w, 0, SEEK_CUR) != 0 || pwritev2(w, &v, 1, -1, RWF_APPEND) != 5 ||
        write(w, "0123456789", 5) != 5 || lseek(w, 0, SEEK_CUR) != 60)
        return fail("appends at an offset");
    close(w);
    close(x);
    close(y);
    return close(z) == 0 ? 0 : fail("close appendfile");
}

static int relative_names(const char *otherdir)
{
    int home = open(".", O_RDONLY | O_DIRECTORY);
    if (home < 0)
        return fail("open .");
    if (write_new(AT_FDCWD, "rel") || chdir(otherdir) != 0 || write_new(AT_FDCWD, "rel") ||
        write_new(home, "rel2") || fchdir(home) != 0)
        return 1;
    const char *base = strrchr(otherdir, '/');
    char up[4096];
    snprintf(up, sizeof up, "../%s/./rel3", base != NULL ? base + 1 : otherdir);
    if (write_new(AT_FDCWD, up))
        return 1;
    return close(home) == 0 ? 0 : fail("close home");
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s FILE APPENDFILE OTHERDIR\n", argv[0]);
        return 2;
    }
    memset(buf, 'd', sizeof buf);
    int fd = open(argv[1], O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0)
        return fail("open");
    int dups[5];
    if (write_through(fd) != 0)
        return fail("write fd");
    dups[0] = dup(fd);
    dups[1] = dup2(fd, 20);
    dups[2] = dup3(fd, 21, O_CLOEXEC);
    dups[3] = fcntl(fd, F_DUPFD, 30);
    dups[4] = fcntl(fd, F_DUPFD_CLOEXEC, 40);
    if (dup2(fd, fd) != fd)
        return fail("dup2 same");
    for (int i = 0; i < 5; i++) {
        if (dups[i] < 0)
            return fail("dup");
        if (write_through(dups[i]) != 0)
            return fail("write dup");
    }
    for (int i = 0; i < 5; i++)
        close(dups[i]);
    if (write_through(fd) != 0)
        return fail("write after closing dups");
    if (lseek(fd, 0, SEEK_CUR) != 700)
        return fail("kernel offset");

    int a = open(argv[1], O_RDONLY);
    int b = open(argv[1], O_RDONLY);
    if (a < 0 || b < 0)
        return fail("open twice");
    if (expect_read(a, 100, 100, 'd') || expect_read(b, 100, 100, 'd') ||
        expect_read(a, 100, 100, 'd') || expect_read(b, 100, 100, 'd'))
        return fail("interleaved reads");
    if (lseek(a, 0, SEEK_SET) != 0 || expect_read(a, 50, 50, 'd'))
        return fail("reread");
    if (lseek(b, 0, SEEK_END) != 700 || expect_read(b, 100, 0, 0))
        return fail("end of file");
    close(a);
    close(b);
    if (close(fd) != 0)
        return fail("close");
    return appending(argv[2]) || relative_names(argv[3]);
}
