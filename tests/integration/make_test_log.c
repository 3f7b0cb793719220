/*
 * Writes a log with known content, through the runtime's own writer
 * (iolens_log_write_file) but without tracing anything, so that the
 * parser tests run without LD_PRELOAD and under the sanitizers.
 *
 *   make_test_log [--forked] [--stdio-twin] [--hdf5] [--intervals]
 *                 [--intervals-extra] [--one-node] [--odd-names] [--markup-names] OUTPUT
 * (--one-node puts every rank on node001, so clock offsets between them
 * must be ignored)
 *
 * --forked marks the log as a forked child's (parent pid 4000).
 * --stdio-twin adds a second STDIO record, for out.dat, a file that also
 * has a POSIX record (written 5 times, 50 bytes, through a stream).
 * --hdf5 adds an HDF5 file at every layer (build_hdf5 below): a third
 * names region, an H5F and an H5D region, and MPI-IO and POSIX records of
 * the same file.
 * --intervals adds two intervals regions (ranks 0 and 1; build_intervals
 * below lists every value and the BPS figures they give).
 * --odd-names adds a names region and a POSIX region of two files whose
 * names test the exports' escaping (build_odd_names below).
 * --markup-names adds a names region and a POSIX region of one file whose
 * name is HTML markup and not UTF-8 (build_markup_names below).
 * --intervals-extra (with --intervals) adds rank 2's intervals region
 * (build_intervals_extra): merged reads and writes, an interval merged
 * across files, out.dat on a second rank, and MPI-IO intervals.
 *
 * Content (the parser tests check it exactly), an MPI job of 4 ranks on
 * 2 nodes, laid out as the collective writer lays it out (NAMES and layer
 * regions repeated, one per rank that has records):
 *   job      uid 1000, user alice, job 4242, /opt/app/bin/sim -n 4 "in put.dat",
 *            hosts node001 node002, MPI library "MPICH Version: 4.1.2" (+ a
 *            second line)
 *   mounts   / ext4 4096, /scratch lustre 1048576, /scratch/runs xfs 4096,
 *            "/home dir" nfs4 0
 *   ranks    0, 1 on node001, 2, 3 on node002, with start and end times
 *   kind 99  an unknown region, which readers must skip
 *   names    two regions: the four files below (explicit ids), plus one
 *            name no record uses (id implied: the hash of the name)
 *   POSIX    two regions:
 *            /scratch/run/out.dat       rank 0, write-only
 *            /home dir/in put.dat       rank -1 (shared by all 4), read-write
 *   STDIO    /tmp/cfg<TAB>file.txt      rank 0, read-only
 *   MPIIO    /scratch/run/ckpt.dat      rank -1 (shared by 2), collective writes
 * The per-rank records' sharing counters are filled as the runtime fills
 * them (iolens_record_fill_own_sharing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolens/log_format.h"
#include "log/log_regions.h"
#include "log/log_writer.h"
#include "format/record_merge.h"

#define ID_OUT 0x1111111111111111ull
#define ID_IN 0x2222222222222222ull
#define ID_CFG 0x3333333333333333ull
#define ID_CKPT 0x5555555555555555ull
#define ID_H5 0x6666666666666666ull
#define ID_TEMP 0x7777777777777777ull
#define ID_PRESS 0x1888888888888888ull

#define UNKNOWN_KIND 99u

/* A fixed-size byte buffer; the content is small and known. */
struct out {
    unsigned char data[16384];
    size_t len;
};

static void put(struct out *o, const void *p, size_t n)
{
    if (n > sizeof o->data - o->len) {
        fprintf(stderr, "make_test_log: buffer too small\n");
        exit(1);
    }
    memcpy(o->data + o->len, p, n);
    o->len += n;
}

static void put_u32(struct out *o, uint32_t v) { put(o, &v, sizeof v); }
static void put_u64(struct out *o, uint64_t v) { put(o, &v, sizeof v); }
static void put_str(struct out *o, const char *s, size_t len)
{
    put_u32(o, (uint32_t)len);
    put(o, s, len);
}
static void put_cstr(struct out *o, const char *s) { put_str(o, s, strlen(s)); }

static void build_job(struct out *o, int forked, uint32_t nodes)
{
    struct iolens_job_fixed j = {
        .uid = 1000,
        .start_time_sec = 1700000000,
        .start_time_nsec = 250000000,
        .end_time_sec = 1700000003,
        .end_time_nsec = 750000000,
        .run_time = 3.5,
        .nprocs = 4,
        .nnodes = nodes,
        .pid = 4321,
        .parent_pid = forked ? 4000 : 0,
        .budget_bytes = 2097152,
        .budget_used = 65536,
        .budget_needed = 65536,
        .folded_opens = 0,
        .folded_files = 0,
        .string_count = IOLENS_JOB_NSTRINGS_MIN,
    };
    static const char args[] = "-n\0" "4\0" "in put.dat";
    put(o, &j, sizeof j);
    put_cstr(o, "4242");
    put_cstr(o, "alice");
    put_cstr(o, "/opt/app/bin/sim");
    put_str(o, args, sizeof args - 1);
    static const char hosts[] = "node001\0node002\0node003\0node004";
    /* the first `nodes` names, each with its NUL separator but the last */
    put_str(o, hosts, nodes * sizeof "node001" - 1);
    put_cstr(o, "0.1.0-test");
    put_cstr(o, "MPICH Version: 4.1.2\nMPICH Release date: Wed Jun  7 15:22:45 CDT 2023\n");
}

/* Rank r: node001 for ranks 0 and 1, node002 for 2 and 3 (with 4 nodes,
 * rank r on node r+1); each starts a quarter second after the previous and
 * ends at 1700000003.5 + r/8. */
static void build_ranks(struct out *o, uint32_t nodes)
{
    put_u32(o, 4);
    for (uint32_t r = 0; r < 4; r++) {
        struct iolens_rank_info ri = {
            .start_time = 1700000000.25 + 0.25 * r,
            .end_time = 1700000003.5 + 0.125 * r,
            .host_index = r / (4 / nodes),
        };
        put(o, &ri, sizeof ri);
    }
}

