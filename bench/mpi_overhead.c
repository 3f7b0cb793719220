/*
 * MPI-IO call overhead: the cost of one 1 KiB MPI_File_write_at at one
 * rank, on a file in DIR (run-mpi-overhead.sh: /dev/shm).
 *
 *   mpi_overhead CALLS DIR
 *
 * One untimed warm-up batch, then BATCHES timed batches; prints the median
 * nanoseconds per call.  run-mpi-overhead.sh runs it traced and untraced.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCHES 9

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void write_batch(MPI_File fh, const char *buf, long calls)
{
    for (long i = 0; i < calls; i++) {
        /* Offsets cycle over 1 MiB: the file stays small and cached. */
        MPI_Offset at = (MPI_Offset)(i % 1024) * 1024;
        if (MPI_File_write_at(fh, at, buf, 1024, MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            fprintf(stderr, "mpi_overhead: MPI_File_write_at failed\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 3) {
        fprintf(stderr, "usage: mpi_overhead CALLS DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    long per_batch = atol(argv[1]) / (BATCHES + 1);
    char path[4096], buf[1024];
    memset(buf, 'x', sizeof buf);
    snprintf(path, sizeof path, "%s/mpi-overhead", argv[2]);
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS) {
        fprintf(stderr, "mpi_overhead: cannot open %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    write_batch(fh, buf, per_batch);
    double ns[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = MPI_Wtime();
        write_batch(fh, buf, per_batch);
        ns[b] = (MPI_Wtime() - t0) * 1e9 / (double)per_batch;
    }
    MPI_File_close(&fh);
    qsort(ns, BATCHES, sizeof ns[0], compare_double);
    printf("%.1f\n", ns[BATCHES / 2]);
    MPI_Finalize();
    return 0;
}
