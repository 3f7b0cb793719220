/* Creates, writes 10 bytes to, and closes N files (default 100000) in
 * directory DIR: run under a tiny IOLENS_MEMORY, most of them are folded
 * into <other files> (test_budget_fold.sh). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s DIR [N]\n", argv[0]);
        return 2;
    }
    long n = argc == 3 ? atol(argv[2]) : 100000;
    char path[4096];
    for (long i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/f%06ld", argv[1], i);
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0) {
            perror(path);
            return 1;
        }
        if (write(fd, "0123456789", 10) != 10 || close(fd) != 0) {
            perror(path);
            return 1;
        }
    }
    return 0;
}
