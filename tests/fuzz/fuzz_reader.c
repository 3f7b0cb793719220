/* libFuzzer target for the log readers: any input must give either a
 * decoded log or an error, never a crash, a leak or an out-of-bounds
 * access.  A decoded log is walked completely so that the sanitizers see
 * every array the reader sized.  The same bytes then go, as a file, to the
 * streaming reader (reader_stream.c, which decodes layer regions ahead on
 * a second thread, or huge ones a chunk at a time): it must give the same
 * verdict and the same message, or the target aborts.
 *
 * A Darshan log (util/reader/darshan_read.c) goes to the whole-log reader
 * only: the tools never stream one.
 *
 * Build for libFuzzer (optional; make check uses replay_main.c instead):
 * see tests/fuzz/run-fuzz.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reader/reader.h"
#include "reader/reader_stream.h"

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
            /* a Darshan log's counters iolens lacks */
            for (uint32_t i = 0; i < L->extra_count; i++)
                acc += (uint64_t)L->extra[r * L->extra_count + i] + strlen(L->extra_names[i]);
            for (uint32_t i = 0; i < L->fextra_count; i++)
                acc += (L->fextra[r * L->fextra_count + i] > 0.0) + strlen(L->fextra_names[i]);
        }
        for (uint32_t i = 0; L->absent != NULL && i < L->counter_count + L->fcounter_count; i++)
            acc += L->absent[i];
    }
    for (size_t i = 0; i < log->ninterval_sets; i++) {
        const struct iolens_log_intervals *iv = &log->intervals[i];
        for (uint64_t k = 0; k < iv->count; k++)
            acc += (iv->end[k] >= iv->start[k]) + (uint64_t)iv->bytes[k] + iv->file_id[k] +
                   iv->accesses[k] + iv->flags[k] + (iv->busy[k] > 0.0);
    }
    acc += log->skipped_modules ? strlen(log->skipped_modules) : 0;
    acc += log->partial_modules ? strlen(log->partial_modules) : 0;
    sink = acc;
}

/* A Darshan log (the whole-log reader's, by magic): the tools read it
 * whole, never streamed. */
static int is_darshan(const uint8_t *data, size_t size)
{
    int64_t magic = 0;
    if (size >= 16)
        memcpy(&magic, data + 8, 8);
    return size >= 16 && data[0] == '3' && data[1] == '.' &&
           (magic == 6567223 || magic == (int64_t)__builtin_bswap64(6567223));
}

static int count_records(void *ctx, const struct iolens_log_layer *L)
{
    *(uint64_t *)ctx += L->record_count + (L->record_count > 0 ? (uint64_t)L->rank[0] : 0);
    return 0;
}

/* Every layer region visited again after the open, each record named. */
static void walk_stream(struct iolens_stream *s)
{
    const uint32_t *kinds;
    size_t nkinds = iolens_stream_kinds(s, &kinds);
    uint64_t acc = 0;
    for (size_t k = 0; k < nkinds; k++) {
        unsigned pos = 0;
        const struct iolens_log_layer *L;
        while (iolens_stream_next(s, kinds[k], &pos, &L) == IOLENS_READ_OK && L != NULL)
            for (uint64_t r = 0; r < L->record_count; r++) {
                const char *name = iolens_stream_name_of(s, L->id[r]);
                acc += name != NULL ? strlen(name) : 0;
            }
    }
    sink = acc;
}

/* The streaming reader on the same bytes: same verdict, same message. */
static void compare_stream(const uint8_t *data, size_t size, enum iolens_read_status want,
                           const char *want_err)
{
    int fd = memfd_create("fuzz-log", 0);
    if (fd < 0)
        return; /* no memfd here: the whole-log reader alone */
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            close(fd);
            return;
        }
        done += (size_t)n;
    }
    char path[64], err[256];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    struct iolens_stream *s;
    uint64_t records = 0;
    enum iolens_read_status st = iolens_stream_open(path, count_records, &records, &s, err,
                                                    sizeof err);
    close(fd);
    if (st != want || (st != IOLENS_READ_OK && strcmp(err, want_err) != 0)) {
        fprintf(stderr, "fuzz_reader: the readers disagree: whole %d \"%s\", stream %d \"%s\"\n",
                (int)want, want_err, (int)st, err);
        abort();
    }
    if (st == IOLENS_READ_OK) {
        walk_stream(s);
        iolens_stream_close(s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct iolens_log log;
    char err[256];
    enum iolens_read_status st = iolens_log_read_buffer(data, size, &log, err, sizeof err);
    if (st == IOLENS_READ_OK)
        walk(&log);
    iolens_log_free(&log);
    if (is_darshan(data, size))
        return 0;
    /* Twice: layer regions decoded whole (ahead, on the second thread),
     * then every one taken as huge, decoded a chunk at a time. */
    unsetenv("IOLENS_PARSER_CHUNK_ABOVE");
    compare_stream(data, size, st, err);
    setenv("IOLENS_PARSER_CHUNK_ABOVE", "0", 1);
    compare_stream(data, size, st, err);
    unsetenv("IOLENS_PARSER_CHUNK_ABOVE");
    return 0;
}
