/* Room for the runtime's descriptors (fd_room.h). */
#include "core/fd_room.h"

/* Descriptors the runtime needs at most at the end (the log's directory
 * and file, the user database's files), with some to spare. */
#define ROOM 8

int iolens_fd_room_make(struct iolens_fd_room *room)
{
    struct rlimit rl;
    if (room->raised || getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= rl.rlim_max)
        return 0;
    rlim_t soft = rl.rlim_cur;
    rl.rlim_cur = rl.rlim_max - soft > ROOM ? soft + ROOM : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    room->soft = soft;
    room->raised = 1;
    return 1;
}

void iolens_fd_room_give_back(struct iolens_fd_room *room)
{
    struct rlimit rl;
    if (room->raised && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = room->soft;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
    room->raised = 0;
}
