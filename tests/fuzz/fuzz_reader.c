/* libFuzzer target for the log reader: any input must give either a
 * decoded log or an error, never a crash, a leak or an out-of-bounds
 * access.  A decoded log is walked completely so that the sanitizers see
 * every array the reader sized.
 *
 * Build for libFuzzer (optional; make check uses replay_main.c instead):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -include build_config.h \
 *     -Iinclude -Ilib -Iutil tests/fuzz/fuzz_reader.c util/reader.c \
 *     lib/record_merge.c -lz */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void walk(const struct iolens_log *log)
{
    uint64_t acc = log->job.uid;
    for (int i = 0; i < IOLENS_JOB_NSTRINGS; i++)
        acc += log->jobstr_len[i] + strlen(log->jobstr[i]);
    for (size_t i = 0; i < log->nmounts; i++)
        acc += strlen(log->mounts[i].point) + strlen(log->mounts[i].fstype);
    for (size_t i = 0; i < log->nranks; i++)
        acc += log->ranks[i].host_index + (log->ranks[i].end_time > log->ranks[i].start_time);
    for (size_t l = 0; l < log->nlayers; l++) {
        const struct iolens_log_layer *L = &log->layers[l];
        for (uint64_t r = 0; r < L->record_count; r++) {
            const char *name = iolens_log_name_of(log, L->id[r]);
            const struct iolens_log_mount *m = iolens_log_mount_of(log, name);
            acc += (uint64_t)L->rank[r] + (name ? strlen(name) : 0) + (m ? 1 : 0);
            for (uint32_t i = 0; i < L->counter_count; i++)
                acc += (uint64_t)L->counters[r * L->counter_count + i];
            for (uint32_t i = 0; i < L->fcounter_count; i++)
                acc += L->fcounters[r * L->fcounter_count + i] > 0.0;
        }
    }
    sink = acc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct iolens_log log;
    char err[256];
    if (iolens_log_read_buffer(data, size, &log, err, sizeof err) == IOLENS_READ_OK)
        walk(&log);
    iolens_log_free(&log);
    return 0;
}
