/* Strided reads: pread of 1 KiB at the start of every 4 KiB block of the
 * file named by argv[1] (which the test makes 256 KiB long), so 64 reads.
 * Every odd read lands in a buffer 1 byte off an 8-byte boundary, to
 * exercise POSIX_MEM_NOT_ALIGNED. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define NREADS 64
#define BLOCK 4096
#define SIZE 1024

static char buf[SIZE + 8] __attribute__((aligned(64)));

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    for (int i = 0; i < NREADS; i++) {
        char *dst = buf + (i % 2);
        if (pread(fd, dst, SIZE, (off_t)i * BLOCK) != SIZE) {
            perror("pread");
            return 1;
        }
    }
    if (close(fd) != 0) {
        perror("close");
        return 1;
    }
    return 0;
}
