/* Writes from known lines of two source files (this one and
 * prog_sites_io.c), for test_sites.sh: each line the test looks for is
 * tagged with a SITE comment, so that the test finds its number itself.
 *   prog_sites DATA TEXT   3 pwrites of 100 bytes here (write_header),
 *                          5 of 40 in prog_sites_io.c (write_body), and 2
 *                          fwrites of 7 bytes there (write_text)
 *   prog_sites many DATA   10 lines, line k (0..9) one pwrite of
 *                          (10 - k) * 100 bytes (write_many)
 *   prog_sites late DATA   the top site comes late (write_late): 4 lines
 *                          write 10 (late0), 20, 30 and 40 bytes, then
 *                          one 50 (late4), then 1000 pwrites of 16 bytes
 *                          from one line (loop), then late0 again, 1000
 *                          bytes: 7 sites, 1006 writes, 17150 bytes
 * Built with -DVARIANT, the program is the same but for its build-id. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prog_sites.h"

static char buf[1000];

static int write_header(int fd)
{
    for (int i = 0; i < 3; i++)
        if (pwrite(fd, buf, 100, i * 100) != 100) /* SITE header */
            return -1;
    return 0;
}

static int write_many(int fd)
{
    long n = 0;
    n += pwrite(fd, buf, 1000, 0); /* SITE many0 */
    n += pwrite(fd, buf, 900, 1000); /* SITE many1 */
    n += pwrite(fd, buf, 800, 2000); /* SITE many2 */
    n += pwrite(fd, buf, 700, 3000); /* SITE many3 */
    n += pwrite(fd, buf, 600, 4000); /* SITE many4 */
    n += pwrite(fd, buf, 500, 5000); /* SITE many5 */
    n += pwrite(fd, buf, 400, 6000); /* SITE many6 */
    n += pwrite(fd, buf, 300, 7000); /* SITE many7 */
    n += pwrite(fd, buf, 200, 8000); /* SITE many8 */
    n += pwrite(fd, buf, 100, 9000); /* SITE many9 */
    return n == 5500 ? 0 : -1;
}

static long late0(int fd, size_t n, off_t at)
{
    return pwrite(fd, buf, n, at); /* SITE late0 */
}

static int write_late(int fd)
{
    long n = late0(fd, 10, 0);
    n += pwrite(fd, buf, 20, 10); /* SITE late1 */
    n += pwrite(fd, buf, 30, 30); /* SITE late2 */
    n += pwrite(fd, buf, 40, 60); /* SITE late3 */
    n += pwrite(fd, buf, 50, 100); /* SITE late4 */
    for (int i = 0; i < 1000; i++)
        n += pwrite(fd, buf, 16, 150 + 16 * i); /* SITE loop */
    n += late0(fd, 1000, 16150);
    return n == 17150 ? 0 : -1;
}

int main(int argc, char **argv)
{
#ifdef VARIANT
    buf[0] = 'v';
#endif
    int many = argc == 3 && strcmp(argv[1], "many") == 0;
    int late = argc == 3 && strcmp(argv[1], "late") == 0;
    if (argc != 3) {
        fprintf(stderr, "usage: prog_sites DATA TEXT | many DATA | late DATA\n");
        return 2;
    }
    int fd = open(argv[many || late ? 2 : 1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return 1;
    int rc = many ? write_many(fd)
             : late ? write_late(fd)
                    : write_header(fd) | write_body(fd, buf);
    if (close(fd) != 0 || rc != 0)
        return 1;
    return many || late ? 0 : write_text(argv[2], buf);
}
