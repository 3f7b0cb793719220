/* Unit tests of the environment configuration (lib/core/config.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/file_table.h"

/* A fake environment: NULL-terminated name/value pairs. */
static const char *const *fake_env;

static const char *fake_getenv(const char *name)
{
    for (const char *const *kv = fake_env; kv != NULL && kv[0] != NULL; kv += 2)
        if (strcmp(kv[0], name) == 0)
            return kv[1];
    return NULL;
}

static struct iolens_config cfg;

static void load(const char *const *env, const char *cwd)
{
    fake_env = env;
    iolens_config_load(&cfg, fake_getenv, cwd);
}

START_TEST(sizes_accept_binary_suffixes)
{
    size_t out = 0;
    ck_assert_int_eq(iolens_parse_size("65536", &out), 0);
    ck_assert_uint_eq(out, 65536);
    ck_assert_int_eq(iolens_parse_size("64K", &out), 0);
    ck_assert_uint_eq(out, 65536);
    ck_assert_int_eq(iolens_parse_size("64k", &out), 0);
    ck_assert_uint_eq(out, 65536);
    ck_assert_int_eq(iolens_parse_size("2M", &out), 0);
    ck_assert_uint_eq(out, 2u * 1024 * 1024);
    ck_assert_int_eq(iolens_parse_size("2MiB", &out), 0);
    ck_assert_uint_eq(out, 2u * 1024 * 1024);
    ck_assert_int_eq(iolens_parse_size("1G", &out), 0);
    ck_assert_uint_eq(out, 1024u * 1024 * 1024);
}
END_TEST

START_TEST(sizes_reject_garbage)
{
    size_t out = 12345;
    ck_assert_int_eq(iolens_parse_size("", &out), -1);
    ck_assert_int_eq(iolens_parse_size("0", &out), -1);
    ck_assert_int_eq(iolens_parse_size("-1M", &out), -1);
    ck_assert_int_eq(iolens_parse_size("12Q", &out), -1);
    ck_assert_int_eq(iolens_parse_size("1M2", &out), -1);
    ck_assert_int_eq(iolens_parse_size(" 1M", &out), -1);
    ck_assert_int_eq(iolens_parse_size("99999999999999999999", &out), -1);
    ck_assert_int_eq(iolens_parse_size("17179869184G", &out), -1);
    ck_assert_int_eq(iolens_parse_size(NULL, &out), -1);
    ck_assert_uint_eq(out, 12345);
}
END_TEST

START_TEST(defaults_without_environment)
{
    static const char *const env[] = {NULL};
    load(env, "/home/u");
    ck_assert_int_eq(cfg.disabled, 0);
    ck_assert_int_eq(cfg.nonmpi, 0);
    ck_assert_uint_eq(cfg.memory, 2u * 1024 * 1024);
    ck_assert_int_eq(cfg.mem_alignment, 8);
    ck_assert_uint_eq(cfg.layers_off, 0);
    ck_assert_str_eq(cfg.logdir, IOLENS_LOGDIR_DEFAULT);
    ck_assert_str_eq(cfg.logfile, "");
    ck_assert_str_eq(cfg.error, "");
    /* 11 default prefixes plus the log directory */
    ck_assert_uint_eq(cfg.exclude.count, 12);
    ck_assert_uint_eq(cfg.include.count, 0);
}
END_TEST

START_TEST(default_exclusions_apply)
{
    static const char *const env[] = {NULL};
    load(env, "/home/u");
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/proc/self/maps"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/usr/lib/libc.so.6"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/dev/shm/mpich_shm"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/etc"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/home/u/data.bin"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/usrdata/x"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/x"), 1);
}
END_TEST

START_TEST(log_location_is_excluded)
{
    static const char *const env[] = {"IOLENS_LOGDIR", "logs", "IOLENS_LOGFILE", "/scratch/one.iolens",
                                      NULL};
    load(env, "/home/u");
    ck_assert_str_eq(cfg.logdir, "/home/u/logs");
    ck_assert_str_eq(cfg.logfile, "/scratch/one.iolens");
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/home/u/logs/a.iolens"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/scratch/one.iolens"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/scratch/data"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/home/u/logsx"), 1);
}
END_TEST

START_TEST(exclude_replaces_defaults_and_include_wins)
{
    static const char *const env[] = {"IOLENS_EXCLUDE", "/scratch,/tmp/", "IOLENS_INCLUDE",
                                      "/tmp/keep", NULL};
    load(env, "/");
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/usr/lib/x"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/scratch/x"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/x"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/keep/x"), 1);
}
END_TEST