static void put_mount(struct out *o, const char *point, const char *fstype, uint64_t bsize)
{
    put_u64(o, bsize);
    put_cstr(o, point);
    put_cstr(o, fstype);
}

static void build_mounts(struct out *o)
{
    put_u32(o, 4);
    put_mount(o, "/", "ext4", 4096);
    put_mount(o, "/scratch", "lustre", 1048576);
    put_mount(o, "/scratch/runs", "xfs", 4096); /* must not match /scratch/run */
    put_mount(o, "/home dir", "nfs4", 0);
}

/* A NAMES entry with an explicit id (the fixed ids below are not the
 * hashes of their names)... */
static void put_name(struct out *o, uint64_t id, const char *name)
{
    put_u32(o, (uint32_t)strlen(name) << 1 | 1u);
    put_u64(o, id);
    put(o, name, strlen(name));
}

/* ... and one whose id is implied: the hash of the name. */
static void put_hashed_name(struct out *o, const char *name)
{
    put_u32(o, (uint32_t)strlen(name) << 1);
    put(o, name, strlen(name));
}

/* Two regions, as two ranks would write them. */
static void build_names(struct out *first, struct out *second)
{
    put_u32(first, 2);
    put_name(first, ID_CFG, "/tmp/cfg\tfile.txt");
    put_name(first, ID_OUT, "/scratch/run/out.dat");
    put_u32(second, 3);
    put_hashed_name(second, "/not/used");
    put_name(second, ID_IN, "/home dir/in put.dat");
    put_name(second, ID_CKPT, "/scratch/run/ckpt.dat");
}

/* Written like the runtime's record of 1000 sequential writes, with a
 * little variety: 998 of 4 KiB and 2 of 512 bytes. */
static void fill_out_record(struct iolens_posix_record *r)
{
    memset(r, 0, sizeof *r);
    r->id = ID_OUT;
    r->rank = 0;
    int64_t *c = r->counters;
    c[POSIX_OPENS] = 1;
    c[POSIX_WRITES] = 1000;
    c[POSIX_STATS] = 1;
    c[POSIX_FSYNCS] = 1;
    c[POSIX_MODE] = 0644;
    c[POSIX_BYTES_WRITTEN] = 998 * 4096 + 2 * 512;
    c[POSIX_MAX_BYTE_READ] = -1;
    c[POSIX_MAX_BYTE_WRITTEN] = 998 * 4096 + 2 * 512 - 1;
    c[POSIX_CONSEC_WRITES] = 999;
    c[POSIX_SEQ_WRITES] = 999;
    c[POSIX_MEM_ALIGNMENT] = 8;
    c[POSIX_FILE_NOT_ALIGNED] = 999;
    c[POSIX_FILE_ALIGNMENT] = 1048576;
    c[POSIX_SIZE_WRITE_100_1K] = 2;
    c[POSIX_SIZE_WRITE_1K_10K] = 998;
    c[POSIX_STRIDE1_STRIDE] = 4096;
    c[POSIX_STRIDE1_COUNT] = 997;
    c[POSIX_STRIDE2_STRIDE] = -4096;
    c[POSIX_STRIDE2_COUNT] = 2;
    c[POSIX_ACCESS1_ACCESS] = 4096;
    c[POSIX_ACCESS1_COUNT] = 998;
    c[POSIX_ACCESS2_ACCESS] = 512;
    c[POSIX_ACCESS2_COUNT] = 2;
    c[POSIX_MAX_WRITE_TIME_SIZE] = 4096;
    double *f = r->fcounters;
    f[POSIX_F_OPEN_START_TIMESTAMP] = 0.001;
    f[POSIX_F_WRITE_START_TIMESTAMP] = 0.003;
    f[POSIX_F_CLOSE_START_TIMESTAMP] = 1.6;
    f[POSIX_F_OPEN_END_TIMESTAMP] = 0.002;
    f[POSIX_F_WRITE_END_TIMESTAMP] = 1.5;
    f[POSIX_F_CLOSE_END_TIMESTAMP] = 1.601;
    f[POSIX_F_WRITE_TIME] = 1.25;
    f[POSIX_F_META_TIME] = 0.01;
    f[POSIX_F_MAX_WRITE_TIME] = 0.02;
    iolens_record_fill_own_sharing(iolens_layer_desc_by_kind(IOLENS_REGION_POSIX), r);
}

/* A file shared by the 4 ranks (rank -1), read and written.  Per rank:
 * I/O time 0.25, 0.625, 0, 0.0625 s (sum 0.9375 = read + write + meta),
 * bytes 200, 10240, 0, 10 (sum 10450); rank 2 only opened it.  Mean time
 * 0.234375, variance 0.059326171875; mean bytes 2612.5, variance
 * 19399518.75. */
