/* --list-counters (report_modes.h): the counters of every layer, with the
 * names and descriptions of its descriptor (format/record_merge.h). */
#include <stdint.h>
#include <stdio.h>

#include "format/record_merge.h"
#include "report/report_modes.h"

int iolens_report_counters(FILE *out)
{
    for (unsigned k = 0; k < iolens_layer_desc_count(); k++) {
        const struct iolens_layer_desc *d = iolens_layer_desc_at(k);
        for (uint32_t i = 0; i < d->ncounters; i++)
            fprintf(out, "%s\t%s\t%s\n", d->name, d->counter_names[i], d->counter_descs[i]);
        for (uint32_t i = 0; i < d->nfcounters; i++)
            fprintf(out, "%s\t%s\t%s\n", d->name, d->fcounter_names[i], d->fcounter_descs[i]);
    }
    return 0;
}
