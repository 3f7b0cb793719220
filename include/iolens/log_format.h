/*
 * iolens log format, version 1.
 *
 * This is the only definition of the on-disk format.  The runtime (lib/)
 * writes it and the reader (util/) parses it; neither keeps a private copy.
 * The counter tables below are X-macros: each one feeds the counter enum,
 * the printed counter names and the generated documentation.
 *
 * Layout of a log file (all integers little-endian, as written by x86_64
 * and aarch64; the byte-order field lets a reader detect anything else):
 *
 *   struct iolens_file_header           fixed size, CRC-protected
 *   struct iolens_region_desc[n]        region table, covered by header CRC
 *   region payloads                     each zlib-compressed, each with CRC32
 *
 * Every region is located only through the region table, so a reader skips
 * region kinds it does not know.  Each region carries its own version.
 */
#ifndef IOLENS_LOG_FORMAT_H
#define IOLENS_LOG_FORMAT_H

#include <stdint.h>

#define IOLENS_MAGIC "IOLENS\r\n" /* 8 bytes; \r\n catches text-mode mangling */
#define IOLENS_MAGIC_LEN 8
#define IOLENS_FORMAT_VERSION 1u
#define IOLENS_BYTE_ORDER_MARK 0x01020304u
#define IOLENS_MAX_REGIONS 64u

/* Header flags. */
#define IOLENS_FLAG_PARTIAL 0x1u  /* some records were folded into <other files> */
#define IOLENS_FLAG_FORKED 0x2u   /* the process is a forked child */

struct iolens_file_header {
    char magic[IOLENS_MAGIC_LEN];
    uint32_t version;         /* IOLENS_FORMAT_VERSION */
    uint32_t byte_order;      /* IOLENS_BYTE_ORDER_MARK as written */
    uint64_t flags;           /* IOLENS_FLAG_* */
    uint32_t header_size;     /* sizeof(struct iolens_file_header) */
    uint32_t region_count;    /* entries in the region table that follows */
    uint32_t header_crc;      /* CRC32 of this header (with header_crc = 0)
                                 followed by the region table */
    uint32_t reserved;
};

/* Region kinds.  Values are stable; new kinds only get new numbers. */
enum iolens_region_kind {
    IOLENS_REGION_JOB = 1,
    IOLENS_REGION_MOUNTS = 2,
    IOLENS_REGION_NAMES = 3,
    IOLENS_REGION_POSIX = 16,
    IOLENS_REGION_STDIO = 17,
};

#define IOLENS_COMPRESS_ZLIB 1u

struct iolens_region_desc {
    uint32_t kind;            /* enum iolens_region_kind */
    uint32_t version;         /* version of this region's own layout */
    uint64_t offset;          /* from the start of the file */
    uint64_t stored_size;     /* bytes in the file (compressed) */
    uint64_t raw_size;        /* bytes after decompression */
    uint32_t crc32;           /* CRC32 of the stored bytes */
    uint32_t compression;     /* IOLENS_COMPRESS_ZLIB */
};

/* ---------------------------------------------------------------- job -- */

#define IOLENS_JOB_VERSION 1u

/*
 * Job region: this fixed part, then the strings it counts, each stored as
 * uint32 length + bytes (no terminator), in this order: job id, user name,
 * executable, arguments (NUL-separated), host names (NUL-separated),
 * iolens version.
 */
struct iolens_job_fixed {
    uint64_t uid;
    int64_t start_time_sec;   /* absolute (CLOCK_REALTIME) job start */
    int64_t start_time_nsec;
    int64_t end_time_sec;
    int64_t end_time_nsec;
    double run_time;          /* seconds on the monotonic clock */
    uint32_t nprocs;
    uint32_t nnodes;
    int64_t pid;
    int64_t parent_pid;       /* pid of the traced parent if forked, else 0 */
    /* memory budget */
    uint64_t budget_bytes;    /* IOLENS_MEMORY */
    uint64_t budget_used;     /* bytes of the budget actually used */
    uint64_t budget_needed;   /* bytes that would have been needed to keep
                                 every file apart (estimate when folded) */
    uint64_t folded_opens;    /* opens attributed to <other files> (exact) */
    uint64_t folded_files;    /* distinct files folded (estimate, +-3%) */
    uint64_t string_count;    /* strings that follow: IOLENS_JOB_NSTRINGS */
};