static void fill_in_record(struct iolens_posix_record *r)
{
    memset(r, 0, sizeof *r);
    r->id = ID_IN;
    r->rank = IOLENS_RANK_ALL;
    int64_t *c = r->counters;
    c[POSIX_OPENS] = 2;
    c[POSIX_READS] = 11;
    c[POSIX_WRITES] = 2;
    c[POSIX_SEEKS] = 3;
    c[POSIX_MODE] = -1;
    c[POSIX_BYTES_READ] = 10 * 1024 + 10;
    c[POSIX_BYTES_WRITTEN] = 200;
    c[POSIX_MAX_BYTE_READ] = 20479;
    c[POSIX_MAX_BYTE_WRITTEN] = 199;
    c[POSIX_CONSEC_READS] = 4;
    c[POSIX_SEQ_READS] = 9;
    c[POSIX_RW_SWITCHES] = 1;
    c[POSIX_MEM_ALIGNMENT] = 8;
    c[POSIX_FILE_ALIGNMENT] = 0;
    c[POSIX_SIZE_READ_0_100] = 1;
    c[POSIX_SIZE_READ_100_1K] = 10;
    c[POSIX_SIZE_WRITE_0_100] = 2;
    c[POSIX_STRIDE1_STRIDE] = 2048;
    c[POSIX_STRIDE1_COUNT] = 5;
    c[POSIX_STRIDE2_STRIDE] = 4096;
    c[POSIX_STRIDE2_COUNT] = 4;
    c[POSIX_STRIDE3_STRIDE] = 0;
    c[POSIX_STRIDE3_COUNT] = 1;
    c[POSIX_ACCESS1_ACCESS] = 1024;
    c[POSIX_ACCESS1_COUNT] = 10;
    c[POSIX_ACCESS2_ACCESS] = 100;
    c[POSIX_ACCESS2_COUNT] = 2;
    c[POSIX_ACCESS3_ACCESS] = 10;
    c[POSIX_ACCESS3_COUNT] = 1;
    c[POSIX_MAX_READ_TIME_SIZE] = 1024;
    c[POSIX_MAX_WRITE_TIME_SIZE] = 100;
    double *f = r->fcounters;
    f[POSIX_F_OPEN_START_TIMESTAMP] = 0.5;
    f[POSIX_F_READ_START_TIMESTAMP] = 0.6;
    f[POSIX_F_WRITE_START_TIMESTAMP] = 2.1;
    f[POSIX_F_CLOSE_START_TIMESTAMP] = 2.4;
    f[POSIX_F_OPEN_END_TIMESTAMP] = 2.5;
    f[POSIX_F_READ_END_TIMESTAMP] = 2.0;
    f[POSIX_F_WRITE_END_TIMESTAMP] = 2.2;
    f[POSIX_F_CLOSE_END_TIMESTAMP] = 2.6;
    f[POSIX_F_READ_TIME] = 0.75;
    f[POSIX_F_WRITE_TIME] = 0.125;
    f[POSIX_F_META_TIME] = 0.0625;
    f[POSIX_F_MAX_READ_TIME] = 0.25;
    f[POSIX_F_MAX_WRITE_TIME] = 0.0625;
    c[POSIX_RANKS_OPENED] = 4;
    c[POSIX_RANKS_IO] = 3;
    c[POSIX_FASTEST_RANK] = 2;
    c[POSIX_FASTEST_RANK_BYTES] = 0;
    c[POSIX_SLOWEST_RANK] = 1;
    c[POSIX_SLOWEST_RANK_BYTES] = 10240;
    f[POSIX_F_FASTEST_RANK_TIME] = 0.0;
    f[POSIX_F_SLOWEST_RANK_TIME] = 0.625;
    f[POSIX_F_VARIANCE_RANK_TIME] = 0.059326171875;
    f[POSIX_F_VARIANCE_RANK_BYTES] = 19399518.75;
}

/* Layer regions go through the runtime's own encoder. */
static void build_layer(struct out *o, uint32_t kind, const void *records, size_t n)
{
    struct iolens_buf b = {0};
    if (iolens_build_layer_region(&b, iolens_layer_desc_by_kind(kind), records, n) != 0) {
        fprintf(stderr, "make_test_log: out of memory\n");
        exit(1);
    }
    put(o, b.data, b.len);
    iolens_buf_free(&b);
}

/* Two regions, one record each, as two ranks would write them. */
static void build_posix(struct out *first, struct out *second)
{
    struct iolens_posix_record r;
    fill_out_record(&r);
    build_layer(first, IOLENS_REGION_POSIX, &r, 1);
    fill_in_record(&r);
    build_layer(second, IOLENS_REGION_POSIX, &r, 1);
}

/* Collective writes of 1 MiB by ranks 1 and 3 (2 each).  Per rank: I/O
 * time 0.25 and 0.5 s, 2 MiB each. */
static void build_mpiio(struct out *o)
{
    struct iolens_mpiio_record r;
    memset(&r, 0, sizeof r);
    r.id = ID_CKPT;
    r.rank = IOLENS_RANK_ALL;
    int64_t *c = r.counters;
    c[MPIIO_COLL_OPENS] = 2;
    c[MPIIO_COLL_WRITES] = 4;
    c[MPIIO_SYNCS] = 2;
    c[MPIIO_HINTS] = 2;
    c[MPIIO_MODE] = 37;
    c[MPIIO_BYTES_WRITTEN] = 4 * 1048576;
    c[MPIIO_SIZE_WRITE_AGG_100K_1M] = 4;
    c[MPIIO_ACCESS1_ACCESS] = 1048576;
    c[MPIIO_ACCESS1_COUNT] = 4;
    c[MPIIO_MAX_WRITE_TIME_SIZE] = 1048576;
    c[MPIIO_RANKS_OPENED] = 2;
    c[MPIIO_RANKS_IO] = 2;
    c[MPIIO_FASTEST_RANK] = 1;
    c[MPIIO_FASTEST_RANK_BYTES] = 2097152;
    c[MPIIO_SLOWEST_RANK] = 3;
    c[MPIIO_SLOWEST_RANK_BYTES] = 2097152;
    double *f = r.fcounters;
    f[MPIIO_F_OPEN_START_TIMESTAMP] = 1.0;
    f[MPIIO_F_WRITE_START_TIMESTAMP] = 1.25;
    f[MPIIO_F_CLOSE_START_TIMESTAMP] = 2.0;
    f[MPIIO_F_OPEN_END_TIMESTAMP] = 1.125;
    f[MPIIO_F_WRITE_END_TIMESTAMP] = 1.875;
    f[MPIIO_F_CLOSE_END_TIMESTAMP] = 2.125;
    f[MPIIO_F_WRITE_TIME] = 0.5;
    f[MPIIO_F_META_TIME] = 0.25;
    f[MPIIO_F_MAX_WRITE_TIME] = 0.25;
    f[MPIIO_F_FASTEST_RANK_TIME] = 0.25;
    f[MPIIO_F_SLOWEST_RANK_TIME] = 0.5;
    f[MPIIO_F_VARIANCE_RANK_TIME] = 0.015625;
    build_layer(o, IOLENS_REGION_MPIIO, &r, 1);
}

