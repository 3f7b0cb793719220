/* In-kernel copies with known sizes (test_copy.sh).
 *
 * usage: prog_copy SRC DST
 *   SRC must hold at least 5096 bytes.  splice moves 4096 bytes from SRC
 *   (explicit offset 0) into a pipe, and splice moves them from the pipe
 *   to DST (at DST's position); then sendfile copies 1000 bytes of SRC
 *   from offset 4096 to DST.  DST ends up 5096 bytes long.  Prints the
 *   bytes each call moved, one per line. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/sendfile.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SRC DST\n", argv[0]);
        return 2;
    }
    int in = open(argv[1], O_RDONLY);
    int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int p[2];
    if (in < 0 || out < 0 || pipe(p) != 0) {
        perror("prog_copy: open");
        return 1;
    }
    loff_t at = 0;
    ssize_t to_pipe = splice(in, &at, p[1], NULL, 4096, 0);
    ssize_t from_pipe = splice(p[0], NULL, out, NULL, 4096, 0);
    off_t from = 4096;
    ssize_t sent = sendfile(out, in, &from, 1000);
    printf("%zd\n%zd\n%zd\n", to_pipe, from_pipe, sent);
    if (to_pipe != 4096 || from_pipe != 4096 || sent != 1000 || at != 4096 || from != 5096)
        return 1;
    return close(in) == 0 && close(out) == 0 ? 0 : 1;
}
