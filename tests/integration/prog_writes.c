/* 1000 write()s of 4 KiB to the file named by argv[1], from an aligned
 * buffer, through one descriptor.  Expected POSIX counters in
 * test_writes.sh. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NWRITES 1000
#define SIZE 4096

static char buf[SIZE] __attribute__((aligned(4096)));

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    memset(buf, 'w', sizeof buf);
    int fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    for (int i = 0; i < NWRITES; i++) {
        if (write(fd, buf, SIZE) != SIZE) {
            perror("write");
            return 1;
        }
    }
    if (close(fd) != 0) {
        perror("close");
        return 1;
    }
    return 0;
}
