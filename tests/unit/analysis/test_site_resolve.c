/* The call-site resolver (util/analysis/site_resolve.c) on a program built
 * here, at test time, with the build's compiler ($IOLENS_CC) from
 * tests/unit/analysis/site_prog: two sources and a shared library, each
 * call marked by a SITE tag comment.  The program itself prints, for each
 * marked call, the return address minus its object's load bias and that
 * object's build-id (site_record.h); the expected function is the one
 * around the call and the expected line the tag's line, found by reading
 * the source (an inlined function's call is named after it).  Then the same program stripped, with its debug information
 * split off (by build-id and by .gnu_debuglink), rebuilt with a change,
 * and paths that are no program at all. */
#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/site_resolve.h"
#include "hex_bytes.h"

#define MAX_SITES 8

struct site {
    char tag[64];
    uint64_t offset;
    unsigned char build_id[64];
    size_t build_id_len;
};

static char dir[4096];     /* the scratch directory everything is built in */
static struct site pie_sites[MAX_SITES], nopie_sites[MAX_SITES];
static size_t pie_count, nopie_count;

static const char *path_in(const char *name)
{
    static char paths[8][4096];
    static unsigned next;
    char *p = paths[next++ % 8];
    int len = snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    ck_assert(len > 0 && (size_t)len < sizeof paths[0]);
    return p;
}

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
    char cmd[16384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "test_site_resolve: failed (%d): %s\n", rc, cmd);
    return rc;
}

/* Runs PROGRAM and keeps the sites it prints (site_record.h's lines). */
static size_t run_program(const char *program, struct site *sites)
{
    FILE *f = popen(program, "r");
    if (!f)
        return 0;
    size_t n = 0;
    char line[512], tag[64], hex[160];
    unsigned long long offset;
    while (fgets(line, sizeof line, f) && n < MAX_SITES) {
        if (sscanf(line, "%63s %llx %159s", tag, &offset, hex) != 3)
            continue;
        snprintf(sites[n].tag, sizeof sites[n].tag, "%s", tag);
        sites[n].offset = offset;
        sites[n].build_id_len = hex_bytes(hex, sites[n].build_id, sizeof sites[n].build_id);
        n++;
    }
    return pclose(f) == 0 ? n : 0;
}

static const struct site *find_site(const struct site *sites, size_t n, const char *tag)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(sites[i].tag, tag) == 0)
            return &sites[i];
    return NULL;
}

static const struct site *site_named(const struct site *sites, size_t n, const char *tag)
{
    const struct site *s = find_site(sites, n, tag);
    ck_assert_msg(s != NULL, "the program printed no site %s", tag);
    return s;
}

/* The line of SOURCE (in the scratch directory) that holds TAG's comment. */
static unsigned tag_line(const char *source, const char *tag)
{
    char want[128], line[1024];
    snprintf(want, sizeof want, "/* SITE:%s */", tag);
    FILE *f = fopen(path_in(source), "r");
    ck_assert_ptr_nonnull(f);
    unsigned number = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        if (strstr(line, want)) {
            found = number;
            break;
        }
    }
    fclose(f);
    ck_assert_uint_gt(found, 0);
    return found;
}

static struct iolens_site_where resolve_with(struct iolens_site_resolver *r, const char *module,
                                             const struct site *s)
{
    struct iolens_site_where w;
    memset(&w, 0x5a, sizeof w); /* every field must be set, whatever the outcome */
    iolens_site_resolve(r, module, s->build_id, s->build_id_len, s->offset, &w);
    return w;
}

static void assert_resolved(const struct iolens_site_where *w, const char *function,
                            const char *source, const char *tag)
{
    ck_assert_int_eq(w->status, IOLENS_SITE_RESOLVED);
    ck_assert_str_eq(w->function, function);
    /* Absolute, and the source itself (libsite.so's names it from obj/ as
     * ../site_lib.c). */
    ck_assert_msg(w->file[0] == '/', "%s is not absolute", w->file);
    char *got = realpath(w->file, NULL), *want = realpath(path_in(source), NULL);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(got, want);
    free(got);
    free(want);
    ck_assert_uint_eq(w->line, tag_line(source, tag));
}

static void assert_unresolved(const struct iolens_site_where *w, enum iolens_site_status status)
{
    ck_assert_int_eq(w->status, status);
    ck_assert_str_eq(w->function, "");
    ck_assert_str_eq(w->file, "");
    ck_assert_uint_eq(w->line, 0);
}