enum iolens_job_string {
    IOLENS_JOBSTR_JOBID,
    IOLENS_JOBSTR_USER,
    IOLENS_JOBSTR_EXE,
    IOLENS_JOBSTR_ARGS,
    IOLENS_JOBSTR_HOSTS,
    IOLENS_JOBSTR_VERSION,
    IOLENS_JOB_NSTRINGS
};

/* ------------------------------------------------------------- mounts -- */

#define IOLENS_MOUNTS_VERSION 1u

/* Mount region: uint32 count, then per entry: uint64 block_size,
 * uint32 len + mount point, uint32 len + file system type. */

/* -------------------------------------------------------------- names -- */

#define IOLENS_NAMES_VERSION 1u

/* Name region: uint32 count, then per entry: uint64 record id,
 * uint32 len + normalized absolute path (or "<STDIN>", "<other files>" ...). */

/* ------------------------------------------------------------- layers -- */

/*
 * A layer region holds struct iolens_layer_head, then record_count records.
 * Each record is: uint64 id, int64 rank, int64 counters[counter_count],
 * double fcounters[fcounter_count].  A reader that knows fewer counters than
 * the region holds prints the ones it knows; the counts make records
 * self-delimiting.
 */
struct iolens_layer_head {
    uint32_t counter_count;
    uint32_t fcounter_count;
    uint64_t record_count;
};

/* rank value of a record that was reduced across all ranks (shared file). */
#define IOLENS_RANK_ALL (-1)

/* Reserved record ids (the hash of a real path never takes these values:
 * the runtime remaps a colliding hash). */
#define IOLENS_ID_OTHER_FILES 1u
#define IOLENS_ID_STDIN 2u
#define IOLENS_ID_STDOUT 3u
#define IOLENS_ID_STDERR 4u
#define IOLENS_ID_RESERVED_MAX 15u

#define IOLENS_NAME_OTHER_FILES "<other files>"
#define IOLENS_NAME_STDIN "<STDIN>"
#define IOLENS_NAME_STDOUT "<STDOUT>"
#define IOLENS_NAME_STDERR "<STDERR>"

/* Access-size histogram bins shared by all layers (bytes, inclusive upper
 * bounds; K = 1024). */
#define IOLENS_SIZE_BINS(X) \
    X(0_100, 100) \
    X(100_1K, 1024) \
    X(1K_10K, 10240) \
    X(10K_100K, 102400) \
    X(100K_1M, 1048576) \
    X(1M_4M, 4194304) \
    X(4M_10M, 10485760) \
    X(10M_100M, 104857600) \
    X(100M_1G, 1073741824) \
    X(1G_PLUS, INT64_MAX)

#define IOLENS_NSIZE_BINS 10

/*
 * POSIX layer counters.  X(name, description).
 * Integer counters; -1 never appears except where a description says so.
 */
