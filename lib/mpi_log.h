/* Collective log writer (placeholder). */
#ifndef IOLENS_MPI_LOG_H
#define IOLENS_MPI_LOG_H
#endif