/* ---------------------------------------------------------------- HDF5 --
 *
 * /scratch/run/field.h5, created by ranks 1 and 3 with the MPI-IO driver:
 *   H5F  rank -1: 2 creates, 1 flush, metadata time 0.125
 *   H5D  /grid/temp   rank -1: a 20x20 chunked (10x20) double dataset, each
 *        rank writes a 10x20 hyperslab collectively: 2 writes, 3200 bytes,
 *        write 0.25 s + meta 0.0625 s
 *   H5D  /grid/press  rank 1: reads all 100 doubles, 800 bytes, read 0.5 s
 *        + meta 0.03125 s; rank 3: reads a 50-point hyperslab, 400
 *        bytes, read 0.25 s + meta 0.03125 s.  Rank 3's record lacks its
 *        file's id (0), so --stack finds the file by the name prefix.
 *   MPIIO rank -1: 1600 bytes read (0.625 s), 3712 written (0.375 s),
 *        meta 0.125 s: the dataset bytes plus HDF5's metadata
 *   POSIX rank -1: 3648 bytes read (0.5 s, data sieving), 4096 written
 *        (0.25 s), meta 0.0625 s
 */
static void build_hdf5_names(struct out *o)
{
    put_u32(o, 3);
    put_name(o, ID_H5, "/scratch/run/field.h5");
    put_name(o, ID_TEMP, "/scratch/run/field.h5:/grid/temp");
    put_name(o, ID_PRESS, "/scratch/run/field.h5:/grid/press");
}

static void build_h5f(struct out *o)
{
    struct iolens_h5f_record r;
    memset(&r, 0, sizeof r);
    r.id = ID_H5;
    r.rank = IOLENS_RANK_ALL;
    r.counters[H5F_OPENS] = 2; /* both creates: H5F_OPENS counts them too */
    r.counters[H5F_CREATES] = 2;
    r.counters[H5F_FLUSHES] = 1;
    r.counters[H5F_USE_MPIIO] = 1;
    r.counters[H5F_RANKS_OPENED] = 2;
    r.counters[H5F_FASTEST_RANK] = 1;
    r.counters[H5F_SLOWEST_RANK] = 3;
    r.fcounters[H5F_F_OPEN_START_TIMESTAMP] = 0.75;
    r.fcounters[H5F_F_OPEN_END_TIMESTAMP] = 0.875;
    r.fcounters[H5F_F_CLOSE_START_TIMESTAMP] = 3.0;
    r.fcounters[H5F_F_CLOSE_END_TIMESTAMP] = 3.125;
    r.fcounters[H5F_F_META_TIME] = 0.125;
    r.fcounters[H5F_F_FASTEST_RANK_TIME] = 0.0625;
    r.fcounters[H5F_F_SLOWEST_RANK_TIME] = 0.0625;
    build_layer(o, IOLENS_REGION_H5F, &r, 1);
}

/* Shape entry j of an H5D record: size, the extents of a 2-D access
 * (right-aligned: in D4 and D5; d2 0 for a 1-D one, in D5), count. */
static void put_h5d_shape(struct iolens_h5d_record *r, int j, int64_t size, int64_t d1,
                          int64_t d2, int64_t count)
{
    int64_t *c = &r->counters[H5D_ACCESS1_ACCESS + 7 * j];
    c[0] = size;
    c[4] = d2 != 0 ? d1 : 0;
    c[5] = d2 != 0 ? d2 : d1;
    c[6] = count;
}

static void fill_temp_record(struct iolens_h5d_record *r)
{
    memset(r, 0, sizeof *r);
    r->id = ID_TEMP;
    r->rank = IOLENS_RANK_ALL;
    int64_t *c = r->counters;
    c[H5D_OPENS] = 2;
    c[H5D_WRITES] = 2;
    c[H5D_BYTES_WRITTEN] = 3200;
    c[H5D_REGULAR_HYPERSLAB_SELECTS] = 2;
    c[H5D_COLL_ACCESSES] = 2;
    c[H5D_MAX_WRITE_TIME_SIZE] = 1600;
    c[H5D_SIZE_WRITE_AGG_1K_10K] = 2;
    put_h5d_shape(r, 0, 1600, 10, 20, 2);
    c[H5D_DATASPACE_NDIMS] = 2;
    c[H5D_DATASPACE_NPOINTS] = 400;
    c[H5D_DATASPACE_DIM1] = 20;
    c[H5D_DATASPACE_DIM2] = 20;
    c[H5D_DATATYPE_SIZE] = 8;
    c[H5D_LAYOUT] = 2;
    c[H5D_CHUNK_NDIMS] = 2;
    c[H5D_CHUNK_DIM1] = 10;
    c[H5D_CHUNK_DIM2] = 20;
    c[H5D_FILE_REC_ID] = (int64_t)ID_H5;
    c[H5D_RANKS_OPENED] = 2;
    c[H5D_RANKS_IO] = 2;
    c[H5D_FASTEST_RANK] = 1;
    c[H5D_FASTEST_RANK_BYTES] = 1600;
    c[H5D_SLOWEST_RANK] = 3;
    c[H5D_SLOWEST_RANK_BYTES] = 1600;
    double *f = r->fcounters;
    f[H5D_F_OPEN_START_TIMESTAMP] = 1.0;
    f[H5D_F_OPEN_END_TIMESTAMP] = 1.0625;
    f[H5D_F_WRITE_START_TIMESTAMP] = 1.25;
    f[H5D_F_WRITE_END_TIMESTAMP] = 1.5;
    f[H5D_F_WRITE_TIME] = 0.25;
    f[H5D_F_META_TIME] = 0.0625;
    f[H5D_F_MAX_WRITE_TIME] = 0.1875;
    f[H5D_F_FASTEST_RANK_TIME] = 0.125;
    f[H5D_F_SLOWEST_RANK_TIME] = 0.1875;
    f[H5D_F_VARIANCE_RANK_TIME] = 0.0009765625;
}