#define IOLENS_POSIX_VERSION 1u
#define IOLENS_POSIX_COUNTERS(X) \
    X(POSIX_OPENS, "open, open64, openat, creat and their fortified forms") \
    X(POSIX_READS, "read, pread, readv, preadv and their variants") \
    X(POSIX_WRITES, "write, pwrite, writev, pwritev and their variants") \
    X(POSIX_SEEKS, "lseek and lseek64") \
    X(POSIX_STATS, "stat, lstat, fstat, fstatat, statx and the old __xstat family") \
    X(POSIX_MMAPS, "mmap of a descriptor of this file") \
    X(POSIX_FSYNCS, "fsync") \
    X(POSIX_FDSYNCS, "fdatasync") \
    X(POSIX_DUPS, "dup, dup2, dup3 and fcntl(F_DUPFD*)") \
    X(POSIX_TRUNCATES, "ftruncate") \
    X(POSIX_UNLINKS, "unlink") \
    X(POSIX_RENAME_SOURCES, "rename with this file as the source") \
    X(POSIX_RENAME_TARGETS, "rename with this file as the target") \
    X(POSIX_MODE, "mode argument of the last creating open, -1 if never") \
    X(POSIX_BYTES_READ, "bytes read") \
    X(POSIX_BYTES_WRITTEN, "bytes written") \
    X(POSIX_MAX_BYTE_READ, "highest byte offset read, -1 if none") \
    X(POSIX_MAX_BYTE_WRITTEN, "highest byte offset written, -1 if none") \
    X(POSIX_CONSEC_READS, "reads starting exactly after the previous access on the descriptor") \
    X(POSIX_CONSEC_WRITES, "writes starting exactly after the previous access on the descriptor") \
    X(POSIX_SEQ_READS, "reads starting at or after the end of the previous access on the descriptor") \
    X(POSIX_SEQ_WRITES, "writes starting at or after the end of the previous access on the descriptor") \
    X(POSIX_RW_SWITCHES, "changes between reading and writing") \
    X(POSIX_MEM_NOT_ALIGNED, "accesses whose buffer address is not a multiple of POSIX_MEM_ALIGNMENT") \
    X(POSIX_MEM_ALIGNMENT, "memory alignment used, bytes") \
    X(POSIX_FILE_NOT_ALIGNED, "accesses whose file offset is not a multiple of POSIX_FILE_ALIGNMENT") \
    X(POSIX_FILE_ALIGNMENT, "file alignment used: the file system block size, bytes") \
    X(POSIX_SIZE_READ_0_100, "reads of 0-100 bytes") \
    X(POSIX_SIZE_READ_100_1K, "reads of 101 bytes-1 KiB") \
    X(POSIX_SIZE_READ_1K_10K, "reads of 1-10 KiB") \
    X(POSIX_SIZE_READ_10K_100K, "reads of 10-100 KiB") \
    X(POSIX_SIZE_READ_100K_1M, "reads of 100 KiB-1 MiB") \
    X(POSIX_SIZE_READ_1M_4M, "reads of 1-4 MiB") \
    X(POSIX_SIZE_READ_4M_10M, "reads of 4-10 MiB") \
    X(POSIX_SIZE_READ_10M_100M, "reads of 10-100 MiB") \
    X(POSIX_SIZE_READ_100M_1G, "reads of 100 MiB-1 GiB") \
    X(POSIX_SIZE_READ_1G_PLUS, "reads over 1 GiB") \
    X(POSIX_SIZE_WRITE_0_100, "writes of 0-100 bytes") \
    X(POSIX_SIZE_WRITE_100_1K, "writes of 101 bytes-1 KiB") \
    X(POSIX_SIZE_WRITE_1K_10K, "writes of 1-10 KiB") \
    X(POSIX_SIZE_WRITE_10K_100K, "writes of 10-100 KiB") \
    X(POSIX_SIZE_WRITE_100K_1M, "writes of 100 KiB-1 MiB") \
    X(POSIX_SIZE_WRITE_1M_4M, "writes of 1-4 MiB") \
    X(POSIX_SIZE_WRITE_4M_10M, "writes of 4-10 MiB") \
    X(POSIX_SIZE_WRITE_10M_100M, "writes of 10-100 MiB") \
    X(POSIX_SIZE_WRITE_100M_1G, "writes of 100 MiB-1 GiB") \
    X(POSIX_SIZE_WRITE_1G_PLUS, "writes over 1 GiB") \
    X(POSIX_STRIDE1_STRIDE, "most common stride (start of access minus start of the previous access), 0 if none") \
    X(POSIX_STRIDE2_STRIDE, "second most common stride") \
    X(POSIX_STRIDE3_STRIDE, "third most common stride") \
    X(POSIX_STRIDE4_STRIDE, "fourth most common stride") \
    X(POSIX_STRIDE1_COUNT, "occurrences of POSIX_STRIDE1_STRIDE") \
    X(POSIX_STRIDE2_COUNT, "occurrences of POSIX_STRIDE2_STRIDE") \
    X(POSIX_STRIDE3_COUNT, "occurrences of POSIX_STRIDE3_STRIDE") \
    X(POSIX_STRIDE4_COUNT, "occurrences of POSIX_STRIDE4_STRIDE") \
    X(POSIX_ACCESS1_ACCESS, "most common access size, bytes") \
    X(POSIX_ACCESS2_ACCESS, "second most common access size") \
    X(POSIX_ACCESS3_ACCESS, "third most common access size") \
    X(POSIX_ACCESS4_ACCESS, "fourth most common access size") \
    X(POSIX_ACCESS1_COUNT, "occurrences of POSIX_ACCESS1_ACCESS") \
    X(POSIX_ACCESS2_COUNT, "occurrences of POSIX_ACCESS2_ACCESS") \
    X(POSIX_ACCESS3_COUNT, "occurrences of POSIX_ACCESS3_ACCESS") \
    X(POSIX_ACCESS4_COUNT, "occurrences of POSIX_ACCESS4_ACCESS") \
    X(POSIX_MAX_READ_TIME_SIZE, "size of the slowest read, bytes") \
    X(POSIX_MAX_WRITE_TIME_SIZE, "size of the slowest write, bytes")

