/* Opens N files (DIR/s000000...) with fopen, all held at once, writes 100
 * bytes to each with fwrite, reads them back with fread after a rewind,
 * and closes them: more streams than a small budget's stream table holds
 * (test_budget_fold.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s DIR N\n", argv[0]);
        return 2;
    }
    long n = atol(argv[2]);
    FILE **fs = calloc((size_t)n, sizeof *fs);
    char path[4096], block[100], back[100];
    memset(block, 's', sizeof block);
    if (fs == NULL)
        return 1;
    for (long i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/s%06ld", argv[1], i);
        if ((fs[i] = fopen(path, "w+")) == NULL) {
            perror(path);
            return 1;
        }
    }
    for (long i = 0; i < n; i++)
        if (fwrite(block, 1, sizeof block, fs[i]) != sizeof block) {
            perror("fwrite");
            return 1;
        }
    for (long i = 0; i < n; i++) {
        rewind(fs[i]);
        if (fread(back, 1, sizeof back, fs[i]) != sizeof back || memcmp(back, block, sizeof back)) {
            fprintf(stderr, "fread: short or wrong\n");
            return 1;
        }
    }
    for (long i = 0; i < n; i++)
        if (fclose(fs[i]) != 0) {
            perror("fclose");
            return 1;
        }
    free(fs);
    return 0;
}
