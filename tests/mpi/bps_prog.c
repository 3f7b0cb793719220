/* MPI job for test_bps.sh.  Usage:
 *
 *   bps_prog MODE DIR [WRITES]
 *
 * Every rank writes WRITES (default 100) blocks of 1 MiB with pwrite() to
 * the shared file DIR/bps.dat, at its own offsets (rank r cycles over the
 * four MiB from 4r MiB, so the file stays at 16 MiB and in the page cache):
 *   simultaneous  one phase, every rank at once (after a barrier)
 *   staggered     one phase, rank r writing only after rank r - 1 sent it a
 *                 message saying it is done
 *   sleep         two simultaneous phases with a barrier, 0.3 s of sleep and
 *                 a barrier between them
 *
 * Each write is bracketed by clock_gettime(CLOCK_MONOTONIC) readings
 * (every rank runs on this one machine, so the readings are comparable
 * across ranks); rank 0 gathers the brackets and prints, per phase,
 *   phase P union U busy B maxbusy M maxspan S skew K
 * U the length of the union of every rank's brackets, B their summed
 * lengths, M the largest rank's summed lengths, S the largest rank's span
 * (end of its last bracket minus start of its first), K the spread of the
 * ranks' first starts; then
 *   wall W      from the first bracket of the job to the last
 *   res R       the smallest step seen between two back-to-back clock
 *               readings (largest over the ranks)
 * all in seconds, and before each phase line every bracket as
 *   b RANK P START END
 * (absolute CLOCK_MONOTONIC seconds).  Exits 0, or 2 on a usage or I/O
 * error. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (1 << 20)

static char buf[BLOCK];
static int rank, nprocs, writes = 100;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The smallest positive difference of two back-to-back readings. */
static double clock_step(void)
{
    double best = 1.0;
    for (int i = 0; i < 10000; i++) {
        double a = now(), b = now();
        while (b == a)
            b = now();
        if (b - a < best)
            best = b - a;
    }
    return best;
}

/* One phase of writes; br gets 2 * writes bracket times. */
static void write_phase(int fd, double *br)
{
    for (int i = 0; i < writes; i++) {
        off_t at = (off_t)(4 * rank + i % 4) * BLOCK;
        br[2 * i] = now();
        ssize_t n = pwrite(fd, buf, BLOCK, at);
        br[2 * i + 1] = now();
        if (n != BLOCK) {
            fprintf(stderr, "bps_prog: pwrite failed\n");
            exit(2);
        }
    }
}

static int by_start(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Length of the union of n [start, end] pairs (sorted in place). */
static double union_length(double *pairs, int n)
{
    qsort(pairs, (size_t)n, 2 * sizeof *pairs, by_start);
    double total = 0, s = pairs[0], e = pairs[1];
    for (int i = 1; i < n; i++) {
        if (pairs[2 * i] > e) {
            total += e - s;
            s = pairs[2 * i];
        }
        if (pairs[2 * i + 1] > e)
            e = pairs[2 * i + 1];
    }
    return total + (e - s);
}

/* Rank 0: the figures of one phase from every rank's brackets. */
static void report_phase(const char *name, double *all, double *first, double *last)
{
    double busy = 0, maxbusy = 0, maxspan = 0, minstart = all[0], maxstart = all[0];
    for (int r = 0; r < nprocs; r++) {
        const double *b = all + (size_t)r * 2 * writes;
        double mine = 0;
        for (int i = 0; i < writes; i++)
            mine += b[2 * i + 1] - b[2 * i];
        busy += mine;
        maxbusy = mine > maxbusy ? mine : maxbusy;
        double span = b[2 * writes - 1] - b[0];
        maxspan = span > maxspan ? span : maxspan;
        minstart = b[0] < minstart ? b[0] : minstart;
        maxstart = b[0] > maxstart ? b[0] : maxstart;
        *first = b[0] < *first ? b[0] : *first;
        *last = b[2 * writes - 1] > *last ? b[2 * writes - 1] : *last;
    }
    for (int r = 0; r < nprocs; r++)
        for (int i = 0; i < writes; i++) {
            const double *b = all + ((size_t)r * writes + (size_t)i) * 2;
            printf("b %d %s %.9f %.9f\n", r, name, b[0], b[1]);
        }
    double u = union_length(all, nprocs * writes);
    printf("phase %s union %.9f busy %.9f maxbusy %.9f maxspan %.9f skew %.9f\n", name, u, busy,
           maxbusy, maxspan, maxstart - minstart);
}

static void gather_and_report(const char *name, double *mine, double *all, double *first,
                              double *last)
{
    MPI_Gather(mine, 2 * writes, MPI_DOUBLE, all, 2 * writes, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        report_phase(name, all, first, last);
}

static void staggered(int fd, double *mine)
{
    int token = 0;
    if (rank > 0)
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    write_phase(fd, mine);
    if (rank + 1 < nprocs)
        MPI_Send(&token, 1, MPI_INT, rank + 1, 7, MPI_COMM_WORLD);
}

static int run(const char *mode, int fd)
{
    double *mine = malloc(2 * (size_t)writes * sizeof *mine);
    double *all = malloc(2 * (size_t)writes * (size_t)nprocs * sizeof *all);
    double first = 1e300, last = -1e300;
    if (mine == NULL || all == NULL)
        return 2;
    if (strcmp(mode, "staggered") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        staggered(fd, mine);
        gather_and_report("all", mine, all, &first, &last);
    } else {
        int phases = strcmp(mode, "sleep") == 0 ? 2 : 1;
        for (int p = 0; p < phases; p++) {
            if (p > 0) {
                MPI_Barrier(MPI_COMM_WORLD);
                usleep(300000);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            write_phase(fd, mine);
            gather_and_report(p == 0 ? (phases == 1 ? "all" : "A") : "B", mine, all, &first,
                              &last);
        }
    }
    if (rank == 0)
        printf("wall %.9f\n", last - first);
    free(mine);
    free(all);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 3 || argc > 4 || (argc == 4 && (writes = atoi(argv[3])) < 1) ||
        (strcmp(argv[1], "simultaneous") != 0 && strcmp(argv[1], "staggered") != 0 &&
         strcmp(argv[1], "sleep") != 0)) {
        fprintf(stderr, "usage: bps_prog simultaneous|staggered|sleep DIR [WRITES]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(buf, 'b', sizeof buf);
    char path[4096];
    snprintf(path, sizeof path, "%s/bps.dat", argv[2]);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd < 0) {
        fprintf(stderr, "bps_prog: cannot open %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double step = clock_step(), res = 0;
    MPI_Reduce(&step, &res, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int rc = run(argv[1], fd);
    if (rank == 0)
        printf("res %.9f\n", res);
    fflush(stdout);
    close(fd);
    MPI_Finalize();
    return rc;
}