/* Each marked call of the PIE program, its library and the non-PIE one. */
static void check_program_sites(const struct site *sites, size_t n, const char *program,
                                 struct iolens_site_resolver *r)
{
    struct iolens_site_where w;
    w = resolve_with(r, path_in(program), site_named(sites, n, "main"));
    assert_resolved(&w, "main", "site_main.c", "main");
    w = resolve_with(r, path_in(program), site_named(sites, n, "compute_step"));
    assert_resolved(&w, "compute_step", "site_main.c", "compute_step");
    w = resolve_with(r, path_in(program), site_named(sites, n, "write_particles"));
    assert_resolved(&w, "write_particles", "site_io.c", "write_particles");
    w = resolve_with(r, path_in(program), site_named(sites, n, "pack_particles"));
    assert_resolved(&w, "pack_particles", "site_io.c", "pack_particles");
}

START_TEST(pie_program_resolves)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(pie_count, 5);
    check_program_sites(pie_sites, pie_count, "prog", r);
    iolens_site_resolver_free(r);
}
END_TEST

START_TEST(non_pie_program_resolves)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    ck_assert_uint_eq(nopie_count, 4);
    /* A non-PIE program is not relocated: its offsets are its addresses. */
    ck_assert_uint_gt(site_named(nopie_sites, nopie_count, "main")->offset, 0x400000);
    check_program_sites(nopie_sites, nopie_count, "prog_nopie", r);
    iolens_site_resolver_free(r);
}
END_TEST

START_TEST(shared_library_resolves)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    const struct site *s = site_named(pie_sites, pie_count, "lib_checkpoint");
    struct iolens_site_where w = resolve_with(r, path_in("libsite.so"), s);
    assert_resolved(&w, "lib_checkpoint", "site_lib.c", "lib_checkpoint");
    /* The library's site against the program: another build-id. */
    w = resolve_with(r, path_in("prog"), s);
    assert_unresolved(&w, IOLENS_SITE_CHANGED);
    iolens_site_resolver_free(r);
}
END_TEST

/* A log without build-ids still resolves (unverified). */
START_TEST(no_build_id_in_log_resolves)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    struct site s = *site_named(pie_sites, pie_count, "write_particles");
    s.build_id_len = 0;
    struct iolens_site_where w = resolve_with(r, path_in("prog_changed"), &s);
    ck_assert_int_eq(w.status, IOLENS_SITE_RESOLVED);
    w = resolve_with(r, path_in("prog"), &s);
    assert_resolved(&w, "write_particles", "site_io.c", "write_particles");
    iolens_site_resolver_free(r);
}
END_TEST

START_TEST(stripped_program_has_no_debug)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    const char *tags[] = {"main", "compute_step", "write_particles", "pack_particles"};
    for (size_t i = 0; i < 4; i++) {
        struct iolens_site_where w =
            resolve_with(r, path_in("stripped/prog"), site_named(pie_sites, pie_count, tags[i]));
        assert_unresolved(&w, IOLENS_SITE_NO_DEBUG);
    }
    iolens_site_resolver_free(r);
}
END_TEST

/* A stripped library keeps its exported functions in .dynsym: the
 * function without its line. */
START_TEST(stripped_library_names_exported_function)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    struct iolens_site_where w = resolve_with(r, path_in("stripped/libsite.so"),
                                              site_named(pie_sites, pie_count, "lib_checkpoint"));
    ck_assert_int_eq(w.status, IOLENS_SITE_RESOLVED);
    ck_assert_str_eq(w.function, "lib_checkpoint");
    ck_assert_str_eq(w.file, "");
    ck_assert_uint_eq(w.line, 0);
    iolens_site_resolver_free(r);
}
END_TEST

START_TEST(split_debug_by_build_id)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(path_in("debug"));
    ck_assert_ptr_nonnull(r);
    check_program_sites(pie_sites, pie_count, "stripped/prog", r);
    struct iolens_site_where w = resolve_with(r, path_in("stripped/libsite.so"),
                                              site_named(pie_sites, pie_count, "lib_checkpoint"));
    assert_resolved(&w, "lib_checkpoint", "site_lib.c", "lib_checkpoint");
    iolens_site_resolver_free(r);
}
END_TEST

/* The debug file found by the .gnu_debuglink name the stripped program
 * carries, in the given directory (no .build-id tree there). */
START_TEST(split_debug_by_debuglink)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(path_in("linked-debug"));
    check_program_sites(pie_sites, pie_count, "linked/prog", r);
    iolens_site_resolver_free(r);
    /* Without the directory, nothing finds it. */
    r = iolens_site_resolver_new(NULL);
    struct iolens_site_where w =
        resolve_with(r, path_in("linked/prog"), site_named(pie_sites, pie_count, "main"));
    assert_unresolved(&w, IOLENS_SITE_NO_DEBUG);
    iolens_site_resolver_free(r);
}
END_TEST

