/* Online access-pattern detector: O(1) time per access and a fixed, small
 * state kept in each layer record (POSIX, MPIIO).  It is fed the steps of
 * a record's accesses (start offset minus the previous access's start on
 * the same descriptor or file handle) and packs into the <L>_PAT_*
 * counters of log_format.h, from which iolens-parser --patterns labels
 * the record (util/analysis/patterns.c).
 *
 * The steps are parsed into runs of equal steps.  A run ended by a
 * different step (the "jump") closes a group with signature (stride s,
 * run length n, jump j); the step after a jump starts the next group.
 * So s s s j s s s j ... is groups (s, 3, j): an inner stride s, n + 1
 * accesses per group, groups n*s + j apart (nested strides).  A constant
 * stride is one long run and never closes a group.  Runs are credited to
 * two heavy-hitter slots keyed by stride (the dominant stride), groups to
 * two slots keyed by signature (the dominant nesting); on a miss the
 * weaker slot is replaced, so a stray first group (an access before the
 * pattern starts, a partial first group) is outvoted and the parse is in
 * step again from the next jump on. */
#ifndef IOLENS_ACCESS_PATTERN_H
#define IOLENS_ACCESS_PATTERN_H

#include <stdint.h>

#include "iolens/log_format.h"

/* iolens_pat_pack packs the counters in the order of enum
 * iolens_pat_counter (log_format.h). */

struct iolens_pat_run_slot {
    int64_t stride, steps;
};

struct iolens_pat_group_slot {
    int64_t stride, run, jump, count;
};

/* All zero is the empty state. */
struct iolens_access_pattern {
    int64_t run_stride;     /* step of the current run */
    int64_t run_len;        /* steps in it; 0 right after a jump */
    int64_t done_steps;     /* steps of the closed runs and of the jumps */
    int64_t consec, seq;    /* PAT_CONSEC, PAT_SEQ: counted by the caller */
    struct iolens_pat_run_slot runs[2];
    struct iolens_pat_group_slot groups[2];
};

/* A step other than the current run's (out of line). */
void iolens_pat_step_change(struct iolens_access_pattern *p, int64_t step);

/* One step.  The usual case, the same step as the last one, is one
 * compare and one increment (also right after a jump, when run_len is 0:
 * a step equal to the last run's starts the next run with it). */
static inline void iolens_pat_step(struct iolens_access_pattern *p, int64_t step)
{
    if (__builtin_expect(step == p->run_stride, 1))
        p->run_len++;
    else
        iolens_pat_step_change(p, step);
}

/* Fills the IOLENS_PAT_NCOUNTERS counters at out (out[IOLENS_PAT_CONSEC]
 * and out[IOLENS_PAT_SEQ] from p->consec and p->seq).  p is not changed:
 * the current run and a trailing partial group are counted as if the
 * accesses stopped here. */
void iolens_pat_pack(const struct iolens_access_pattern *p, int64_t *out);

#endif