START_TEST(empty_exclude_traces_everything_but_the_logs)
{
    static const char *const env[] = {"IOLENS_EXCLUDE", "", "IOLENS_LOGDIR", "/l", NULL};
    load(env, "/");
    ck_assert_uint_eq(cfg.exclude.count, 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/proc/self/maps"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/l/x.iolens"), 0);
}
END_TEST

/* The MPI library's own files are excluded by default wherever they are
 * (Open MPI's session directory in /tmp or TMPDIR, its lock-test files
 * beside the program's); IOLENS_EXCLUDE replaces that default too, and
 * IOLENS_INCLUDE makes exceptions to it. */
START_TEST(mpi_own_files_excluded_by_default)
{
    static const char *const env[] = {NULL};
    load(env, "/home/u");
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/ompi.vm.0/pid.15881/contact.txt"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/scratch/tmp/ompi.n01.1000/pid.7/1/x.sm"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/scratch/out.dat.locktest.0"), 0);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/scratch/out.dat"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/ompi.txt"), 1);

    static const char *const replaced[] = {"IOLENS_EXCLUDE", "/proc", NULL};
    load(replaced, "/home/u");
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/ompi.vm.0/pid.1/contact.txt"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/scratch/out.dat.locktest.0"), 1);

    static const char *const included[] = {"IOLENS_INCLUDE", "/tmp/ompi.vm.0", NULL};
    load(included, "/home/u");
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/ompi.vm.0/pid.1/contact.txt"), 1);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, "/tmp/ompi.vm.1/pid.1/contact.txt"), 0);
}
END_TEST

/* A value that is ignored gives way to the default, as for
 * an unset one: the log is not lost. */
START_TEST(too_long_logdir_falls_back_to_the_default)
{
    static char longdir[PATH_MAX + 100];
    memset(longdir, 'd', sizeof longdir - 1);
    longdir[0] = '/';
    longdir[sizeof longdir - 1] = '\0';
    static const char *env[] = {"IOLENS_LOGDIR", longdir, NULL};
    load(env, "/");
    ck_assert_str_eq(cfg.logdir, IOLENS_LOGDIR_DEFAULT);
    ck_assert_str_eq(cfg.error, "IOLENS_LOGDIR is too long; using the default, " IOLENS_LOGDIR_DEFAULT);
    ck_assert_int_eq(iolens_config_traces_path(&cfg, IOLENS_LOGDIR_DEFAULT "/x.iolens"), 0);
}
END_TEST

/* A bad value is shown escaped (\ooo) in the one stderr
 * line, never raw: no escape sequence reaches the terminal. */
START_TEST(bad_values_are_shown_escaped)
{
    static const char *const mem[] = {"IOLENS_MEMORY", "\033[2J\\x\n", NULL};
    load(mem, "/");
    ck_assert_str_eq(cfg.error,
                     "IOLENS_MEMORY=\\033[2J\\134x\\012 is not a size (e.g. 2M, 512K); using 2M");
    static const char *const layers[] = {"IOLENS_DISABLE_LAYERS", "posix,\033]0;owned\007", NULL};
    load(layers, "/");
    ck_assert_str_eq(cfg.error, "IOLENS_DISABLE_LAYERS: unknown layer '\\033]0;owned\\007' "
                                "(known: posix, stdio, mpiio, h5f, h5d, hdf5)");
    static const char *const mode[] = {"IOLENS_LOG_MODE", "\r0644", NULL};
    load(mode, "/");
    ck_assert(strncmp(cfg.error, "IOLENS_LOG_MODE=\\015" "0644 is not", 26) == 0);
    /* A long value is cut, and says so. */
    static char big[300];
    memset(big, 'x', sizeof big - 1);
    static const char *align[] = {"IOLENS_MEM_ALIGNMENT", big, NULL};
    load(align, "/");
    ck_assert_ptr_nonnull(strstr(cfg.error, "xxx... is not a positive number; using 8"));
    ck_assert_uint_lt(strlen(cfg.error), 150);
}
END_TEST

START_TEST(switches)
{
    static const char *const env[] = {"IOLENS_DISABLE", "1", "IOLENS_NONMPI", "1",
                                      "IOLENS_DISABLE_LAYERS", "STDIO", NULL};
    load(env, "/");
    ck_assert_int_eq(cfg.disabled, 1);
    ck_assert_int_eq(cfg.nonmpi, 1);
    ck_assert_uint_eq(cfg.layers_off, 1u << IOLENS_LAYER_STDIO);

    static const char *const env0[] = {"IOLENS_DISABLE", "0", "IOLENS_NONMPI", "0",
                                       "IOLENS_DISABLE_LAYERS", "posix,stdio", NULL};
    load(env0, "/");
    ck_assert_int_eq(cfg.disabled, 0);
    ck_assert_int_eq(cfg.nonmpi, 0);
    ck_assert_uint_eq(cfg.layers_off, (1u << IOLENS_LAYER_STDIO) | (1u << IOLENS_LAYER_POSIX));
}
END_TEST

