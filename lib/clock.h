/* The runtime clock: monotonic, cheap (vDSO), in seconds relative to the
 * start of the process, plus the absolute start time for the log. */
#ifndef IOLENS_CLOCK_H
#define IOLENS_CLOCK_H

#include <time.h>

extern struct timespec iolens_clock_start_mono;

void iolens_clock_init(void);
/* Absolute (CLOCK_REALTIME) start time. */
struct timespec iolens_clock_start_real(void);

static inline double iolens_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)(ts.tv_sec - iolens_clock_start_mono.tv_sec) +
           (double)(ts.tv_nsec - iolens_clock_start_mono.tv_nsec) * 1e-9;
}

#endif
