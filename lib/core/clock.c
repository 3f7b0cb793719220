/* The runtime clock: source selection, start points and the two-point
 * calibration that converts units to seconds (see clock.h). */
#include "core/clock.h"

#include <stdatomic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <sys/prctl.h>

#include "core/real_calls.h"
#endif

struct timespec iolens_clock_start_mono;
enum iolens_clock_source iolens_clock_source_in_use = IOLENS_CLOCK_MONOTONIC;
uint64_t iolens_clock_origin;

static struct timespec start_real;
static uint64_t start_mono_ns;          /* paired with iolens_clock_origin */
static _Atomic double seconds_per_unit; /* 0: not calibrated yet */

/* ------------------------------------------------------ the source -- */

#if defined(__x86_64__) || defined(__i386__)
/* An invariant TSC ticks at a constant rate in every power state
 * (CPUID 0x80000007, EDX bit 8).  A process may also have been told to
 * fault on rdtsc (prctl PR_SET_TSC); then it is not used. */
static int counter_usable(void)
{
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
        return 0;
    if (!__get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx) || !(edx & (1u << 8)))
        return 0;
    int mode = 0;
    int (*real_prctl)(int, ...) = IOLENS_REAL(prctl);
    if (real_prctl != NULL && real_prctl(PR_GET_TSC, &mode, 0, 0, 0) == 0 && mode == PR_TSC_SIGSEGV)
        return 0;
    return 1;
}
#elif defined(__aarch64__)
/* The generic timer's virtual counter runs at a fixed frequency and Linux
 * lets user space read it (the vDSO does). */
static int counter_usable(void)
{
    return 1;
}
#else
static int counter_usable(void)
{
    return 0;
}
#endif

int iolens_clock_counter_usable(void)
{
    return counter_usable();
}

/* ------------------------------------------------------ the points -- */

/* A (raw, monotonic) pair read as close together as this machine allows:
 * the raw reading bracketed by two monotonic ones, best of three tries,
 * paired with the middle of the bracket. */
static void read_pair(uint64_t *raw, uint64_t *mono_ns)
{
    uint64_t best_width = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t before = iolens_clock_monotonic_ns();
        uint64_t r = iolens_clock_raw();
        uint64_t after = iolens_clock_monotonic_ns();
        if (after - before < best_width) {
            best_width = after - before;
            *raw = r;
            *mono_ns = before + (after - before) / 2;
        }
    }
}

void iolens_clock_init_source(enum iolens_clock_source src)
{
    if (src == IOLENS_CLOCK_COUNTER && !counter_usable())
        src = IOLENS_CLOCK_MONOTONIC;
    iolens_clock_source_in_use = src;
    atomic_store_explicit(&seconds_per_unit, 0.0, memory_order_relaxed);
    if (src == IOLENS_CLOCK_MONOTONIC) {
        start_mono_ns = iolens_clock_monotonic_ns();
        iolens_clock_origin = start_mono_ns;
    } else {
        read_pair(&iolens_clock_origin, &start_mono_ns);
    }
    iolens_clock_start_mono.tv_sec = (time_t)(start_mono_ns / 1000000000u);
    iolens_clock_start_mono.tv_nsec = (long)(start_mono_ns % 1000000000u);
    /* Right after the monotonic start, so that start_real plus a converted
     * timestamp is the wall clock time of an event to within a microsecond. */
    clock_gettime(CLOCK_REALTIME, &start_real);
}

void iolens_clock_init(void)
{
    iolens_clock_init_source(IOLENS_CLOCK_COUNTER);
}

struct timespec iolens_clock_start_real(void)
{
    return start_real;
}

/* ------------------------------------------------- the calibration -- */

double iolens_clock_rate(uint64_t raw0, uint64_t mono0_ns, uint64_t raw1, uint64_t mono1_ns)
{
    if (raw1 <= raw0 || mono1_ns <= mono0_ns)
        return 1e-9;
    return (double)(mono1_ns - mono0_ns) * 1e-9 / (double)(raw1 - raw0);
}

void iolens_clock_calibrate(void)
{
    double rate = 1e-9; /* the monotonic fallback counts nanoseconds */
    if (iolens_clock_source_in_use == IOLENS_CLOCK_COUNTER) {
        uint64_t raw, mono_ns;
        read_pair(&raw, &mono_ns);
        rate = iolens_clock_rate(iolens_clock_origin, start_mono_ns, raw, mono_ns);
    }
    atomic_store_explicit(&seconds_per_unit, rate, memory_order_relaxed);
}

double iolens_clock_seconds_per_unit(void)
{
    double rate = atomic_load_explicit(&seconds_per_unit, memory_order_relaxed);
    if (rate == 0.0) {
        iolens_clock_calibrate();
        rate = atomic_load_explicit(&seconds_per_unit, memory_order_relaxed);
    }
    return rate;
}

double iolens_clock_to_seconds(double units)
{
    return units * iolens_clock_seconds_per_unit();
}

double iolens_clock_elapsed_seconds(void)
{
    return iolens_clock_to_seconds(iolens_now());
}
