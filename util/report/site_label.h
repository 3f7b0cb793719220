/* A log's call site as the outputs name it (--sites, --sites --csv,
 * --advice, the HTML page): resolved through the program's debug
 * information (analysis/site_resolve.h) to "function (file:line)", else
 * module+0xOFFSET with why.  Computes the text, escapes nothing: each
 * output applies its own escaping to it. */
#ifndef IOLENS_REPORT_SITE_LABEL_H
#define IOLENS_REPORT_SITE_LABEL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/site_resolve.h"
#include "reader/reader.h"

/* How far a site was resolved. */
enum iolens_site_label_kind {
    IOLENS_SITE_LABEL_LINE,     /* function and file:line */
    IOLENS_SITE_LABEL_FUNCTION, /* a function, no line (an ELF symbol only) */
    IOLENS_SITE_LABEL_NO_DEBUG, /* module+0xOFFSET: no debug information covers it */
    IOLENS_SITE_LABEL_CHANGED,  /* module+0xOFFSET: the module's build-id differs now */
    IOLENS_SITE_LABEL_MISSING,  /* module+0xOFFSET: the module cannot be opened */
    IOLENS_SITE_LABEL_OTHER     /* the record's other sites together */
};

struct iolens_site_label {
    enum iolens_site_label_kind kind;
    const struct iolens_log_site_module *module;  /* NULL for the other sites */
    uint64_t offset;
    struct iolens_site_where where;               /* function, file, line when found */
};

/* Resolves s (res NULL: not at all, as for a missing module). */
void iolens_site_label_of(const struct iolens_log *log, const struct iolens_log_site *s,
                          struct iolens_site_resolver *res, struct iolens_site_label *out);

/* The label as one line of text into buf (truncated to size):
 *   write_particles (/src/io.c:142)
 *   write_particles (/path/prog+0x1234)              a symbol without a line
 *   /path/prog+0x1234                                no debug information
 *   /path/prog+0x1234 [changed since the run: build-id differs]
 *   /path/prog+0x1234 [module not found]
 *   <other sites>
 * Returns buf. */
const char *iolens_site_label_text(const struct iolens_site_label *l, char *buf, size_t size);

/* Room for any label's text: a module path, a function and a file. */
#define IOLENS_SITE_LABEL_MAX (IOLENS_SITES_PATH_MAX + 256 + 1024 + 64)

/* The status word of the label (resolved, no_debug, changed, missing,
 * other): the CSV's "status" column.  A function without a line is
 * "resolved" too. */
const char *iolens_site_label_status(const struct iolens_site_label *l);

/* The hint the outputs give once when some site has no line. */
#define IOLENS_SITE_NO_DEBUG_HINT \
    "no line for some sites: build with -g, or give --debug-dir DIR with separate debug files"

#endif
