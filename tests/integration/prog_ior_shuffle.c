/* The access order of `ior -a POSIX -z -t 64k -b 1m` (random offsets within
 * each block) at one rank, for test_ior_shuffle.sh, which checks iolens's
 * size and stride tables against the strace of the same run.
 *
 * usage: prog_ior_shuffle FILE SEED BLOCKS
 *   Writes BLOCKS blocks of 1 MiB, each as its 16 transfers of 64 KiB in an
 *   order shuffled by a seeded LCG (lseek + write), then reads them back in
 *   another shuffled order (pread).
 * usage: prog_ior_shuffle FILE SEED sizes N
 *   Writes N distinct sizes (100 + i bytes, once each) and then 50 writes
 *   of 4096 bytes, one after the other: N + 1 distinct access sizes. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TRANSFER = 65536, PER_BLOCK = 16 };

static char buf[TRANSFER];
static uint64_t lcg;

static unsigned next_random(unsigned bound)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((lcg >> 33) % bound);
}

/* Fisher-Yates shuffle of 0 .. PER_BLOCK - 1. */
static void shuffle(int *order)
{
    for (int i = 0; i < PER_BLOCK; i++)
        order[i] = i;
    for (int i = PER_BLOCK - 1; i > 0; i--) {
        int j = (int)next_random((unsigned)i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

static int fail(const char *what)
{
    perror(what);
    return 1;
}

static int ior_like(int fd, long blocks)
{
    int order[PER_BLOCK];
    for (long b = 0; b < blocks; b++) {
        shuffle(order);
        for (int i = 0; i < PER_BLOCK; i++) {
            off_t at = (off_t)b * PER_BLOCK * TRANSFER + (off_t)order[i] * TRANSFER;
            if (lseek(fd, at, SEEK_SET) != at || write(fd, buf, TRANSFER) != TRANSFER)
                return fail("write");
        }
    }
    for (long b = 0; b < blocks; b++) {
        shuffle(order);
        for (int i = 0; i < PER_BLOCK; i++) {
            off_t at = (off_t)b * PER_BLOCK * TRANSFER + (off_t)order[i] * TRANSFER;
            if (pread(fd, buf, TRANSFER, at) != TRANSFER)
                return fail("pread");
        }
    }
    return 0;
}

static int distinct_sizes(int fd, long n)
{
    for (long i = 0; i < n; i++)
        if (write(fd, buf, (size_t)(100 + i)) != 100 + i)
            return fail("write");
    for (int i = 0; i < 50; i++)
        if (write(fd, buf, 4096) != 4096)
            return fail("write");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4 && !(argc == 5 && strcmp(argv[3], "sizes") == 0)) {
        fprintf(stderr, "usage: %s FILE SEED BLOCKS | FILE SEED sizes N\n", argv[0]);
        return 2;
    }
    lcg = strtoull(argv[2], NULL, 10);
    int fd = open(argv[1], O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (fd < 0)
        return fail("open");
    int rc = argc == 5 ? distinct_sizes(fd, atol(argv[4])) : ior_like(fd, atol(argv[3]));
    if (close(fd) != 0)
        return fail("close");
    return rc;
}
