/* The benchmark's one way out on an error it cannot recover from: a line
 * naming the failed call, then MPI_Abort with status 2 (every rank). */
#include <stdio.h>
#include <stdlib.h>

#include "pio_perf.h"

_Noreturn void pio_fail(const char *call, const char *detail)
{
    fprintf(stderr, PIO_PROG ": %s: %s\n", call, detail);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
    abort();   /* MPI_Abort does not return */
}
