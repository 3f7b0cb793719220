/* A call site's label (site_label.h): the resolver's answer turned into
 * the one text every output prints. */
#include "report/site_label.h"

#include <inttypes.h>
#include <stdio.h>

void iolens_site_label_of(const struct iolens_log *log, const struct iolens_log_site *s,
                          struct iolens_site_resolver *res, struct iolens_site_label *out)
{
    *out = (struct iolens_site_label){.kind = IOLENS_SITE_LABEL_OTHER, .offset = s->offset};
    out->where.status = IOLENS_SITE_MISSING;
    if (s->module == IOLENS_SITE_OTHER || s->module >= log->nsite_modules)
        return;
    const struct iolens_log_site_module *m = &log->site_modules[s->module];
    out->module = m;
    if (res != NULL)
        iolens_site_resolve(res, m->path, m->build_id, m->build_id_len, s->offset, &out->where);
    switch (out->where.status) {
    case IOLENS_SITE_RESOLVED:
        out->kind = out->where.file[0] != '\0' && out->where.line > 0
                        ? IOLENS_SITE_LABEL_LINE
                        : IOLENS_SITE_LABEL_FUNCTION;
        return;
    case IOLENS_SITE_NO_DEBUG: out->kind = IOLENS_SITE_LABEL_NO_DEBUG; return;
    case IOLENS_SITE_CHANGED: out->kind = IOLENS_SITE_LABEL_CHANGED; return;
    case IOLENS_SITE_MISSING: break;
    }
    out->kind = IOLENS_SITE_LABEL_MISSING;
}

const char *iolens_site_label_text(const struct iolens_site_label *l, char *buf, size_t size)
{
    if (l->kind == IOLENS_SITE_LABEL_OTHER || l->module == NULL) {
        snprintf(buf, size, "<other sites>");
        return buf;
    }
    const char *path = l->module->path;
    const struct iolens_site_where *w = &l->where;
    switch (l->kind) {
    case IOLENS_SITE_LABEL_LINE:
        if (w->function[0] != '\0')
            snprintf(buf, size, "%s (%s:%u)", w->function, w->file, w->line);
        else
            snprintf(buf, size, "%s+0x%" PRIx64 " (%s:%u)", path, l->offset, w->file, w->line);
        break;
    case IOLENS_SITE_LABEL_FUNCTION:
        if (w->function[0] != '\0')
            snprintf(buf, size, "%s (%s+0x%" PRIx64 ")", w->function, path, l->offset);
        else
            snprintf(buf, size, "%s+0x%" PRIx64, path, l->offset);
        break;
    case IOLENS_SITE_LABEL_CHANGED:
        snprintf(buf, size, "%s+0x%" PRIx64 " [changed since the run: build-id differs]", path,
                 l->offset);
        break;
    case IOLENS_SITE_LABEL_MISSING:
        snprintf(buf, size, "%s+0x%" PRIx64 " [module not found]", path, l->offset);
        break;
    case IOLENS_SITE_LABEL_NO_DEBUG:
    case IOLENS_SITE_LABEL_OTHER:
        snprintf(buf, size, "%s+0x%" PRIx64, path, l->offset);
        break;
    }
    return buf;
}

const char *iolens_site_label_status(const struct iolens_site_label *l)
{
    switch (l->kind) {
    case IOLENS_SITE_LABEL_LINE:
    case IOLENS_SITE_LABEL_FUNCTION: return "resolved";
    case IOLENS_SITE_LABEL_NO_DEBUG: return "no_debug";
    case IOLENS_SITE_LABEL_CHANGED: return "changed";
    case IOLENS_SITE_LABEL_MISSING: return "missing";
    case IOLENS_SITE_LABEL_OTHER: break;
    }
    return "other";
}