START_TEST(rebuilt_program_is_changed)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(path_in("debug"));
    const char *tags[] = {"main", "compute_step", "write_particles", "pack_particles"};
    for (size_t i = 0; i < 4; i++) {
        const struct site *s = site_named(pie_sites, pie_count, tags[i]);
        struct iolens_site_where w = resolve_with(r, path_in("prog_changed"), s);
        assert_unresolved(&w, IOLENS_SITE_CHANGED);
        w = resolve_with(r, path_in("prog_nopie"), s);
        assert_unresolved(&w, IOLENS_SITE_CHANGED);
        /* A build-id that is only a prefix of the module's is another one. */
        struct site shorter = *s;
        shorter.build_id_len--;
        w = resolve_with(r, path_in("prog"), &shorter);
        assert_unresolved(&w, IOLENS_SITE_CHANGED);
    }
    iolens_site_resolver_free(r);
}
END_TEST

START_TEST(hostile_module_paths)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new("/nonexistent/debug/dir");
    ck_assert_ptr_nonnull(r);
    const struct site *s = site_named(pie_sites, pie_count, "main");
    const char *missing[] = {"/nonexistent/prog", dir, path_in("fifo"), "/dev/zero",
                             path_in("garbage"), path_in("empty"), path_in("archive.a"), "",
                             "relative/nothing", "/proc/self/maps"};
    for (size_t i = 0; i < sizeof missing / sizeof *missing; i++) {
        struct iolens_site_where w = resolve_with(r, missing[i], s);
        assert_unresolved(&w, IOLENS_SITE_MISSING);
    }
    struct iolens_site_where w;
    iolens_site_resolve(r, NULL, s->build_id, s->build_id_len, s->offset, &w);
    assert_unresolved(&w, IOLENS_SITE_MISSING);
    /* Only the ELF header and a little more, and the program's first page
     * followed by 4 GiB of holes: no crash, nothing named. */
    const char *broken[] = {path_in("truncated"), path_in("huge")};
    for (size_t i = 0; i < 2; i++) {
        w = resolve_with(r, broken[i], s);
        ck_assert(w.status == IOLENS_SITE_MISSING || w.status == IOLENS_SITE_CHANGED ||
                  w.status == IOLENS_SITE_NO_DEBUG);
        ck_assert_str_eq(w.function, "");
    }
    iolens_site_resolver_free(r);
}
END_TEST

START_TEST(offsets_outside_the_module)
{
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    struct site s = *site_named(pie_sites, pie_count, "main");
    const uint64_t offsets[] = {0, 1, 0xffffffffffffULL, UINT64_MAX, UINT64_MAX - 0x1000};
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        s.offset = offsets[i];
        struct iolens_site_where w = resolve_with(r, path_in("prog"), &s);
        assert_unresolved(&w, IOLENS_SITE_NO_DEBUG);
        w = resolve_with(r, path_in("prog_nopie"), &(struct site){.offset = offsets[i]});
        assert_unresolved(&w, IOLENS_SITE_NO_DEBUG);
    }
    iolens_site_resolver_free(r);
}
END_TEST

static int open_descriptors(void)
{
    DIR *d = opendir("/proc/self/fd");
    ck_assert_ptr_nonnull(d);
    int n = 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

/* More modules than the cache keeps (64): every one still resolves, the
 * first ones again after they were evicted, with a bounded number of
 * descriptors open, and none left after the resolver is freed. */
START_TEST(more_modules_than_the_cache)
{
    int before = open_descriptors();
    struct iolens_site_resolver *r = iolens_site_resolver_new(NULL);
    const struct site *s = site_named(pie_sites, pie_count, "compute_step");
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 100; i++) {
            char name[64];
            snprintf(name, sizeof name, "links/prog%d", i);
            struct iolens_site_where w = resolve_with(r, path_in(name), s);
            ck_assert_int_eq(w.status, IOLENS_SITE_RESOLVED);
            ck_assert_str_eq(w.function, "compute_step");
            ck_assert_uint_eq(w.line, tag_line("site_main.c", "compute_step"));
        }
        ck_assert_int_le(open_descriptors(), before + 64);
    }
    iolens_site_resolver_free(r);
    ck_assert_int_eq(open_descriptors(), before);
}
END_TEST

static int quoted_safely(const char *s)
{
    return !strchr(s, '\'');
}

