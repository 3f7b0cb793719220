#include "output/real_text.h"

#include <math.h>

void iolens_put_real(FILE *out, double v)
{
    if (isnan(v))
        fputc('-', out);
    else if (isinf(v))
        fputs("inf", out);
    else
        fprintf(out, "%.6f", v);
}
