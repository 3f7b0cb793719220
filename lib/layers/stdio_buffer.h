/* What a stream's buffer pointers say about bytes no call reported.
 *
 * glibc's <stdio.h> expands getc_unlocked, putc_unlocked and their
 * getchar/putchar/fgetc/fputc forms inline in optimized programs: they
 * move the stream's _IO_read_ptr or _IO_write_ptr themselves and call the
 * C library only when the buffer is empty (__uflow) or full (__overflow).
 * The fields are glibc's public ABI (<bits/types/struct_FILE.h>), so the
 * bytes such code moved are the distance a pointer advanced since the
 * STDIO layer last looked (stdio_layer.c keeps those marks per stream).
 *
 * A distance counts only inside one buffer: same base (and, when reading,
 * same end, which a refill resets), the pointer not behind the mark nor
 * past the buffer's end.  Anything else (a refill or flush iolens did not
 * see, setvbuf, a switch between reading and writing) counts nothing; the
 * marks are then just taken again.  So a miss undercounts, never counts a
 * byte twice.  Without glibc nothing is known and the marks stay zero. */
#ifndef IOLENS_STDIO_BUFFER_H
#define IOLENS_STDIO_BUFFER_H

#include <stdint.h>
#include <stdio.h>

/* In the order of the FILE's own fields, so that taking the marks is one
 * block copy and comparing them a block compare. */
struct iolens_stdio_marks {
    uintptr_t read_ptr, read_end, read_base;
    uintptr_t write_base, write_ptr, write_end;
};

#ifdef __GLIBC__
#include <stddef.h>
_Static_assert(offsetof(FILE, _IO_read_end) == offsetof(FILE, _IO_read_ptr) + sizeof(char *) &&
                   offsetof(FILE, _IO_read_base) == offsetof(FILE, _IO_read_end) + sizeof(char *) &&
                   offsetof(FILE, _IO_write_base) == offsetof(FILE, _IO_read_base) + sizeof(char *) &&
                   offsetof(FILE, _IO_write_ptr) == offsetof(FILE, _IO_write_base) + sizeof(char *) &&
                   offsetof(FILE, _IO_write_end) == offsetof(FILE, _IO_write_ptr) + sizeof(char *),
               "glibc's buffer pointers in the order of struct iolens_stdio_marks");
#endif

static inline void iolens_stdio_marks_take(struct iolens_stdio_marks *m, const FILE *f)
{
#ifdef __GLIBC__
    m->read_ptr = (uintptr_t)f->_IO_read_ptr;
    m->read_end = (uintptr_t)f->_IO_read_end;
    m->read_base = (uintptr_t)f->_IO_read_base;
    m->write_base = (uintptr_t)f->_IO_write_base;
    m->write_ptr = (uintptr_t)f->_IO_write_ptr;
    m->write_end = (uintptr_t)f->_IO_write_end;
#else
    (void)f;
    *m = (struct iolens_stdio_marks){0};
#endif
}

/* Whether nothing moved since seen (the hot path's whole test): the
 * same as taking the marks and comparing, without the copy. */
static inline int iolens_stdio_marks_unmoved(const struct iolens_stdio_marks *seen, const FILE *f)
{
#ifdef __GLIBC__
    return ((seen->read_ptr ^ (uintptr_t)f->_IO_read_ptr) |
            (seen->read_end ^ (uintptr_t)f->_IO_read_end) |
            (seen->read_base ^ (uintptr_t)f->_IO_read_base) |
            (seen->write_base ^ (uintptr_t)f->_IO_write_base) |
            (seen->write_ptr ^ (uintptr_t)f->_IO_write_ptr) |
            (seen->write_end ^ (uintptr_t)f->_IO_write_end)) == 0;
#else
    (void)seen;
    (void)f;
    return 1;
#endif
}

/* Bytes taken from the read buffer since seen, 0 if it is not the same
 * buffer. */
static inline int64_t iolens_stdio_marks_read_since(const struct iolens_stdio_marks *seen,
                                                    const struct iolens_stdio_marks *now)
{
    if (now->read_base != seen->read_base || now->read_end != seen->read_end ||
        now->read_ptr < seen->read_ptr || now->read_ptr > now->read_end)
        return 0;
    return (int64_t)(now->read_ptr - seen->read_ptr);
}

/* Bytes put in the write buffer since seen, 0 if it is not the same
 * buffer.  The end is not compared: glibc moves it on a line-buffered
 * stream, whose every character goes through __overflow anyway. */
static inline int64_t iolens_stdio_marks_written_since(const struct iolens_stdio_marks *seen,
                                                       const struct iolens_stdio_marks *now)
{
    if (now->write_base != seen->write_base || now->write_ptr < seen->write_ptr ||
        now->write_ptr > now->write_end)
        return 0;
    return (int64_t)(now->write_ptr - seen->write_ptr);
}

#endif