/* /grid/press, read by rank 1 (whole dataspace) or 3 (a hyperslab). */
static void fill_press_record(struct iolens_h5d_record *r, int64_t rank)
{
    memset(r, 0, sizeof *r);
    r->id = ID_PRESS;
    r->rank = rank;
    int64_t *c = r->counters;
    int64_t bytes = rank == 1 ? 800 : 400;
    c[H5D_OPENS] = 1;
    c[H5D_READS] = 1;
    c[H5D_BYTES_READ] = bytes;
    c[rank == 1 ? H5D_ALL_SELECTS : H5D_REGULAR_HYPERSLAB_SELECTS] = 1;
    c[H5D_INDEP_ACCESSES] = 1;
    c[H5D_MAX_READ_TIME_SIZE] = bytes;
    c[H5D_SIZE_READ_AGG_100_1K] = 1;
    put_h5d_shape(r, 0, bytes, bytes / 8, 0, 1);
    c[H5D_DATASPACE_NDIMS] = 1;
    c[H5D_DATASPACE_NPOINTS] = 100;
    c[H5D_DATASPACE_DIM1] = 100;
    c[H5D_DATATYPE_SIZE] = 8;
    c[H5D_LAYOUT] = 1;
    c[H5D_FILE_REC_ID] = rank == 1 ? (int64_t)ID_H5 : 0;
    double *f = r->fcounters;
    double read = rank == 1 ? 0.5 : 0.25;
    f[H5D_F_OPEN_START_TIMESTAMP] = 2.0;
    f[H5D_F_OPEN_END_TIMESTAMP] = 2.03125;
    f[H5D_F_READ_START_TIMESTAMP] = 2.125;
    f[H5D_F_READ_END_TIMESTAMP] = 2.125 + read;
    f[H5D_F_READ_TIME] = read;
    f[H5D_F_META_TIME] = 0.03125;
    f[H5D_F_MAX_READ_TIME] = read;
    iolens_record_fill_own_sharing(iolens_layer_desc_by_kind(IOLENS_REGION_H5D), r);
}

static void build_h5d(struct out *o)
{
    struct iolens_h5d_record r[3];
    fill_temp_record(&r[0]);
    fill_press_record(&r[1], 1);
    fill_press_record(&r[2], 3);
    build_layer(o, IOLENS_REGION_H5D, r, 3);
}

/* The layers below HDF5 for field.h5: one MPI-IO and one POSIX region. */
static void build_hdf5_lower(struct out *mpiio, struct out *posix)
{
    struct iolens_mpiio_record m;
    memset(&m, 0, sizeof m);
    m.id = ID_H5;
    m.rank = IOLENS_RANK_ALL;
    m.counters[MPIIO_COLL_OPENS] = 2;
    m.counters[MPIIO_INDEP_READS] = 2;
    m.counters[MPIIO_COLL_WRITES] = 2;
    m.counters[MPIIO_INDEP_WRITES] = 1;
    m.counters[MPIIO_BYTES_READ] = 1600;
    m.counters[MPIIO_BYTES_WRITTEN] = 3712;
    m.counters[MPIIO_RANKS_OPENED] = 2;
    m.counters[MPIIO_RANKS_IO] = 2;
    m.fcounters[MPIIO_F_READ_TIME] = 0.625;
    m.fcounters[MPIIO_F_WRITE_TIME] = 0.375;
    m.fcounters[MPIIO_F_META_TIME] = 0.125;
    build_layer(mpiio, IOLENS_REGION_MPIIO, &m, 1);

    struct iolens_posix_record p;
    memset(&p, 0, sizeof p);
    p.id = ID_H5;
    p.rank = IOLENS_RANK_ALL;
    p.counters[POSIX_OPENS] = 2;
    p.counters[POSIX_READS] = 3;
    p.counters[POSIX_WRITES] = 3;
    p.counters[POSIX_BYTES_READ] = 3648;
    p.counters[POSIX_BYTES_WRITTEN] = 4096;
    p.counters[POSIX_MAX_BYTE_READ] = 3647;
    p.counters[POSIX_MAX_BYTE_WRITTEN] = 4095;
    p.counters[POSIX_RANKS_OPENED] = 2;
    p.counters[POSIX_RANKS_IO] = 2;
    p.fcounters[POSIX_F_READ_TIME] = 0.5;
    p.fcounters[POSIX_F_WRITE_TIME] = 0.25;
    p.fcounters[POSIX_F_META_TIME] = 0.0625;
    build_layer(posix, IOLENS_REGION_POSIX, &p, 1);
}

static void build_stdio(struct out *o, int twin)
{
    struct iolens_stdio_record r[2];
    memset(r, 0, sizeof r);
    r[0].id = ID_CFG;
    r[0].rank = 0;
    r[0].counters[STDIO_OPENS] = 1;
    r[0].counters[STDIO_READS] = 3;
    r[0].counters[STDIO_SEEKS] = 1;
    r[0].counters[STDIO_BYTES_READ] = 300;
    r[0].counters[STDIO_MAX_BYTE_READ] = 299;
    r[0].counters[STDIO_MAX_BYTE_WRITTEN] = -1;
    r[0].fcounters[STDIO_F_OPEN_START_TIMESTAMP] = 0.1;
    r[0].fcounters[STDIO_F_READ_START_TIMESTAMP] = 0.2;
    r[0].fcounters[STDIO_F_CLOSE_START_TIMESTAMP] = 0.4;
    r[0].fcounters[STDIO_F_OPEN_END_TIMESTAMP] = 0.11;
    r[0].fcounters[STDIO_F_READ_END_TIMESTAMP] = 0.3;
    r[0].fcounters[STDIO_F_CLOSE_END_TIMESTAMP] = 0.41;
    r[0].fcounters[STDIO_F_READ_TIME] = 0.05;
    r[0].fcounters[STDIO_F_META_TIME] = 0.02;
    r[1].id = ID_OUT;
    r[1].rank = 0;
    r[1].counters[STDIO_OPENS] = 1;
    r[1].counters[STDIO_WRITES] = 5;
    r[1].counters[STDIO_BYTES_WRITTEN] = 50;
    r[1].counters[STDIO_MAX_BYTE_READ] = -1;
    r[1].counters[STDIO_MAX_BYTE_WRITTEN] = 9999999;
    const struct iolens_layer_desc *d = iolens_layer_desc_by_kind(IOLENS_REGION_STDIO);
    iolens_record_fill_own_sharing(d, &r[0]);
    iolens_record_fill_own_sharing(d, &r[1]);
    build_layer(o, IOLENS_REGION_STDIO, r, twin ? 2 : 1);
}