/* The programs, built in DIR from the sources.  0 on success. */
static int build_programs(const char *cc, const char *srcdir)
{
    const char *flags = "-g -O0 -Wall -Wextra";
    const char *d = dir;
    return run("cd '%s/tests/unit/analysis/site_prog' && "
               "cp site_record.h site_main.c site_io.c site_lib.c '%s'",
               srcdir, d) ||
           run("cd '%s' && mkdir obj && cd obj && %s %s -fPIC -shared -o ../libsite.so "
               "../site_lib.c",
               d, cc, flags) ||
           run("cd '%s' && %s %s -fPIE -pie -DSITE_WITH_LIB -o prog site_main.c site_io.c "
               "-L. -lsite -Wl,-rpath,'%s'",
               d, cc, flags, d) ||
           run("cd '%s' && %s %s -fPIE -pie -DSITE_WITH_LIB -DSITE_VARIANT -o prog_changed "
               "site_main.c site_io.c -L. -lsite -Wl,-rpath,'%s'",
               d, cc, flags, d) ||
           run("cd '%s' && %s %s -fno-pie -no-pie -o prog_nopie site_main.c site_io.c", d, cc,
               flags);
}

/* Stripped copies of the program and library with their debug
 * information split off; paths that are no program.  0 on success. */
static int build_variants(void)
{
    const char *d = dir;
    if (run("cd '%s' && mkdir stripped debug linked linked-debug links && "
            "strip -o stripped/prog prog && strip -o stripped/libsite.so libsite.so",
            d))
        return -1;
    /* Under debug/.build-id, by the build-id the program printed. */
    const char *module[] = {"prog", "libsite.so"}, *tag[] = {"main", "lib_checkpoint"};
    for (size_t i = 0; i < 2; i++) {
        const struct site *s = find_site(pie_sites, pie_count, tag[i]);
        if (!s || s->build_id_len < 2)
            return -1;
        char hex[129] = "";
        for (size_t j = 0; j < s->build_id_len; j++)
            snprintf(hex + 2 * j, 3, "%02x", s->build_id[j]);
        if (
            run("cd '%s' && mkdir -p debug/.build-id/%.2s && "
                "objcopy --only-keep-debug %s debug/.build-id/%.2s/%s.debug",
                d, hex, module[i], hex, hex + 2))
            return -1;
    }
    /* A stripped program that names its debug file by .gnu_debuglink. */
    if (run("cd '%s' && objcopy --only-keep-debug prog linked-debug/prog.dbg && "
            "strip -o linked/prog.tmp prog && cd linked && "
            "objcopy --add-gnu-debuglink=../linked-debug/prog.dbg prog.tmp prog && rm prog.tmp",
            d))
        return -1;
    /* Paths no program is at; 100 names for the same program. */
    return run("cd '%s' && mkfifo fifo && head -c 100000 /dev/urandom >garbage && : >empty && "
               "head -c 200 prog >truncated && head -c 4096 prog >huge && truncate -s 4G huge && printf '!<arch>\\n' >archive.a && "
               "i=0; while [ $i -lt 100 ]; do ln -s ../prog links/prog$i; i=$((i+1)); done",
               d);
}

static Suite *site_resolve_suite(void)
{
    Suite *s = suite_create("site_resolve");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, pie_program_resolves);
    tcase_add_test(tc, non_pie_program_resolves);
    tcase_add_test(tc, shared_library_resolves);
    tcase_add_test(tc, no_build_id_in_log_resolves);
    tcase_add_test(tc, stripped_program_has_no_debug);
    tcase_add_test(tc, stripped_library_names_exported_function);
    tcase_add_test(tc, split_debug_by_build_id);
    tcase_add_test(tc, split_debug_by_debuglink);
    tcase_add_test(tc, rebuilt_program_is_changed);
    tcase_add_test(tc, hostile_module_paths);
    tcase_add_test(tc, offsets_outside_the_module);
    tcase_add_test(tc, more_modules_than_the_cache);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *srcdir = getenv("IOLENS_SRCDIR");
    const char *cc = getenv("IOLENS_CC");
    if (!srcdir || !quoted_safely(srcdir)) {
        fprintf(stderr, "SKIP: needs IOLENS_SRCDIR (make check sets it)\n");
        return 77;
    }
    if (!cc || !*cc)
        cc = "cc";
    /* No debug file from the network: the tests say where each one is. */
    unsetenv("DEBUGINFOD_URLS");
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/iolens-site-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!quoted_safely(dir) || !mkdtemp(dir)) {
        perror("test_site_resolve: mkdtemp");
        return 1;
    }
    int failed = 1;
    char program[8192];
    snprintf(program, sizeof program, "'%s/prog'", dir);
    if (build_programs(cc, srcdir) == 0 && (pie_count = run_program(program, pie_sites)) > 0 &&
        build_variants() == 0) {
        snprintf(program, sizeof program, "'%s/prog_nopie'", dir);
        nopie_count = run_program(program, nopie_sites);
        SRunner *sr = srunner_create(site_resolve_suite());
        srunner_run_all(sr, CK_NORMAL);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
    } else {
        fprintf(stderr, "test_site_resolve: could not build the test program in %s\n", dir);
    }
    run("rm -rf '%s'", dir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
