/* Unit tests of where a log goes (lib/log/log_place.c): the names tried when
 * one is taken, what is never replaced, and the directories refused. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log/log_place.h"
#include "core/real_calls.h"

static char dir[] = "/tmp/iolens-test-place-XXXXXX";

static void setup(void)
{
    iolens_real_calls_resolve();
    strcpy(dir, "/tmp/iolens-test-place-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Creates a temporary file holding text in the place and publishes it;
 * the path published into out.  Returns publish's result. */
static int publish(struct iolens_log_place *p, const char *text, char *out, size_t outsz)
{
    char tmp[NAME_MAX + 1], err[256] = "";
    int fd = iolens_log_place_temp(p, tmp, sizeof tmp);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    int rc = iolens_log_place_publish(p, tmp, out, outsz, err, sizeof err);
    if (rc != 0)
        iolens_log_place_discard(p, tmp);
    return rc;
}

static void open_place(struct iolens_log_place *p, const char *name, enum iolens_log_naming how)
{
    char path[PATH_MAX], err[256] = "";
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ck_assert_msg(iolens_log_place_open(p, path, how, 4242, 0, NULL, err, sizeof err) == 0, "%s",
                  err);
}

START_TEST(exact_name_is_never_replaced)
{
    struct iolens_log_place p;
    char out[PATH_MAX], want[PATH_MAX];
    open_place(&p, "t.iolens", IOLENS_NAMING_EXACT);
    ck_assert_int_eq(publish(&p, "first", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s/t.iolens", dir);
    ck_assert_str_eq(out, want);
    /* Taken: the next process's log goes to PATH.<pid>. */
    ck_assert_int_eq(publish(&p, "second", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s/t.iolens.4242", dir);
    ck_assert_str_eq(out, want);
    ck_assert_str_eq(slurp(out), "second");
    /* Both taken: PATH.<pid>-<8 hex digits>. */
    ck_assert_int_eq(publish(&p, "third", out, sizeof out), 0);
    ck_assert_uint_eq(strlen(out), strlen(want) + 9);
    ck_assert_int_eq(strncmp(out, want, strlen(want)), 0);
    ck_assert_int_eq(out[strlen(want)], '-');
    ck_assert_uint_eq(strspn(out + strlen(want) + 1, "0123456789abcdef"), 8);
    snprintf(want, sizeof want, "%s/t.iolens", dir);
    ck_assert_str_eq(slurp(want), "first");
    iolens_log_place_close(&p);
}
END_TEST

START_TEST(forked_child_starts_at_pid_name)
{
    struct iolens_log_place p;
    char out[PATH_MAX], want[PATH_MAX];
    open_place(&p, "t.iolens", IOLENS_NAMING_EXACT_CHILD);
    ck_assert_int_eq(publish(&p, "child", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s/t.iolens.4242", dir);
    ck_assert_str_eq(out, want);
    iolens_log_place_close(&p);
}
END_TEST

START_TEST(token_name_replaces_own_log_only)
{
    struct iolens_log_place p;
    char out[PATH_MAX], want[PATH_MAX];
    open_place(&p, "u_x_1_s_0a1b2c3d_4242.iolens", IOLENS_NAMING_TOKEN);
    /* This process's earlier (incomplete) log is replaced by the later. */
    ck_assert_int_eq(publish(&p, "incomplete", out, sizeof out), 0);
    ck_assert_int_eq(publish(&p, "complete", out, sizeof out), 0);
    snprintf(want, sizeof want, "%s/u_x_1_s_0a1b2c3d_4242.iolens", dir);
    ck_assert_str_eq(out, want);
    ck_assert_str_eq(slurp(want), "complete");
    iolens_log_place_close(&p);

    /* A symlink someone planted at the name is neither followed nor
     * replaced: the name gets -<random> before .iolens. */
    char link[PATH_MAX], target[PATH_MAX];
    snprintf(link, sizeof link, "%s/u_x_1_s_ffffffff_4242.iolens", dir);
    snprintf(target, sizeof target, "%s/target", dir);
    ck_assert_int_eq(symlink(target, link), 0);
    open_place(&p, "u_x_1_s_ffffffff_4242.iolens", IOLENS_NAMING_TOKEN);
    ck_assert_int_eq(publish(&p, "log", out, sizeof out), 0);
    ck_assert_int_eq(access(target, F_OK), -1);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    snprintf(want, sizeof want, "%s/u_x_1_s_ffffffff_4242-", dir);
    ck_assert_int_eq(strncmp(out, want, strlen(want)), 0);
    ck_assert_str_eq(out + strlen(want) + 8, ".iolens");
    ck_assert_str_eq(slurp(out), "log");
    iolens_log_place_close(&p);
}
END_TEST

START_TEST(directories_refused)
{
    struct iolens_log_place p;
    char path[PATH_MAX + 32], err[256] = "";
    char real[PATH_MAX], link[PATH_MAX];
    snprintf(real, sizeof real, "%s/real", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    ck_assert_int_eq(mkdir(real, 0700), 0);
    ck_assert_int_eq(symlink(real, link), 0);
    snprintf(path, sizeof path, "%s/x.iolens", link);
    ck_assert_int_eq(iolens_log_place_open(&p, path, IOLENS_NAMING_TOKEN, 1, 1, NULL, err,
                                           sizeof err), -1);
    ck_assert_str_eq(err, "the log directory is a symbolic link; refused");
    /* A missing directory is made private, and the caller told. */
    int created = 0;
    snprintf(path, sizeof path, "%s/new/x.iolens", dir);
    ck_assert_int_eq(iolens_log_place_open(&p, path, IOLENS_NAMING_TOKEN, 1, 1, &created, err,
                                           sizeof err), 0);
    ck_assert_int_eq(created, 1);
    struct stat st;
    ck_assert_int_eq(fstat(p.dirfd, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0700);
    iolens_log_place_close(&p);
    /* Another user's world-writable directory: refused unless sticky. */
    if (geteuid() == 0) {
        snprintf(real, sizeof real, "%s/open", dir);
        ck_assert_int_eq(mkdir(real, 0700), 0);
        ck_assert_int_eq(chown(real, 65534, 65534), 0);
        ck_assert_int_eq(chmod(real, 0777), 0);
        snprintf(path, sizeof path, "%s/x.iolens", real);
        ck_assert_int_eq(iolens_log_place_open(&p, path, IOLENS_NAMING_TOKEN, 1, 0, NULL, err,
                                               sizeof err), -1);
        ck_assert_ptr_nonnull(strstr(err, "without the sticky bit; refused"));
        ck_assert_int_eq(chmod(real, 01777), 0);
        ck_assert_int_eq(iolens_log_place_open(&p, path, IOLENS_NAMING_TOKEN, 1, 0, NULL, err,
                                               sizeof err), 0);
        iolens_log_place_close(&p);
    }
}
END_TEST

START_TEST(tokens_differ)
{
    char first[9];
    snprintf(first, sizeof first, "%s", iolens_log_token());
    ck_assert_uint_eq(strspn(first, "0123456789abcdef"), 8);
    iolens_log_token_renew();
    ck_assert_str_ne(first, iolens_log_token());
}
END_TEST

int main(void)
{
    Suite *s = suite_create("log_place");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, exact_name_is_never_replaced);
    tcase_add_test(tc, forked_child_starts_at_pid_name);
    tcase_add_test(tc, token_name_replaces_own_log_only);
    tcase_add_test(tc, directories_refused);
    tcase_add_test(tc, tokens_differ);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
