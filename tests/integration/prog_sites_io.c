/* The second source file of prog_sites (prog_sites_main.c). */
#include <stdio.h>
#include <unistd.h>

#include "prog_sites.h"

int write_body(int fd, const char *buf)
{
    for (int i = 0; i < 5; i++)
        if (pwrite(fd, buf, 40, 300 + i * 40) != 40) /* SITE body */
            return -1;
    return 0;
}

int write_text(const char *path, const char *buf)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return 1;
    for (int i = 0; i < 2; i++)
        if (fwrite(buf, 1, 7, f) != 7) /* SITE text */
            return 1;
    return fclose(f) != 0;
}
