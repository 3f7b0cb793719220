/* Files whose absolute path is longer than PATH_MAX (test_budget_fold.sh).
 *   prog_long_path DIR
 * Under DIR, makes LEVELS nested directories of 200-character names,
 * each opened (O_DIRECTORY) relative to the one above, so that the deeper
 * ones have absolute paths past PATH_MAX; in the deepest, writes 100
 * bytes to "data" through openat, then, after fchdir there, reads them
 * back through a relative open, stats "data" and reads it once more with
 * fopen and fread.  Prints the number of successful opens (directories
 * and files; not the fopen) it made. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LEVELS 25

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    char name[201];
    memset(name, 'd', 200);
    name[200] = '\0';
    long opens = 0;
    int dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
    if (dfd < 0)
        return 1;
    opens++;
    for (int i = 0; i < LEVELS; i++) {
        if (mkdirat(dfd, name, 0755) != 0)
            return 1;
        int next = openat(dfd, name, O_RDONLY | O_DIRECTORY);
        if (next < 0)
            return 1;
        opens++;
        close(dfd);
        dfd = next;
    }
    char buf[100];
    memset(buf, 'x', sizeof buf);
    int fd = openat(dfd, "data", O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf || close(fd) != 0)
        return 1;
    opens++;
    if (fchdir(dfd) != 0)
        return 1;
    fd = open("data", O_RDONLY);
    if (fd < 0 || read(fd, buf, sizeof buf) != (ssize_t)sizeof buf || close(fd) != 0)
        return 1;
    opens++;
    struct stat st;
    if (stat("data", &st) != 0 || st.st_size != (off_t)sizeof buf)
        return 1;
    FILE *f = fopen("data", "r");
    if (f == NULL || fread(buf, 1, sizeof buf, f) != sizeof buf || fclose(f) != 0)
        return 1;
    close(dfd);
    printf("%ld\n", opens);
    return 0;
}
