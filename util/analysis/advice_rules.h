/* Internal to the advice code: the rules of advice_access.c,
 * advice_job.c and advice_hdf5.c, which advice.c runs.  Their shared helpers are in
 * advice_list.h. */
#ifndef IOLENS_ADVICE_RULES_H
#define IOLENS_ADVICE_RULES_H

#include "analysis/advice_list.h"

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
void advice_hdf5_amplification(const struct iolens_log *log,
                               const struct iolens_advice_thresholds *t, struct advice_list *l);

#endif