/* ------------------------------------------------------------ intervals --
 *
 * --intervals: access intervals of ranks 0 and 1 (ranks 2 and 3 have
 * none), through the runtime's encoder.  Times are seconds since the job
 * start on each rank's clock; rank 1's clock_offset of +0.5 s puts its
 * times on rank 0's clock.  The job runs 3.5 s.
 *
 * rank 0: clock_offset 0, clock_uncertainty 0.000001
 *   POSIX  error_bound 0, accesses 4, bytes 1835008, sum_duration 1.25
 *     [0.5, 1.0]   in put.dat  1048576 bytes  1 access   READ
 *     [1.0, 1.25]  out.dat      524288 bytes  2 accesses WRITE
 *     [2.0, 2.5]   in put.dat   262144 bytes  1 access   WRITE
 *   STDIO  error_bound 0, accesses 1, bytes 100, sum_duration 0.125
 *     [0.25, 0.375] cfg<TAB>file.txt  100 bytes  1 access  READ
 * rank 1: clock_offset 0.5, clock_uncertainty 0.000002
 *   POSIX  error_bound 0.125, accesses 3, bytes 1052672, sum_duration 0.625
 *     [0.5, 1.0]   in put.dat  1048576 bytes  2 accesses READ (two reads
 *                  0.1875 s each, 0.125 s apart, merged: hence the bound)
 *     [2.0, 2.25]  in put.dat     4096 bytes  1 access   READ|FAILED
 *   kind 99 (unknown, readers skip it): [0, 1.0], 1 byte, 1 access
 *
 * On rank 0's clock rank 1's POSIX intervals are [1.0, 1.5] and
 * [2.5, 2.75].  Expected figures (block size 512):
 *   POSIX whole job: bytes 2887680, B = 5640 blocks, 7 accesses, 5
 *     intervals; the spans cover [0.5, 1.5] + [2.0, 2.75] = 1.75 s, but
 *     rank 1's merged interval [1.0, 1.5] holds only 0.375 s of reads,
 *     [1.0, 1.1875] and [1.3125, 1.5], so the true union is 0.75 + 0.1875
 *     + 0.75 = T = 1.6875 s (1.25 s if the offsets were ignored): bounds
 *     [1.625, 1.75] (the spans less the error bound 0.125 s; the spans),
 *     and the estimate (density 0.375 / 0.5 of rank 1's interval where
 *     rank 0 is idle, [1.25, 1.5]: 0.1875 s) is T exactly.  BPS = 5640 /
 *     1.6875 = 3342.22..., range [5640 / 1.75, 5640 / 1.625],
 *     MiB/s = 2887680 / 2^20 / 1.6875 = 1.6319..., busy 1.6875 / 3.5,
 *     sum of durations 1.875 s
 *   POSIX in put.dat (shared by ranks 0 and 1): bytes 2363392, B = 4616,
 *     4 intervals, 5 accesses, T = 1.75 s
 *   POSIX out.dat (rank 0 only): bytes 524288, B = 1024, T = 0.25 s
 *   STDIO: bytes 100, B = 100 / 512 = 0.195312 (not rounded), T = 0.125 s,
 *     busy 3.57%
 */
static void put_intervals(struct out *o, const struct iolens_intervals_rank *in)
{
    struct iolens_buf b = {0};
    if (iolens_encode_intervals_region(&b, in) != 0) {
        fprintf(stderr, "make_test_log: out of memory\n");
        exit(1);
    }
    put(o, b.data, b.len);
    iolens_buf_free(&b);
}

static void build_intervals(struct out *rank0, struct out *rank1)
{
    static const struct iolens_interval posix0[] = {
        {0.5, 1.0, ID_IN, 1048576, 1, IOLENS_IV_READ, 0.5},
        {1.0, 1.25, ID_OUT, 524288, 2, IOLENS_IV_WRITE, 0.25},
        {2.0, 2.5, ID_IN, 262144, 1, IOLENS_IV_WRITE, 0.5},
    };
    static const struct iolens_interval stdio0[] = {
        {0.25, 0.375, ID_CFG, 100, 1, IOLENS_IV_READ, 0.125},
    };
    static const struct iolens_interval posix1[] = {
        {0.5, 1.0, ID_IN, 1048576, 2, IOLENS_IV_READ, 0.375},
        {2.0, 2.25, ID_IN, 4096, 1, IOLENS_IV_READ | IOLENS_IV_FAILED, 0.25},
    };
    static const struct iolens_interval future1[] = {{0.0, 1.0, ID_IN, 1, 1, 0, 1.0}};
    const struct iolens_intervals_layer_in layers0[] = {
        {IOLENS_REGION_POSIX, posix0, 3, 0.0, 4, 1835008, 1.25, 0},
        {IOLENS_REGION_STDIO, stdio0, 1, 0.0, 1, 100, 0.125, 0},
    };
    const struct iolens_intervals_layer_in layers1[] = {
        {IOLENS_REGION_POSIX, posix1, 2, 0.125, 3, 1052672, 0.625, 0},
        {UNKNOWN_KIND, future1, 1, 0.0, 1, 1, 1.0, 0},
    };
    put_intervals(rank0, &(struct iolens_intervals_rank){0, 0.0, 0.000001, layers0, 2, NULL});
    put_intervals(rank1, &(struct iolens_intervals_rank){1, 0.5, 0.000002, layers1, 2, NULL});
}

