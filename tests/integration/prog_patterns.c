/* Writes one file per access pattern into DIR, for test_patterns.sh:
 *   consecutive.dat  64 write()s of 4096 bytes, one after the other
 *   sequential.dat   64 pwrite()s of 4096 bytes, increasing offsets with
 *                    irregular gaps (512 to 5632 bytes)
 *   strided.dat      64 pwrite()s of 4096 bytes, 16384 apart
 *   reverse.dat      32 pwrite()s of 4096 bytes, 8192 apart, backwards
 *   nested.dat       16 groups of 4 pwrite()s of 1024 bytes, 4096 apart
 *                    inside a group, groups 65536 apart
 *   random.dat       64 pwrite()s of 4096 bytes at pseudo-random 4 KiB
 *                    blocks of a 16 MiB span (a fixed LCG, so the run is
 *                    reproducible)
 * Usage: prog_patterns DIR */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[4096];

static int open_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0) {
        perror(path);
        exit(1);
    }
    return fd;
}

static void put_at(int fd, size_t size, off_t offset)
{
    if (pwrite(fd, buf, size, offset) != (ssize_t)size) {
        perror("pwrite");
        exit(1);
    }
}

static void consecutive(const char *dir)
{
    int fd = open_in(dir, "consecutive.dat");
    for (int i = 0; i < 64; i++)
        if (write(fd, buf, 4096) != 4096) {
            perror("write");
            exit(1);
        }
    close(fd);
}

static void sequential(const char *dir)
{
    int fd = open_in(dir, "sequential.dat");
    off_t at = 0;
    for (int i = 0; i < 64; i++) {
        put_at(fd, 4096, at);
        at += 4096 + 512 * (1 + (i * 7) % 11); /* gaps 512 .. 5632, irregular */
    }
    close(fd);
}

static void strided(const char *dir)
{
    int fd = open_in(dir, "strided.dat");
    for (int i = 0; i < 64; i++)
        put_at(fd, 4096, (off_t)i * 16384);
    close(fd);
}

static void reverse(const char *dir)
{
    int fd = open_in(dir, "reverse.dat");
    for (int i = 31; i >= 0; i--)
        put_at(fd, 4096, (off_t)i * 8192);
    close(fd);
}

static void nested(const char *dir)
{
    int fd = open_in(dir, "nested.dat");
    for (int g = 0; g < 16; g++)
        for (int k = 0; k < 4; k++)
            put_at(fd, 1024, (off_t)g * 65536 + (off_t)k * 4096);
    close(fd);
}

static void random_blocks(const char *dir)
{
    int fd = open_in(dir, "random.dat");
    uint32_t x = 12345;
    for (int i = 0; i < 64; i++) {
        x = x * 1103515245u + 12345u;
        put_at(fd, 4096, (off_t)((x >> 16) % 4096) * 4096);
    }
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    memset(buf, 'p', sizeof buf);
    consecutive(argv[1]);
    sequential(argv[1]);
    strided(argv[1]);
    reverse(argv[1]);
    nested(argv[1]);
    random_blocks(argv[1]);
    return 0;
}
