/* Bookkeeping of the STDIO layer, fed by wrappers/stdio.c.  A stream maps
 * to its file record and a tracked position through a fixed-size table
 * keyed by the FILE pointer, allocated from the budget at start-up. */
#ifndef IOLENS_STDIO_LAYER_H
#define IOLENS_STDIO_LAYER_H

#include <stdint.h>
#include <stdio.h>

/* fopen/fopen64/freopen succeeded (path may be relative). */
void iolens_stdio_open(FILE *stream, const char *path, const char *mode,
                       double t0, double t1);
/* fdopen succeeded: the stream takes the name of the descriptor's file. */
void iolens_stdio_fdopen(FILE *stream, int fd, const char *mode, double t0, double t1);
/* Called before the real fclose (the stream is gone after it). */
void iolens_stdio_close(FILE *stream, double t0, double t1);

/* bytes transferred by a read (fread, fgets, fscanf) or write call. */
void iolens_stdio_read(FILE *stream, int64_t bytes, double t0, double t1);
void iolens_stdio_write(FILE *stream, int64_t bytes, double t0, double t1);

/* fseek/fseeko/rewind: new_offset is the position after the call (the
 * wrapper learns it with ftell only when the whence is not SEEK_SET). */
void iolens_stdio_seek(FILE *stream, int64_t new_offset, double t0, double t1);
void iolens_stdio_flush(FILE *stream, double t0, double t1);

/* 1 if the stream is traced (lets wrappers skip costly extra calls). */
int iolens_stdio_is_traced(FILE *stream);

struct iolens_stdio_record;
typedef void (*iolens_stdio_emit_fn)(const struct iolens_stdio_record *rec, void *arg);
void iolens_stdio_foreach_record(iolens_stdio_emit_fn fn, void *arg);
void iolens_stdio_reset(void);

#endif