/*
 * --intervals-extra: rank 2, clock_offset -0.25 s, clock_uncertainty
 * 0.000004, for the cases the parser treats apart:
 *   POSIX  error_bound 0, accesses 4, bytes 3072, sum_duration 0.3125
 *     [3.0, 3.25]   out.dat  1024 bytes  2 accesses  READ|WRITE (merged:
 *                   --timeseries cannot split it, bytes_read_write)
 *     [3.25, 3.375] <other files> (id 1)  2048 bytes  2 accesses
 *                   WRITE|MIXED (merged across files: no file's)
 *   MPIIO  error_bound 0, accesses 3, bytes 5120, sum_duration 0.75
 *     [3.0, 3.5]    ckpt.dat  4096 bytes  1 access  WRITE
 *     [3.75, 3.875] and [4.0, 4.125]  id 0x7777... (no name without
 *                   --hdf5)  512 bytes each  1 access  READ
 * On rank 0's clock: POSIX [2.75, 3.0], [3.0, 3.125]; MPIIO [2.75, 3.25],
 * [3.5, 3.625], [3.75, 3.875].  out.dat then has intervals on two ranks
 * (shared by its intervals, though its only record is rank 0's); ckpt.dat
 * has a reduced record (rank -1) and intervals on one rank (shared by its
 * record); file 0x7777... has two intervals, both on rank 2, and no
 * record: not shared.
 */
static void build_intervals_extra(struct out *rank2)
{
    static const struct iolens_interval posix2[] = {
        {3.0, 3.25, ID_OUT, 1024, 2, IOLENS_IV_READ | IOLENS_IV_WRITE, 0.25},
        {3.25, 3.375, IOLENS_ID_OTHER_FILES, 2048, 2, IOLENS_IV_WRITE | IOLENS_IV_MIXED,
         0.125},
    };
    static const struct iolens_interval mpiio2[] = {
        {3.0, 3.5, ID_CKPT, 4096, 1, IOLENS_IV_WRITE, 0.5},
        {3.75, 3.875, ID_TEMP, 512, 1, IOLENS_IV_READ, 0.125},
        {4.0, 4.125, ID_TEMP, 512, 1, IOLENS_IV_READ, 0.125},
    };
    const struct iolens_intervals_layer_in layers2[] = {
        {IOLENS_REGION_POSIX, posix2, 2, 0.0, 4, 3072, 0.3125, 0},
        {IOLENS_REGION_MPIIO, mpiio2, 3, 0.0, 3, 5120, 0.75, 0},
    };
    put_intervals(rank2, &(struct iolens_intervals_rank){2, -0.25, 0.000004, layers2, 2, NULL});
}

/* --------------------------------------------------------- odd names --
 *
 * --odd-names: two per-rank POSIX records whose names are hard to export:
 *   ODD_BAD   rank 2: "/scratch/run/bad" 0xFF 0xFE "\"q\\,x" LF ".dat"
 *             (not UTF-8; a quote, a backslash, a comma, a newline),
 *             12345 bytes written in 3 writes, write 0.5 s, meta 0.25 s
 *   ODD_CAFE  rank 3: "/scratch/run/caf" U+00E9 ",\"1\".dat" (valid
 *             UTF-8), 777 bytes read in 1 read, read 0.125 s
 */
#define ID_ODD_BAD 0x0ddbad0000000001ull
#define ID_ODD_CAFE 0x0ddcafe000000002ull
static const char odd_bad_name[] = "/scratch/run/bad\xff\xfe\"q\\,x\n.dat";
static const char odd_cafe_name[] = "/scratch/run/caf\xc3\xa9,\"1\".dat";

static void fill_odd_record(struct iolens_posix_record *r, uint64_t id, int64_t rank)
{
    memset(r, 0, sizeof *r);
    r->id = id;
    r->rank = rank;
    r->counters[POSIX_OPENS] = 1;
    r->counters[POSIX_MAX_BYTE_READ] = -1;
    r->counters[POSIX_MAX_BYTE_WRITTEN] = -1;
}

static void build_odd_names(struct out *names, struct out *posix)
{
    put_u32(names, 2);
    put_name(names, ID_ODD_BAD, odd_bad_name);
    put_name(names, ID_ODD_CAFE, odd_cafe_name);
    struct iolens_posix_record r[2];
    fill_odd_record(&r[0], ID_ODD_BAD, 2);
    r[0].counters[POSIX_WRITES] = 3;
    r[0].counters[POSIX_BYTES_WRITTEN] = 12345;
    r[0].counters[POSIX_MAX_BYTE_WRITTEN] = 12344;
    r[0].fcounters[POSIX_F_WRITE_TIME] = 0.5;
    r[0].fcounters[POSIX_F_META_TIME] = 0.25;
    fill_odd_record(&r[1], ID_ODD_CAFE, 3);
    r[1].counters[POSIX_READS] = 1;
    r[1].counters[POSIX_BYTES_READ] = 777;
    r[1].counters[POSIX_MAX_BYTE_READ] = 776;
    r[1].fcounters[POSIX_F_READ_TIME] = 0.125;
    iolens_record_fill_own_sharing(iolens_layer_desc_by_kind(IOLENS_REGION_POSIX), &r[0]);
    iolens_record_fill_own_sharing(iolens_layer_desc_by_kind(IOLENS_REGION_POSIX), &r[1]);
    build_layer(posix, IOLENS_REGION_POSIX, r, 2);
}

/* ------------------------------------------------------- markup names --
 *
 * --markup-names: one per-rank POSIX record whose name would be markup if
 * a report copied it ("<b>", "&amp", quotes) and has a stray byte 0x80
 * (not UTF-8):
 *   ID_MARKUP  rank 1: "/scratch/<b>x&amp;\"y'</b>" 0x80 ".dat",
 *              4321 bytes written in 1 write, write 0.0625 s
 */
#define ID_MARKUP 0x0a1b2c3d00000003ull
static const char markup_name[] = "/scratch/<b>x&amp;\"y'</b>\x80.dat";

