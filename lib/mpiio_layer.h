/* Bookkeeping of the MPI-IO layer, fed by wrappers/mpiio.c.
 * (The per-call functions are declared below by the layer's author.) */
#ifndef IOLENS_MPIIO_LAYER_H
#define IOLENS_MPIIO_LAYER_H

#include <mpi.h>

#include "iolens/log_format.h"

/* Allocates the MPI_File table from the budget; called by runtime.c at
 * start-up after the POSIX and STDIO layers. */
void iolens_mpiio_layer_init(void);

typedef void (*iolens_mpiio_emit_fn)(const struct iolens_mpiio_record *rec, void *arg);
/* Packs every MPI-IO record with activity, times converted to seconds. */
void iolens_mpiio_foreach_record(iolens_mpiio_emit_fn fn, void *arg);
/* A forked child starts its own counts: zero every record. */
void iolens_mpiio_reset(void);

#endif
