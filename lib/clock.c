/* The runtime clock.  iolens_now() (inline in clock.h) reads
 * CLOCK_MONOTONIC, which the vDSO serves without a system call; this file
 * only records the two start points. */
#include "clock.h"

struct timespec iolens_clock_start_mono;
static struct timespec start_real;

void iolens_clock_init(void)
{
    /* Taken back to back so that start_real + iolens_now() is the wall
     * clock time of an event to within a microsecond. */
    clock_gettime(CLOCK_MONOTONIC, &iolens_clock_start_mono);
    clock_gettime(CLOCK_REALTIME, &start_real);
}

struct timespec iolens_clock_start_real(void)
{
    return start_real;
}
