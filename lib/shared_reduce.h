/* Shared-file reduction at MPI_Finalize (placeholder). */
#ifndef IOLENS_SHARED_REDUCE_H
#define IOLENS_SHARED_REDUCE_H
#endif
