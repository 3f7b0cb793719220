/* The benchmark's one way out on an error it cannot recover from: a line
 * naming the failed call, then MPI_Abort with status 2 (every rank). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pio_perf.h"

_Noreturn void pio_fail(const char *call, const char *detail)
{
    fprintf(stderr, PIO_PROG ": %s: %s\n", call, detail);
    fflush(stderr);
    /* Hydra kills every rank and stops forwarding output as soon as one
     * rank aborts; without a pause the line above was lost in about 1 run
     * in 40.  A fifth of a second is nothing next to a failed benchmark. */
    struct timespec pause = { .tv_sec = 0, .tv_nsec = 200 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    MPI_Abort(MPI_COMM_WORLD, 2);
    abort();   /* MPI_Abort does not return */
}
