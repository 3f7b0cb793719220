/* Opens N files (DIR/d000000...) with fopen, all held at once, then does
 * POSIX I/O on each stream's descriptor, as unzip does: write(fileno)
 * 5 bytes, pread 5 bytes at 0, and write 2 bytes through a dup of it;
 * then closes the dups and the streams.  Each file: 2 writes, 7 bytes
 * written, 1 read, 5 bytes read (test_budget_fold.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s DIR N\n", argv[0]);
        return 2;
    }
    long n = atol(argv[2]);
    FILE **fs = calloc((size_t)n, sizeof *fs);
    char path[4096], back[5];
    if (fs == NULL)
        return 1;
    for (long i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/d%06ld", argv[1], i);
        if ((fs[i] = fopen(path, "w+")) == NULL) {
            perror(path);
            return 1;
        }
    }
    for (long i = 0; i < n; i++) {
        int fd = fileno(fs[i]);
        int twin = dup(fd);
        if (write(fd, "hello", 5) != 5 || pread(fd, back, 5, 0) != 5 || twin < 0 ||
            write(twin, "!!", 2) != 2) {
            perror("stream descriptor");
            return 1;
        }
        close(twin);
    }
    for (long i = 0; i < n; i++)
        if (fclose(fs[i]) != 0) {
            perror("fclose");
            return 1;
        }
    free(fs);
    return 0;
}
