/* The text outputs' one way to write a real figure: "-" for an undefined
 * one (NaN, a division by zero), "inf" for an unbounded one, else six
 * decimals, as iolens-parser(1) documents. */
#ifndef IOLENS_REAL_TEXT_H
#define IOLENS_REAL_TEXT_H

#include <stdio.h>

void iolens_put_real(FILE *out, double v);

#endif
