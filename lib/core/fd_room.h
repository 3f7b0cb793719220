/* Room for the runtime's few descriptors at the end of a process that has
 * used up its own (RLIMIT_NOFILE): a program that leaked descriptors until
 * open failed with EMFILE, then ended, still gets its log, with its user
 * named.  The soft limit is raised by a few, within the hard one, and put
 * back when the runtime is done, so a program that goes on (after
 * MPI_Finalize, or the image an exec starts) sees its own limit. */
#ifndef IOLENS_FD_ROOM_H
#define IOLENS_FD_ROOM_H

#include <sys/resource.h>

struct iolens_fd_room {
    int raised;   /* the soft limit was raised ... */
    rlim_t soft;  /* ... from this */
};

/* Raises the soft limit, once per room; 1 if it did (then try again what
 * failed with EMFILE), 0 if it could not (already at the hard limit). */
int iolens_fd_room_make(struct iolens_fd_room *room);
/* Puts the soft limit back, if this room raised it. */
void iolens_fd_room_give_back(struct iolens_fd_room *room);

#endif
