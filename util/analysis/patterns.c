/*
 * Access-pattern labels from the detector counters (<L>_PAT_*, kept by
 * lib/layers/access_pattern.c).  A record's steps (accesses that had a previous
 * access on the same descriptor or handle) are tested in this order, the
 * first rule that holds giving the label:
 *
 *   none            no reads or writes
 *   consecutive     no steps (a single access per open), or
 *                   PAT_CONSEC >= 90% of the steps
 *   strided         PAT_STRIDE_STEPS >= 90% of the steps
 *   nested-strided  PAT_GROUP_STEPS >= 90% of the steps, at least 2 groups
 *   sequential      PAT_SEQ >= 90% of the steps
 *   random          anything else
 *
 * A shared record (reduced over ranks) is labelled from its merged
 * counters: the counts add up, and a parameter on which the ranks
 * disagree is IOLENS_PAT_MIXED.
 */
#include "analysis/patterns.h"

#include <stddef.h>

#include "format/sat_math.h"
#include "format/record_merge.h"

const char *iolens_pattern_name(enum iolens_pattern_kind kind)
{
    switch (kind) {
    case IOLENS_PATTERN_NONE: return "none";
    case IOLENS_PATTERN_CONSECUTIVE: return "consecutive";
    case IOLENS_PATTERN_SEQUENTIAL: return "sequential";
    case IOLENS_PATTERN_STRIDED: return "strided";
    case IOLENS_PATTERN_NESTED_STRIDED: return "nested-strided";
    case IOLENS_PATTERN_RANDOM: return "random";
    case IOLENS_PATTERN_UNKNOWN: break;
    }
    return "unknown";
}

/* The descriptor of a layer with a pattern detector, else NULL. */
static const struct iolens_layer_desc *pattern_layer_of(uint32_t kind)
{
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(kind);
    return d != NULL && d->pattern_first >= 0 && d->access_first >= 0 ? d : NULL;
}

/* Reads and writes of every form, saturating. */
static int64_t accesses_of(const struct iolens_layer_desc *d, const int64_t *c)
{
    int64_t accesses = 0;
    for (int i = 0; i < 4; i++) {
        int ops[2] = {d->read_ops[i], d->write_ops[i]};
        for (int k = 0; k < 2; k++)
            if (ops[k] >= 0 && c[ops[k]] > 0)
                accesses = iolens_sat_add(accesses, c[ops[k]]);
    }
    return accesses;
}

/* share = part / whole, for whole > 0. */
static double share(int64_t part, int64_t whole)
{
    return part <= 0 ? 0.0 : part >= whole ? 1.0 : (double)part / (double)whole;
}

static int fits(double s)
{
    return s >= IOLENS_PATTERN_THRESHOLD;
}

void iolens_pattern_classify(const int64_t *pat, int64_t accesses, int64_t access_size,
                             struct iolens_pattern *out)
{
    *out = (struct iolens_pattern){.accesses = accesses, .access_size = access_size};
    int64_t steps = pat[IOLENS_PAT_STEPS];
    if (accesses <= 0) {
        out->kind = IOLENS_PATTERN_NONE;
        return;
    }
    double consec = steps > 0 ? share(pat[IOLENS_PAT_CONSEC], steps) : 1.0;
    double strided = share(pat[IOLENS_PAT_STRIDE_STEPS], steps);
    double nested = pat[IOLENS_PAT_GROUPS] >= 2 ? share(pat[IOLENS_PAT_GROUP_STEPS], steps) : 0.0;
    double seq = share(pat[IOLENS_PAT_SEQ], steps);
    if (fits(consec)) {
        out->kind = IOLENS_PATTERN_CONSECUTIVE;
        out->regular_share = consec;
    } else if (fits(strided)) {
        out->kind = IOLENS_PATTERN_STRIDED;
        out->stride = pat[IOLENS_PAT_STRIDE];
        out->regular_share = strided;
    } else if (fits(nested)) {
        out->kind = IOLENS_PATTERN_NESTED_STRIDED;
        out->stride = pat[IOLENS_PAT_INNER_STRIDE];
        out->inner_count = pat[IOLENS_PAT_INNER_COUNT];
        out->outer_stride = pat[IOLENS_PAT_OUTER_STRIDE];
        out->outer_count = pat[IOLENS_PAT_GROUPS];
        out->regular_share = nested;
    } else if (fits(seq)) {
        out->kind = IOLENS_PATTERN_SEQUENTIAL;
        out->regular_share = seq;
    } else {
        double best = consec;
        best = strided > best ? strided : best;
        best = nested > best ? nested : best;
        best = seq > best ? seq : best;
        out->kind = IOLENS_PATTERN_RANDOM;
        out->regular_share = 1.0 - best;
    }
}

void iolens_pattern_of_record(const struct iolens_log_layer *L, uint64_t rec,
                              struct iolens_pattern *out)
{
    const struct iolens_layer_desc *d = pattern_layer_of(L->kind);
    *out = (struct iolens_pattern){.kind = IOLENS_PATTERN_UNKNOWN};
    if (d == NULL || rec >= L->record_count || L->counter_count <= (uint32_t)d->access_first)
        return;
    const int64_t *c = &L->counters[rec * L->counter_count];
    int64_t accesses = accesses_of(d, c);
    out->accesses = accesses;
    out->access_size = c[d->access_first];
    /* Logs written before the detector have fewer counters: unknown. */
    if (L->counter_count >= (uint32_t)d->pattern_first + IOLENS_PAT_NCOUNTERS)
        iolens_pattern_classify(&c[d->pattern_first], accesses, c[d->access_first], out);
}

/* One parameter: its value, or "mixed" when merged ranks disagree. */
static void put_param(FILE *out, const char *key, int64_t v)
{
    if (v == IOLENS_PAT_MIXED)
        fprintf(out, " %s=mixed", key);
    else
        fprintf(out, " %s=%lld", key, (long long)v);
}

void iolens_pattern_print_params(FILE *out, const struct iolens_pattern *p)
{
    if (p->kind == IOLENS_PATTERN_NONE || p->kind == IOLENS_PATTERN_UNKNOWN) {
        fputc('-', out);
        return;
    }
    fprintf(out, "size=%lld", (long long)p->access_size);
    if (p->kind == IOLENS_PATTERN_STRIDED) {
        put_param(out, "stride", p->stride);
    } else if (p->kind == IOLENS_PATTERN_NESTED_STRIDED) {
        put_param(out, "inner_stride", p->stride);
        put_param(out, "inner_count", p->inner_count);
        put_param(out, "outer_stride", p->outer_stride);
        put_param(out, "outer_count", p->outer_count);
    }
}
