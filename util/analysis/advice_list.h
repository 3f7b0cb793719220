/* Internal to the advice code: the list the rules add their findings to,
 * and the helpers they share (advice_list.c). */
#ifndef IOLENS_ADVICE_LIST_H
#define IOLENS_ADVICE_LIST_H

#include <stdarg.h>

#include "analysis/advice.h"

/* A growing list of findings. */
struct advice_list {
    struct iolens_finding *f;
    size_t n, cap;
    int nomem;
};

/* Adds a finding; priority is base plus up to 9 points for how far metric
 * exceeds threshold.  Evidence and fix are printf formats. */
struct iolens_finding *advice_add(struct advice_list *l, const char *code, int base,
                                  double metric, double threshold);
void advice_evidence(struct iolens_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void advice_fix(struct iolens_finding *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Sets f's call site: of the logged sites of record r of L (the other
 * sites together are no site), the one with the most operations (by_ops)
 * or bytes; ties go to the one the log lists first (more bytes).  Leaves
 * f without a site when the record kept none. */
void advice_site(struct iolens_finding *f, const struct iolens_log *log,
                 const struct iolens_log_layer *L, uint64_t r, int by_ops);

/* The standard streams are not files: no rule looks at them. */
int advice_is_stream(uint64_t id);
/* The record's file name, "?" when the log has none. */
const char *advice_name(const struct iolens_log *log, uint64_t id);
int64_t advice_nprocs(const struct iolens_log *log);

#endif
