/* iolens-parser --base, the full counter dump (dump_base.c). */
#ifndef IOLENS_DUMP_BASE_H
#define IOLENS_DUMP_BASE_H

#include <stdio.h>

#include "reader/reader.h"
#include "reader/reader_stream.h"

/* Writes every counter of every record to out; 0, -1 out of memory, -2
 * write error (errno set). */
int iolens_dump_base(FILE *out, const struct iolens_log *log);
/* The same from a streamed log, one layer region at a time; also -3: the
 * log could not be read again (iolens_stream_error says why). */
int iolens_dump_base_stream(FILE *out, struct iolens_stream *s);

/* v as printf's "%.6f" would write it, into buf[0..size) (NUL-terminated;
 * 400 bytes hold any double); returns the length. */
int iolens_format_fixed6(double v, char *buf, size_t size);

#endif
