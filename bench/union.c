/* The union of 10^7 random access intervals (format/interval_union.c), as
 * iolens-parser --bps computes it; the target is under 2 s (5x10^6
 * intervals per second).  A figure, not a test: nothing here passes or
 * fails.
 *
 *   union [N]      (default 10000000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "format/interval_union.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Spans of up to 1 ms spread over 1000 s (like 10^7 accesses of a job),
 * in random order; xorshift64 so every run sees the same data. */
static void fill(struct iolens_span *v, size_t n)
{
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double start = (double)(x >> 11) / 9007199254740992.0 * 1000.0;
        v[i] = (struct iolens_span){start, start + (double)(x & 0xfffff) / 1048576.0 * 1e-3};
    }
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000000;
    struct iolens_span *v = malloc((n > 0 ? n : 1) * sizeof *v);
    if (v == NULL) {
        fprintf(stderr, "union: out of memory\n");
        return 1;
    }
    fill(v, n);
    double t0 = now();
    double u = iolens_union_length(v, n);
    double t1 = now();
    printf("union of %zu intervals: %.6f s busy, computed in %.3f s (target < 2 s)\n", n, u,
           t1 - t0);
    free(v);
    return 0;
}
