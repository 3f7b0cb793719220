/* The hidden causes of the iolens-parser --advice findings that a single
 * process can produce, one per mode, in directory DIR (test_advice.sh):
 *
 *   prog_advice MODE DIR
 *   small       2000 write()s of 64 bytes                   SMALL_ACCESSES
 *   misaligned  200 pwrite()s of 128 KiB at 512 + i*128 KiB  MISALIGNED_ACCESSES
 *   random      200 pread()s of 128 KiB at shuffled 128 KiB slots of a
 *               64 MiB sparse file                           RANDOM_ACCESS
 *   metadata    1500 files: create, write 10 bytes, close, stat
 *                                                            METADATA_DOMINATED
 *   stdio       32768 fprintf lines of 64 bytes (2 MiB)      HEAVY_STDIO
 *   redundant   a 2 MiB file written once, read 4 times      REDUNDANT_READS
 *   clean       8 MiB written and read back once in 1 MiB calls: no finding
 * and for iolens-diff (test_diff.sh), DIR/diff.dat with 1 MiB of data:
 *   write1      in 1048576 write()s of 1 byte
 *   write1m     in one write() of 1 MiB
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024 * 1024)
#define SLOT (128 * 1024)

static char buf[MIB] __attribute__((aligned(4096)));

static int die(const char *what)
{
    perror(what);
    return 1;
}

static int open_in(const char *dir, const char *name, int flags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return open(path, flags, 0644);
}

static int small(const char *dir)
{
    int fd = open_in(dir, "small.dat", O_CREAT | O_WRONLY | O_TRUNC);
    if (fd < 0)
        return die("open");
    for (int i = 0; i < 2000; i++)
        if (write(fd, buf, 64) != 64)
            return die("write");
    return close(fd) != 0 ? die("close") : 0;
}

static int misaligned(const char *dir)
{
    int fd = open_in(dir, "misaligned.dat", O_CREAT | O_WRONLY | O_TRUNC);
    if (fd < 0)
        return die("open");
    for (int i = 0; i < 200; i++)
        if (pwrite(fd, buf, SLOT, 512 + (off_t)i * SLOT) != SLOT)
            return die("pwrite");
    return close(fd) != 0 ? die("close") : 0;
}

/* A fixed shuffle (xorshift), so that every run reads the same slots. */
static void shuffle(int *slot, int n)
{
    uint32_t x = 2463534242u;
    for (int i = 0; i < n; i++)
        slot[i] = i;
    for (int i = n - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        int j = (int)(x % (uint32_t)(i + 1)), t = slot[i];
        slot[i] = slot[j];
        slot[j] = t;
    }
}

static int random_reads(const char *dir)
{
    int slot[512];
    shuffle(slot, 512);
    int fd = open_in(dir, "random.dat", O_CREAT | O_RDWR | O_TRUNC);
    if (fd < 0)
        return die("open");
    if (ftruncate(fd, 64 * MIB) != 0)
        return die("ftruncate");
    for (int i = 0; i < 200; i++)
        if (pread(fd, buf, SLOT, (off_t)slot[i] * SLOT) != SLOT)
            return die("pread");
    return close(fd) != 0 ? die("close") : 0;
}

static int metadata(const char *dir)
{
    for (int i = 0; i < 1500; i++) {
        char name[64];
        snprintf(name, sizeof name, "m%04d", i);
        int fd = open_in(dir, name, O_CREAT | O_WRONLY | O_TRUNC);
        if (fd < 0)
            return die("open");
        if (write(fd, buf, 10) != 10 || close(fd) != 0)
            return die("write");
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (stat(path, &st) != 0)
            return die("stat");
    }
    return 0;
}

static int stdio(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/stdio.txt", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return die("fopen");
    for (int i = 0; i < 32768; i++)
        fprintf(f, "%08d %054d\n", i, i);     /* 64 bytes a line */
    return fclose(f) != 0 ? die("fclose") : 0;
}

/* n calls of size bytes from offset 0. */
static int sequential(int fd, int write_it, int n, int size)
{
    for (int i = 0; i < n; i++) {
        ssize_t r = write_it ? pwrite(fd, buf, size, (off_t)i * size)
                             : pread(fd, buf, size, (off_t)i * size);
        if (r != size)
            return die(write_it ? "pwrite" : "pread");
    }
    return 0;
}

static int redundant(const char *dir)
{
    int fd = open_in(dir, "redundant.dat", O_CREAT | O_RDWR | O_TRUNC);
    if (fd < 0)
        return die("open");
    if (sequential(fd, 1, 2, MIB) != 0)
        return 1;
    for (int pass = 0; pass < 4; pass++)
        if (sequential(fd, 0, 2, MIB) != 0)
            return 1;
    return close(fd) != 0 ? die("close") : 0;
}

static int clean(const char *dir)
{
    int fd = open_in(dir, "clean.dat", O_CREAT | O_RDWR | O_TRUNC);
    if (fd < 0)
        return die("open");
    if (sequential(fd, 1, 8, MIB) != 0 || sequential(fd, 0, 8, MIB) != 0)
        return 1;
    return close(fd) != 0 ? die("close") : 0;
}

/* 1 MiB to DIR/diff.dat in calls of size bytes. */
static int write_diff(const char *dir, int size)
{
    int fd = open_in(dir, "diff.dat", O_CREAT | O_WRONLY | O_TRUNC);
    if (fd < 0)
        return die("open");
    for (int i = 0; i < MIB / size; i++)
        if (write(fd, buf, size) != size)
            return die("write");
    return close(fd) != 0 ? die("close") : 0;
}

static int write1(const char *dir) { return write_diff(dir, 1); }
static int write1m(const char *dir) { return write_diff(dir, MIB); }

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(const char *dir);
    } modes[] = {
        {"small", small},         {"misaligned", misaligned}, {"random", random_reads},
        {"metadata", metadata},   {"stdio", stdio},           {"redundant", redundant},
        {"clean", clean},         {"write1", write1},         {"write1m", write1m},
    };
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODE DIR\n", argv[0]);
        return 2;
    }
    memset(buf, 'a', sizeof buf);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(argv[1], modes[i].name) == 0)
            return modes[i].run(argv[2]);
    fprintf(stderr, "%s: unknown mode %s\n", argv[0], argv[1]);
    return 2;
}
