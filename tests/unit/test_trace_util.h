/* Helpers for the trace tests: collect every record a program source produces (with its
 * lane addresses expanded), compare record lists, write small files. */
#ifndef GMS_TEST_TRACE_UTIL_H
#define GMS_TEST_TRACE_UTIL_H
#include "frontend/program.h"
#include "frontend/trace_stat.h"

typedef struct rec_inst {
    gms_inst in;
    uint64_t lanes[32];
    uint32_t kernel, warp;
    uint64_t block;
    uint32_t bx, by, bz;
} rec_inst;

typedef struct rec_kernel {
    char name[256];
    gms_dim3 grid, block;
    uint32_t shmem, regs;
    int stream;
} rec_kernel;

typedef struct recorder {
    rec_inst *v;
    size_t n, cap;
    rec_kernel k[64];
    size_t nk;
    const void *last_self;
    gms_trace_stats st;
    uint64_t copy_addr[16], copy_bytes[16];
} recorder;

int rec_collect_src(gms_program_src *src, recorder *r, gms_error *err);
int rec_collect(const char *kernelslist, recorder *r, gms_error *err);
void rec_free(recorder *r);
/* 0 if equal; otherwise prints the first difference. Sources are compared compacted (the
 * writer drops GMS_REG_NONE sources); ignore_opcode skips opcode_id. */
int rec_compare(const recorder *a, const recorder *b, int ignore_opcode);
int write_file(const char *path, const char *text);
/* a one-kernel trace (kernel_text: the kernel file's text) in a fresh directory, walked block by
 * block with fn (may be NULL): 0, or -1 with the error in msg */
int walk_one_kernel(const char *kernel_text, gms_block_fn fn, void *ud, char *msg, size_t cap);
/* a fresh directory /tmp/gms_trace_test_XXXXXX in buf (buf[0] == 0 if none could be made),
 * removed with its contents when the test binary exits */
void make_tmpdir(char *buf, size_t n);
/* remove dir and everything under it */
void rm_tree(const char *dir);
/* path of a test data file (tests run from the repository root) */
const char *data_path(const char *rel, char *buf, size_t n);

#endif
