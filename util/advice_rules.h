/* Internal to the advice code (advice.c, advice_access.c, advice_job.c):
 * the per-rule functions and the helpers they share. */
#ifndef IOLENS_ADVICE_RULES_H
#define IOLENS_ADVICE_RULES_H

#include <stdarg.h>

#include "advice.h"

/* A growing list of findings. */
struct advice_list {
    struct iolens_finding *f;
    size_t n, cap;
    int nomem;
};

/* Adds a finding; priority is base plus up to 9 points for how far metric
 * exceeds threshold (advice.c).  Evidence and fix are printf formats. */
struct iolens_finding *advice_add(struct advice_list *l, const char *code, int base,
                                  double metric, double threshold);
void advice_evidence(struct iolens_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void advice_fix(struct iolens_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The standard streams are not files: no rule looks at them. */
int advice_is_stream(uint64_t id);
/* The record's file name, "?" when the log has none. */
const char *advice_name(const struct iolens_log *log, uint64_t id);
int64_t advice_nprocs(const struct iolens_log *log);

/* The rules, each adding at most one finding. */
void advice_small_accesses(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                           struct advice_list *l);
void advice_misaligned(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                       struct advice_list *l);
void advice_random(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                   struct advice_list *l);
void advice_redundant_reads(const struct iolens_log *log,
                            const struct iolens_advice_thresholds *t, struct advice_list *l);
void advice_rank0(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                  struct advice_list *l);
void advice_imbalance(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                      struct advice_list *l);
void advice_metadata(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                     struct advice_list *l);
void advice_stdio(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                  struct advice_list *l);
void advice_mpiio_indep(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                        struct advice_list *l);
void advice_hdf5_indep(const struct iolens_log *log, const struct iolens_advice_thresholds *t,
                       struct advice_list *l);

#endif