START_TEST(bad_values_fall_back_and_say_so)
{
    static const char *const env[] = {"IOLENS_MEMORY", "lots", "IOLENS_DISABLE_LAYERS", "bogus", NULL};
    load(env, "/");
    ck_assert_uint_eq(cfg.memory, 2u * 1024 * 1024);
    ck_assert_uint_eq(cfg.layers_off, 0);
    /* the first problem is the one reported */
    ck_assert_str_eq(cfg.error, "IOLENS_MEMORY=lots is not a size (e.g. 2M, 512K); using 2M");
}
END_TEST

START_TEST(log_mode_accepts_read_bits_only)
{
    unsigned mode = 1;
    ck_assert_int_eq(iolens_parse_log_mode("0400", &mode), 0);
    ck_assert_uint_eq(mode, 0400);
    ck_assert_int_eq(iolens_parse_log_mode("440", &mode), 0);
    ck_assert_uint_eq(mode, 0440);
    ck_assert_int_eq(iolens_parse_log_mode("0444", &mode), 0);
    ck_assert_uint_eq(mode, 0444);
    ck_assert_int_eq(iolens_parse_log_mode("0404", &mode), 0);
    ck_assert_uint_eq(mode, 0404);
    mode = 12345;
    ck_assert_int_eq(iolens_parse_log_mode("0600", &mode), -1); /* writable */
    ck_assert_int_eq(iolens_parse_log_mode("0640", &mode), -1);
    ck_assert_int_eq(iolens_parse_log_mode("0500", &mode), -1); /* executable */
    ck_assert_int_eq(iolens_parse_log_mode("0040", &mode), -1); /* owner cannot read */
    ck_assert_int_eq(iolens_parse_log_mode("0", &mode), -1);
    ck_assert_int_eq(iolens_parse_log_mode("0480", &mode), -1); /* not octal */
    ck_assert_int_eq(iolens_parse_log_mode("440x", &mode), -1);
    ck_assert_int_eq(iolens_parse_log_mode("00400", &mode), -1);
    ck_assert_int_eq(iolens_parse_log_mode("", &mode), -1);
    ck_assert_int_eq(iolens_parse_log_mode(NULL, &mode), -1);
    ck_assert_uint_eq(mode, 12345);

    static const char *const none[] = {NULL};
    load(none, "/");
    ck_assert_uint_eq(cfg.log_mode, 0400);
    static const char *const group[] = {"IOLENS_LOG_MODE", "0440", NULL};
    load(group, "/");
    ck_assert_uint_eq(cfg.log_mode, 0440);
    ck_assert_str_eq(cfg.error, "");
    static const char *const bad[] = {"IOLENS_LOG_MODE", "0666", NULL};
    load(bad, "/");
    ck_assert_uint_eq(cfg.log_mode, 0400);
    ck_assert_str_eq(cfg.error, "IOLENS_LOG_MODE=0666 is not a read-only mode with owner read (0400, 0440, 0444); using 0400");
}
END_TEST

START_TEST(small_memory_is_raised_to_minimum)
{
    static const char *const env[] = {"IOLENS_MEMORY", "1K", NULL};
    load(env, "/");
    ck_assert_uint_eq(cfg.memory, 16u * 1024);
    ck_assert_str_eq(cfg.error, "IOLENS_MEMORY=1K is below the 16K minimum; using 16K");

    static const char *const env64[] = {"IOLENS_MEMORY", "64K", "IOLENS_MEM_ALIGNMENT", "4096", NULL};
    load(env64, "/");
    ck_assert_uint_eq(cfg.memory, 65536);
    ck_assert_int_eq(cfg.mem_alignment, 4096);
    ck_assert_str_eq(cfg.error, "");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, sizes_accept_binary_suffixes);
    tcase_add_test(tc, sizes_reject_garbage);
    tcase_add_test(tc, defaults_without_environment);
    tcase_add_test(tc, default_exclusions_apply);
    tcase_add_test(tc, log_location_is_excluded);
    tcase_add_test(tc, exclude_replaces_defaults_and_include_wins);
    tcase_add_test(tc, empty_exclude_traces_everything_but_the_logs);
    tcase_add_test(tc, mpi_own_files_excluded_by_default);
    tcase_add_test(tc, switches);
    tcase_add_test(tc, too_long_logdir_falls_back_to_the_default);
    tcase_add_test(tc, bad_values_are_shown_escaped);
    tcase_add_test(tc, bad_values_fall_back_and_say_so);
    tcase_add_test(tc, small_memory_is_raised_to_minimum);
    tcase_add_test(tc, log_mode_accepts_read_bits_only);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
