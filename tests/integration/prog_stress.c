/* The budget under stress (test_budget_stress.sh, bench/run-stress.sh):
 *   prog_stress DIR NFILES NOPS
 * creates NFILES files in DIR, writing 1 byte to each, then makes NOPS
 * 1-byte writes to DIR/big, alternating with lseeks back so that the file
 * stays small (each write is its own access: NOPS access intervals). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s DIR NFILES NOPS\n", argv[0]);
        return 2;
    }
    long nfiles = atol(argv[2]), nops = atol(argv[3]);
    char path[4096];
    for (long i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/f%07ld", argv[1], i);
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0 || write(fd, "x", 1) != 1 || close(fd) != 0) {
            perror(path);
            return 1;
        }
    }
    snprintf(path, sizeof path, "%s/big", argv[1]);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    for (long i = 0; i < nops; i++)
        if (pwrite(fd, "y", 1, i % 4096) != 1) {
            perror("pwrite");
            return 1;
        }
    return close(fd) == 0 ? 0 : 1;
}
