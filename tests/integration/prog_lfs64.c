/* Built with -D_FILE_OFFSET_BITS=64 (Makefile.am), so the calls below
 * bind to open64, pwrite64, pwritev64, pread64, lseek64, fstat64, stat64,
 * ftruncate64 and mmap64 (test_lfs64.sh checks with nm).
 *
 * usage: prog_lfs64 A B
 *   A: 4 KiB written at 5 GiB (beyond 32-bit offsets), 300 bytes with
 *   pwritev at 0, 300 read back, seek to the end, fstat, stat, fsync,
 *   fdatasync, truncate to 4 KiB, mmap; then A is renamed to B, and B is
 *   unlinked.
 *   On x86_64 and aarch64 it also calls the pre-2.33 glibc entry points
 *   __xstat64 and __fxstat64 on A, as binaries built against an old glibc
 *   do, and then prints "old stat" on stdout. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define FAR_OFFSET ((off_t)5 << 30)

/* The old stat entry points: only compatibility symbols in a current
 * glibc, bound here to the version an old binary would reference. */
#if defined(__x86_64__)
#define OLD_STAT_VER 1
#define OLD_GLIBC "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define OLD_STAT_VER 0
#define OLD_GLIBC "GLIBC_2.17"
#endif
#ifdef OLD_STAT_VER
extern int old_xstat64(int ver, const char *path, struct stat *buf);
extern int old_fxstat64(int ver, int fd, struct stat *buf);
__asm__(".symver old_xstat64, __xstat64@" OLD_GLIBC);
__asm__(".symver old_fxstat64, __fxstat64@" OLD_GLIBC);
#endif

static char buf[4096] __attribute__((aligned(4096)));

static int fail(const char *what)
{
    perror(what);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s A B\n", argv[0]);
        return 2;
    }
    if (sizeof(off_t) != 8)
        return fail("off_t is not 64-bit");
    memset(buf, 'l', sizeof buf);
    int fd = open(argv[1], O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0)
        return fail("open");
    if (pwrite(fd, buf, sizeof buf, FAR_OFFSET) != (ssize_t)sizeof buf)
        return fail("pwrite");
    struct iovec iov[2] = {{buf, 100}, {buf + 100, 200}};
    if (pwritev(fd, iov, 2, 0) != 300)
        return fail("pwritev");
    if (pread(fd, buf, 300, 0) != 300)
        return fail("pread");
    if (lseek(fd, 0, SEEK_END) != FAR_OFFSET + (off_t)sizeof buf)
        return fail("lseek");
    struct stat st;
    if (fstat(fd, &st) != 0 || stat(argv[1], &st) != 0)
        return fail("stat");
#ifdef OLD_STAT_VER
    if (old_xstat64(OLD_STAT_VER, argv[1], &st) != 0 || old_fxstat64(OLD_STAT_VER, fd, &st) != 0)
        return fail("__xstat64");
    if (st.st_size != FAR_OFFSET + (off_t)sizeof buf)
        return fail("__fxstat64 size");
    printf("old stat\n");
#endif
    if (fsync(fd) != 0 || fdatasync(fd) != 0)
        return fail("fsync");
    if (ftruncate(fd, sizeof buf) != 0)
        return fail("ftruncate");
    void *map = mmap(NULL, sizeof buf, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return fail("mmap");
    munmap(map, sizeof buf);
    if (close(fd) != 0)
        return fail("close");
    if (rename(argv[1], argv[2]) != 0)
        return fail("rename");
    if (unlink(argv[2]) != 0)
        return fail("unlink");
    return 0;
}
