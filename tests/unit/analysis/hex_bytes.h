/* Hex text to bytes, for the tests that pass GNU build-ids around as hex
 * (test_site_resolve and tests/integration/resolve_site). */
#ifndef IOLENS_TEST_HEX_BYTES_H
#define IOLENS_TEST_HEX_BYTES_H

#include <stddef.h>
#include <stdio.h>

/* Decodes pairs of hex digits from hex into out (at most size bytes),
 * stopping at the first pair that is not hex; returns the bytes decoded. */
static inline size_t hex_bytes(const char *hex, unsigned char *out, size_t size)
{
    size_t n = 0;
    while (hex[0] && hex[1] && n < size) {
        unsigned byte;
        if (sscanf(hex, "%2x", &byte) != 1)
            break;
        out[n++] = (unsigned char)byte;
        hex += 2;
    }
    return n;
}

#endif
