/* Contents of the transfer buffers: each 8-byte word of a file holds
 * (file + 1) * 2^40 + its offset / 8 (in the host's byte order: the same
 * job writes and reads it), so data written to or read from the wrong
 * place, or the wrong file, does not check.  Bytes outside whole words
 * get their word's bytes.  Word-sized stores and loads keep filling and
 * checking at memory speed. */
#include <string.h>

#include "pio_perf.h"

static uint64_t word_value(uint64_t file, uint64_t offset)
{
    return ((file + 1) << 40) + offset / 8;
}

static unsigned char byte_at(uint64_t file, uint64_t off)
{
    uint64_t v = word_value(file, off & ~(uint64_t)7);
    unsigned char w[8];
    memcpy(w, &v, 8);
    return w[off & 7];
}

void pio_fill(unsigned char *buf, uint64_t len, uint64_t file, uint64_t offset)
{
    uint64_t i = 0;
    for (; i < len && ((offset + i) & 7) != 0; i++)
        buf[i] = byte_at(file, offset + i);
    for (; i + 8 <= len; i += 8) {
        uint64_t v = word_value(file, offset + i);
        memcpy(buf + i, &v, 8);
    }
    for (; i < len; i++)
        buf[i] = byte_at(file, offset + i);
}

int64_t pio_check(const unsigned char *buf, uint64_t len, uint64_t file, uint64_t offset)
{
    uint64_t i = 0;
    for (; i < len && ((offset + i) & 7) != 0; i++)
        if (buf[i] != byte_at(file, offset + i))
            return (int64_t)i;
    for (; i + 8 <= len; i += 8) {
        uint64_t got;
        memcpy(&got, buf + i, 8);
        if (got != word_value(file, offset + i))
            break;   /* the byte loop below finds which byte */
    }
    for (; i < len; i++)
        if (buf[i] != byte_at(file, offset + i))
            return (int64_t)i;
    return -1;
}