/* Floating-point POSIX counters: seconds relative to the process start. */
#define IOLENS_POSIX_FCOUNTERS(X) \
    X(POSIX_F_OPEN_START_TIMESTAMP, "start of the first open") \
    X(POSIX_F_READ_START_TIMESTAMP, "start of the first read") \
    X(POSIX_F_WRITE_START_TIMESTAMP, "start of the first write") \
    X(POSIX_F_CLOSE_START_TIMESTAMP, "start of the first close") \
    X(POSIX_F_OPEN_END_TIMESTAMP, "end of the last open") \
    X(POSIX_F_READ_END_TIMESTAMP, "end of the last read") \
    X(POSIX_F_WRITE_END_TIMESTAMP, "end of the last write") \
    X(POSIX_F_CLOSE_END_TIMESTAMP, "end of the last close") \
    X(POSIX_F_READ_TIME, "cumulative read time, overlap within the process counted once") \
    X(POSIX_F_WRITE_TIME, "cumulative write time, overlap within the process counted once") \
    X(POSIX_F_META_TIME, "cumulative open, close, seek, stat, sync, dup, truncate, unlink and rename time") \
    X(POSIX_F_MAX_READ_TIME, "duration of the slowest read") \
    X(POSIX_F_MAX_WRITE_TIME, "duration of the slowest write")

#define IOLENS_STDIO_VERSION 1u
#define IOLENS_STDIO_COUNTERS(X) \
    X(STDIO_OPENS, "fopen, fopen64, fdopen and freopen") \
    X(STDIO_READS, "fread, fgets and fscanf") \
    X(STDIO_WRITES, "fwrite, fputs, fprintf and vfprintf") \
    X(STDIO_SEEKS, "fseek, fseeko and rewind") \
    X(STDIO_FLUSHES, "fflush") \
    X(STDIO_BYTES_READ, "bytes read") \
    X(STDIO_BYTES_WRITTEN, "bytes written") \
    X(STDIO_MAX_BYTE_READ, "highest byte offset read, -1 if none") \
    X(STDIO_MAX_BYTE_WRITTEN, "highest byte offset written, -1 if none")

#define IOLENS_STDIO_FCOUNTERS(X) \
    X(STDIO_F_OPEN_START_TIMESTAMP, "start of the first open") \
    X(STDIO_F_READ_START_TIMESTAMP, "start of the first read") \
    X(STDIO_F_WRITE_START_TIMESTAMP, "start of the first write") \
    X(STDIO_F_CLOSE_START_TIMESTAMP, "start of the first close") \
    X(STDIO_F_OPEN_END_TIMESTAMP, "end of the last open") \
    X(STDIO_F_READ_END_TIMESTAMP, "end of the last read") \
    X(STDIO_F_WRITE_END_TIMESTAMP, "end of the last write") \
    X(STDIO_F_CLOSE_END_TIMESTAMP, "end of the last close") \
    X(STDIO_F_READ_TIME, "cumulative read time, overlap within the process counted once") \
    X(STDIO_F_WRITE_TIME, "cumulative write time, overlap within the process counted once") \
    X(STDIO_F_META_TIME, "cumulative open, close, seek and flush time")

#define IOLENS_X_ENUM(name, desc) name,

enum iolens_posix_counter { IOLENS_POSIX_COUNTERS(IOLENS_X_ENUM) POSIX_NUM_COUNTERS };
enum iolens_posix_fcounter { IOLENS_POSIX_FCOUNTERS(IOLENS_X_ENUM) POSIX_F_NUM_COUNTERS };
enum iolens_stdio_counter { IOLENS_STDIO_COUNTERS(IOLENS_X_ENUM) STDIO_NUM_COUNTERS };
enum iolens_stdio_fcounter { IOLENS_STDIO_FCOUNTERS(IOLENS_X_ENUM) STDIO_F_NUM_COUNTERS };

/* One record of a layer as it lies in the (decompressed) region. */
struct iolens_posix_record {
    uint64_t id;
    int64_t rank;
    int64_t counters[POSIX_NUM_COUNTERS];
    double fcounters[POSIX_F_NUM_COUNTERS];
};

struct iolens_stdio_record {
    uint64_t id;
    int64_t rank;
    int64_t counters[STDIO_NUM_COUNTERS];
    double fcounters[STDIO_F_NUM_COUNTERS];
};

#endif /* IOLENS_LOG_FORMAT_H */
