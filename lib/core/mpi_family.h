/* Which MPI family a library is, from its MPI_Get_library_version text:
 * the check at MPI_Init that the running MPI is the one libiolens was
 * compiled for (wrappers/mpi.c).  Pure string functions. */
#ifndef IOLENS_MPI_FAMILY_H
#define IOLENS_MPI_FAMILY_H

#include <stddef.h>

enum iolens_mpi_family {
    IOLENS_MPI_FAMILY_UNKNOWN,
    /* MPICH and the libraries that keep its ABI (MVAPICH2, Cray MPICH,
     * Intel MPI): integer handles, MPICH's MPI_Status. */
    IOLENS_MPI_FAMILY_MPICH,
    /* Open MPI: pointer handles; the ABI is kept within a major version. */
    IOLENS_MPI_FAMILY_OPENMPI,
};

/* The longest MPI_Get_library_version text of either family, plus its
 * terminator (MPICH's MPI_MAX_LIBRARY_VERSION_STRING is 8192, Open MPI's
 * 256): a buffer for the running library, whichever mpi.h was compiled. */
#define IOLENS_MPI_VERSION_TEXT_MAX 8193

/* The family of the library whose version text is text (NULL: unknown). */
enum iolens_mpi_family iolens_mpi_family_of(const char *text);

/* Open MPI's major version from its text ("Open MPI v4.1.4, ..."), or -1. */
int iolens_mpi_openmpi_major(const char *text);

/* The family's name for messages ("MPICH", "Open MPI"). */
const char *iolens_mpi_family_name(enum iolens_mpi_family family);

/* The library's name and version, for one line: the text up to its
 * first ',' or line end, at most outsz - 1 bytes. */
void iolens_mpi_family_short_name(const char *text, char *out, size_t outsz);

#endif
