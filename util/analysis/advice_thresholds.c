/* The thresholds of the advice rules: defaults and the key=value parser
 * of --advice-thresholds (advice.h; documented in iolens-parser(1)). */
#include "analysis/advice.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iolens_advice_defaults(struct iolens_advice_thresholds *t)
{
    *t = (struct iolens_advice_thresholds){
        .small_access_bytes = 102400,
        .small_access_share = 0.5,
        .min_accesses = 100,
        .misaligned_share = 0.5,
        .random_share = 0.5,
        .rank0_share = 0.9,
        .imbalance_ratio = 3.0,
        .imbalance_min_time = 0.05,
        .meta_share = 0.5,
        .meta_min_time = 0.05,
        .many_files = 1000,
        .stdio_share = 0.5,
        .min_bytes = 1048576,
        .indep_share = 0.9,
        .redundant_factor = 2.0,
        .hdf5_amplification = 2.0,
    };
}

enum key_type { KEY_INT, KEY_SHARE, KEY_POSITIVE };

struct key {
    const char *name;
    enum key_type type;
    size_t offset;
};

#define INT_KEY(n, f) {n, KEY_INT, offsetof(struct iolens_advice_thresholds, f)}
#define SHARE_KEY(n, f) {n, KEY_SHARE, offsetof(struct iolens_advice_thresholds, f)}
#define POS_KEY(n, f) {n, KEY_POSITIVE, offsetof(struct iolens_advice_thresholds, f)}

static const struct key keys[] = {
    INT_KEY("small_size", small_access_bytes),
    SHARE_KEY("small_share", small_access_share),
    INT_KEY("min_ops", min_accesses),
    SHARE_KEY("misaligned_share", misaligned_share),
    SHARE_KEY("random_share", random_share),
    SHARE_KEY("rank0_share", rank0_share),
    POS_KEY("imbalance_ratio", imbalance_ratio),
    POS_KEY("imbalance_min_time", imbalance_min_time),
    SHARE_KEY("meta_share", meta_share),
    POS_KEY("meta_min_time", meta_min_time),
    INT_KEY("many_files", many_files),
    SHARE_KEY("stdio_share", stdio_share),
    INT_KEY("min_bytes", min_bytes),
    SHARE_KEY("indep_share", indep_share),
    POS_KEY("redundant_factor", redundant_factor),
    POS_KEY("hdf5_amplification", hdf5_amplification),
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const struct key *key_named(const char *name, size_t len)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (strlen(keys[i].name) == len && strncmp(keys[i].name, name, len) == 0)
            return &keys[i];
    return NULL;
}

/* Stores value (the text after '=') into the field of k. */
static int set_value(struct iolens_advice_thresholds *t, const struct key *k, const char *value,
                     char *err, size_t errsz)
{
    char *end = NULL;
    errno = 0;
    if (k->type == KEY_INT) {
        long long v = strtoll(value, &end, 10);
        if (errno != 0 || end == value || *end != '\0' || v < 0) {
            snprintf(err, errsz, "%s: not a non-negative integer: '%s'", k->name, value);
            return -1;
        }
        *(int64_t *)((char *)t + k->offset) = v;
        return 0;
    }
    double v = strtod(value, &end);
    if (errno != 0 || end == value || *end != '\0' || !isfinite(v) || v < 0 ||
        (k->type == KEY_SHARE && v > 1)) {
        snprintf(err, errsz, "%s: not a %s: '%s'", k->name,
                 k->type == KEY_SHARE ? "share between 0 and 1" : "non-negative number", value);
        return -1;
    }
    *(double *)((char *)t + k->offset) = v;
    return 0;
}

int iolens_advice_set(struct iolens_advice_thresholds *t, const char *key_value, char *err,
                      size_t errsz)
{
    const char *eq = strchr(key_value, '=');
    if (eq == NULL) {
        snprintf(err, errsz, "'%s' is not KEY=VALUE", key_value);
        return -1;
    }
    const struct key *k = key_named(key_value, (size_t)(eq - key_value));
    if (k == NULL) {
        snprintf(err, errsz, "unknown threshold '%.*s'", (int)(eq - key_value), key_value);
        return -1;
    }
    return set_value(t, k, eq + 1, err, errsz);
}

int iolens_advice_parse(struct iolens_advice_thresholds *t, const char *list, char *err,
                        size_t errsz)
{
    char *copy = strdup(list);
    if (copy == NULL) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item != NULL && rc == 0;
         item = strtok_r(NULL, ",", &save))
        rc = iolens_advice_set(t, item, err, errsz);
    free(copy);
    return rc;
}

const char *iolens_advice_format(const struct iolens_advice_thresholds *t, char *buf,
                                 size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NKEYS && used < size; i++) {
        const char *field = (const char *)t + keys[i].offset;
        int n = keys[i].type == KEY_INT
                    ? snprintf(buf + used, size - used, "%s%s=%lld", i ? "," : "", keys[i].name,
                               (long long)*(const int64_t *)field)
                    : snprintf(buf + used, size - used, "%s%s=%g", i ? "," : "", keys[i].name,
                               *(const double *)field);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}
