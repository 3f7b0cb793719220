#include "core/mpi_family.h"

#include <stdlib.h>
#include <string.h>

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* MPICH prints "MPICH Version: ...", MVAPICH2 "MVAPICH2 Version ...",
 * Cray "MPI VERSION : CRAY MPICH version ...", Intel "Intel(R) MPI
 * Library ..."; Open MPI "Open MPI v4.1.4, package: ...". */
enum iolens_mpi_family iolens_mpi_family_of(const char *text)
{
    if (text == NULL)
        return IOLENS_MPI_FAMILY_UNKNOWN;
    if (starts_with(text, "Open MPI"))
        return IOLENS_MPI_FAMILY_OPENMPI;
    if (starts_with(text, "Intel(R) MPI Library") || starts_with(text, "MVAPICH") ||
        strstr(text, "MPICH") != NULL)
        return IOLENS_MPI_FAMILY_MPICH;
    return IOLENS_MPI_FAMILY_UNKNOWN;
}

int iolens_mpi_openmpi_major(const char *text)
{
    if (text == NULL || !starts_with(text, "Open MPI v"))
        return -1;
    const char *digits = text + strlen("Open MPI v");
    char *end;
    long major = strtol(digits, &end, 10);
    return end != digits && major >= 0 && major < 1000 ? (int)major : -1;
}

const char *iolens_mpi_family_name(enum iolens_mpi_family family)
{
    switch (family) {
    case IOLENS_MPI_FAMILY_MPICH:
        return "MPICH";
    case IOLENS_MPI_FAMILY_OPENMPI:
        return "Open MPI";
    case IOLENS_MPI_FAMILY_UNKNOWN:
        break;
    }
    return "an unknown MPI";
}

void iolens_mpi_family_short_name(const char *text, char *out, size_t outsz)
{
    if (outsz == 0)
        return;
    size_t n = text != NULL ? strcspn(text, ",\n") : 0;
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    if (n >= outsz)
        n = outsz - 1;
    if (n > 0)
        memcpy(out, text, n);
    out[n] = '\0';
    /* MPICH's text has a tab after "Version:". */
    for (size_t i = 0; i < n; i++)
        if (out[i] == '\t' || (unsigned char)out[i] < 0x20)
            out[i] = ' ';
}