static void build_markup_names(struct out *names, struct out *posix)
{
    put_u32(names, 1);
    put_name(names, ID_MARKUP, markup_name);
    struct iolens_posix_record r;
    fill_odd_record(&r, ID_MARKUP, 1);
    r.counters[POSIX_WRITES] = 1;
    r.counters[POSIX_BYTES_WRITTEN] = 4321;
    r.counters[POSIX_MAX_BYTE_WRITTEN] = 4320;
    r.fcounters[POSIX_F_WRITE_TIME] = 0.0625;
    iolens_record_fill_own_sharing(iolens_layer_desc_by_kind(IOLENS_REGION_POSIX), &r);
    build_layer(posix, IOLENS_REGION_POSIX, &r, 1);
}

int main(int argc, char **argv)
{
    int forked = 0, twin = 0, hdf5 = 0, intervals = 0, extra = 0, one_node = 0, odd = 0;
    int markup = 0;
    int i = 1;
    for (; i < argc - 1; i++) {
        if (strcmp(argv[i], "--forked") == 0)
            forked = 1;
        else if (strcmp(argv[i], "--stdio-twin") == 0)
            twin = 1;
        else if (strcmp(argv[i], "--hdf5") == 0)
            hdf5 = 1;
        else if (strcmp(argv[i], "--intervals") == 0)
            intervals = 1;
        else if (strcmp(argv[i], "--one-node") == 0)
            one_node = 1;
        else if (strcmp(argv[i], "--intervals-extra") == 0)
            extra = 1;
        else if (strcmp(argv[i], "--odd-names") == 0)
            odd = 1;
        else if (strcmp(argv[i], "--markup-names") == 0)
            markup = 1;
        else
            break;
    }
    if (i != argc - 1 || (extra && !intervals)) {
        fprintf(stderr, "usage: make_test_log [--forked] [--stdio-twin] [--hdf5] [--intervals] "
                        "[--intervals-extra] [--one-node] [--odd-names] [--markup-names] "
                        "OUTPUT\n");
        return 1;
    }
    const char *path = argv[i];
    static struct out job, mounts, ranks, names1, names2, posix1, posix2, stdio_o, mpiio;
    static struct out names3, h5f, h5d, mpiio3, posix3, iv0, iv1, iv2, names4, posix4;
    static struct out names5, posix5;
    static const char future[] = "a region kind from a later version";
    /* With intervals every rank is on a node of its own: their clock
     * offsets are then real (ranks of one node share a clock). */
    uint32_t nodes = one_node ? 1 : intervals ? 4 : 2;
    build_job(&job, forked, nodes);
    build_mounts(&mounts);
    build_ranks(&ranks, nodes);
    build_names(&names1, &names2);
    build_posix(&posix1, &posix2);
    build_stdio(&stdio_o, twin);
    build_mpiio(&mpiio);
    if (hdf5) {
        build_hdf5_names(&names3);
        build_h5f(&h5f);
        build_h5d(&h5d);
        build_hdf5_lower(&mpiio3, &posix3);
    }
    if (intervals)
        build_intervals(&iv0, &iv1);
    if (extra)
        build_intervals_extra(&iv2);
    if (odd)
        build_odd_names(&names4, &posix4);
    if (markup)
        build_markup_names(&names5, &posix5);
    const struct iolens_region_src base[] = {
        {IOLENS_REGION_JOB, IOLENS_JOB_VERSION, job.data, job.len},
        {IOLENS_REGION_MOUNTS, IOLENS_MOUNTS_VERSION, mounts.data, mounts.len},
        {IOLENS_REGION_RANKS, IOLENS_RANKS_VERSION, ranks.data, ranks.len},
        {UNKNOWN_KIND, 1, future, sizeof future - 1},
        {IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, names1.data, names1.len},
        {IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, posix1.data, posix1.len},
        {IOLENS_REGION_STDIO, IOLENS_STDIO_VERSION, stdio_o.data, stdio_o.len},
        {IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, names2.data, names2.len},
        {IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, posix2.data, posix2.len},
        {IOLENS_REGION_MPIIO, IOLENS_MPIIO_VERSION, mpiio.data, mpiio.len},
        /* --hdf5 only: a third rank's regions */
        {IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, names3.data, names3.len},
        {IOLENS_REGION_H5F, IOLENS_H5F_VERSION, h5f.data, h5f.len},
        {IOLENS_REGION_H5D, IOLENS_H5D_VERSION, h5d.data, h5d.len},
        {IOLENS_REGION_MPIIO, IOLENS_MPIIO_VERSION, mpiio3.data, mpiio3.len},
        {IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, posix3.data, posix3.len},
    };
    const struct iolens_region_src iv_regions[] = {
        {IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, iv0.data, iv0.len},
        {IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, iv1.data, iv1.len},
        {IOLENS_REGION_INTERVALS, IOLENS_INTERVALS_VERSION, iv2.data, iv2.len},
    };
    char err[256];
    uint64_t flags = forked ? IOLENS_FLAG_FORKED : 0;
    /* the last 5 of base are --hdf5's */
    const struct iolens_region_src odd_regions[] = {
        {IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, names4.data, names4.len},
        {IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, posix4.data, posix4.len},
    };
    const struct iolens_region_src markup_regions[] = {
        {IOLENS_REGION_NAMES, IOLENS_NAMES_VERSION, names5.data, names5.len},
        {IOLENS_REGION_POSIX, IOLENS_POSIX_VERSION, posix5.data, posix5.len},
    };
    struct iolens_region_src regions[sizeof base / sizeof base[0] + 3 + 2 + 2];
    unsigned n = sizeof base / sizeof base[0] - (hdf5 ? 0 : 5);
    memcpy(regions, base, n * sizeof base[0]);
    if (intervals) {
        unsigned niv = extra ? 3 : 2;
        memcpy(regions + n, iv_regions, niv * sizeof iv_regions[0]);
        n += niv;
    }
    if (odd) {
        memcpy(regions + n, odd_regions, sizeof odd_regions);
        n += 2;
    }
    if (markup) {
        memcpy(regions + n, markup_regions, sizeof markup_regions);
        n += 2;
    }
    if (iolens_log_write_file(path, flags, regions, n, err, sizeof err) != 0) {
        fprintf(stderr, "make_test_log: %s: %s\n", path, err);
        return 1;
    }
    return 0;
}
