/* iolens-diff internals: diff.c (command line, per-layer figures) and
 * diff_changes.c (pattern and sharing changes). */
#ifndef IOLENS_DIFF_H
#define IOLENS_DIFF_H

#include <stdio.h>

#include "reader/reader.h"

/* Prints the job sharing class line and one line per file whose pattern
 * label or sharing changed, or that only one log has; 0, or -1 out of
 * memory. */
int iolens_diff_changes(FILE *out, const struct iolens_log *a, const struct iolens_log *b);

#endif
