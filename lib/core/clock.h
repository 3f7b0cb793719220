/* The runtime clock.
 *
 * Reading it must cost little: every traced call reads it twice.  So the
 * hot path reads a raw hardware counter when one is usable (x86_64: the
 * TSC when CPUID says it is invariant; aarch64: the virtual counter
 * CNTVCT_EL0) and falls back to clock_gettime(CLOCK_MONOTONIC) otherwise.
 *
 * UNITS.  iolens_now() returns clock units since iolens_clock_init(), as
 * a double, not seconds: no multiplication on the hot path, and no
 * calibration at start-up.  Every time the layers store while tracing
 * (first/last timestamps, cumulative times, slowest-call times) is
 * therefore in units until the record is packed for the log; the packing
 * walk (iolens_layer_foreach_record, layers/layer_ops.h) multiplies by
 * iolens_clock_seconds_per_unit().
 *
 * CALIBRATION is a two-point measurement: (raw, CLOCK_MONOTONIC) taken at
 * iolens_clock_init() and again at the first iolens_clock_seconds_per_unit()
 * call (or at iolens_clock_calibrate()), which is meant to run once tracing
 * has stopped.  The second point maps exactly to the monotonic clock, so a
 * converted time is off by at most the few tens of nanoseconds it takes to
 * read the two clocks back to back, whatever the run's length.  With the
 * clock_gettime fallback a unit is one nanosecond and no calibration is
 * needed. */
#ifndef IOLENS_CLOCK_H
#define IOLENS_CLOCK_H

#include <stdint.h>
#include <time.h>

enum iolens_clock_source {
    IOLENS_CLOCK_MONOTONIC,   /* clock_gettime(CLOCK_MONOTONIC), units of 1 ns */
    IOLENS_CLOCK_COUNTER,     /* invariant TSC (x86_64) or CNTVCT_EL0 (aarch64) */
};

/* Monotonic start time (kept for compatibility; see iolens_clock_init). */
extern struct timespec iolens_clock_start_mono;

/* Read on the hot path; set by iolens_clock_init*. */
extern enum iolens_clock_source iolens_clock_source_in_use;
extern uint64_t iolens_clock_origin;   /* raw reading at init */

/* Picks the best source and takes the start points (monotonic, realtime
 * and raw).  Called at start-up and again in a forked child. */
void iolens_clock_init(void);
/* The same with a given source (a counter the machine lacks falls back to
 * the monotonic clock).  For tests. */
void iolens_clock_init_source(enum iolens_clock_source src);

/* Absolute (CLOCK_REALTIME) start time. */
struct timespec iolens_clock_start_real(void);

/* Whether this machine has a usable counter (invariant TSC, CNTVCT_EL0). */
int iolens_clock_counter_usable(void);

static inline uint64_t iolens_clock_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The raw reading of the clock in use. */
static inline uint64_t iolens_clock_raw(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_expect(iolens_clock_source_in_use == IOLENS_CLOCK_COUNTER, 1))
        return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    if (__builtin_expect(iolens_clock_source_in_use == IOLENS_CLOCK_COUNTER, 1)) {
        uint64_t v;
        __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
        return v;
    }
#endif
    return iolens_clock_monotonic_ns();
}

/* Clock units since iolens_clock_init() (NOT seconds; see above). */
static inline double iolens_now(void)
{
    return (double)(int64_t)(iolens_clock_raw() - iolens_clock_origin);
}

/* Seconds per clock unit.  The first call after iolens_clock_init()
 * calibrates (takes the second point); later calls return that value. */
double iolens_clock_seconds_per_unit(void);
/* Takes the second calibration point now (again, if it was taken). */
void iolens_clock_calibrate(void);
/* units * iolens_clock_seconds_per_unit(). */
double iolens_clock_to_seconds(double units);
/* Seconds since iolens_clock_init(), on the same scale as every converted
 * timestamp (the job's run time). */
double iolens_clock_elapsed_seconds(void);

/* The two-point rate, exposed for unit tests: seconds per unit from the
 * raw and monotonic (ns) readings at start and at calibration.  When no
 * unit or no time passed between them the rate cannot be measured; then a
 * unit counts as one nanosecond (any time stored is then 0 or a few units,
 * so the error is as small as the interval itself). */
double iolens_clock_rate(uint64_t raw0, uint64_t mono0_ns, uint64_t raw1, uint64_t mono1_ns);

#endif
