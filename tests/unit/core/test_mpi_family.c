/* The MPI family of a running library, from its MPI_Get_library_version
 * text (lib/core/mpi_family.c): the texts are the libraries' own, as
 * MPICH 4.0.2 and Open MPI 4.1.4 on Debian 12 print them. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/mpi_family.h"

static const char mpich_text[] =
    "MPICH Version:\t4.0.2\nMPICH Release date:\tThu Apr  7 12:34:45 CDT 2022\n"
    "MPICH ABI:\t14:2:2\nMPICH Device:\tch4:ofi\n";
static const char ompi_text[] =
    "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022";

START_TEST(families)
{
    ck_assert_int_eq(iolens_mpi_family_of(mpich_text), IOLENS_MPI_FAMILY_MPICH);
    ck_assert_int_eq(iolens_mpi_family_of(ompi_text), IOLENS_MPI_FAMILY_OPENMPI);
    ck_assert_int_eq(iolens_mpi_family_of("MVAPICH2 Version      :\t2.3.7\n"),
                     IOLENS_MPI_FAMILY_MPICH);
    ck_assert_int_eq(iolens_mpi_family_of("MPI VERSION    : CRAY MPICH version 8.1.4"),
                     IOLENS_MPI_FAMILY_MPICH);
    ck_assert_int_eq(iolens_mpi_family_of("Intel(R) MPI Library 2021.6 for Linux* OS\n"),
                     IOLENS_MPI_FAMILY_MPICH);
    ck_assert_int_eq(iolens_mpi_family_of("Spectrum MPI 10.4"), IOLENS_MPI_FAMILY_UNKNOWN);
    ck_assert_int_eq(iolens_mpi_family_of(""), IOLENS_MPI_FAMILY_UNKNOWN);
    ck_assert_int_eq(iolens_mpi_family_of(NULL), IOLENS_MPI_FAMILY_UNKNOWN);
}
END_TEST

START_TEST(openmpi_major)
{
    ck_assert_int_eq(iolens_mpi_openmpi_major(ompi_text), 4);
    ck_assert_int_eq(iolens_mpi_openmpi_major("Open MPI v5.0.3, package: Open MPI"), 5);
    ck_assert_int_eq(iolens_mpi_openmpi_major("Open MPI vx"), -1);
    ck_assert_int_eq(iolens_mpi_openmpi_major(mpich_text), -1);
    ck_assert_int_eq(iolens_mpi_openmpi_major(NULL), -1);
}
END_TEST

START_TEST(short_names)
{
    char out[128];
    iolens_mpi_family_short_name(mpich_text, out, sizeof out);
    ck_assert_str_eq(out, "MPICH Version: 4.0.2");
    iolens_mpi_family_short_name(ompi_text, out, sizeof out);
    ck_assert_str_eq(out, "Open MPI v4.1.4");
    iolens_mpi_family_short_name(ompi_text, out, 9);
    ck_assert_str_eq(out, "Open MPI");
    iolens_mpi_family_short_name("", out, sizeof out);
    ck_assert_str_eq(out, "");
    iolens_mpi_family_short_name(NULL, out, sizeof out);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(iolens_mpi_family_name(IOLENS_MPI_FAMILY_MPICH), "MPICH");
    ck_assert_str_eq(iolens_mpi_family_name(IOLENS_MPI_FAMILY_OPENMPI), "Open MPI");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mpi_family");
    TCase *tc = tcase_create("family");
    tcase_add_test(tc, families);
    tcase_add_test(tc, openmpi_major);
    tcase_add_test(tc, short_names);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
