/* SPDX-License-Identifier: BSD-3-Clause */
/* Setup/Teardown cycles leak nothing: after each cycle (Setup, calls of
 * every routine on a context made for the cycle, Teardown) every OpenCL
 * object the library made or retained is released (the shim's counts;
 * every piece of library state hangs on such an object: device entries on
 * a retained context, program entries on programs, pool entries on
 * buffers).  Host memory: in the plain build this program's malloc family
 * counts the blocks that libgpublas3's own code allocates (the caller's
 * address lies in the library's code) and frees, and after each cycle none
 * may be left, reachable or not (the driver's own memory is not counted:
 * PoCL keeps about a kilobyte per program build).  In the sanitizer build
 * LeakSanitizer checks after every cycle that no host memory became
 * unreachable.  Also: Setup nests (the state lives until the last
 * Teardown), an extra Teardown is harmless, and calls between cycles say
 * NotInitialized. */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rel.h"
#include "shim.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define HEAP_CHECK 0
#define LEAK_CHECK() rel_expect(__lsan_do_recoverable_leak_check() == 0, "cycle %d: LeakSanitizer found leaks", i)
#elif defined(__SANITIZE_THREAD__)
#define HEAP_CHECK 0
#define LEAK_CHECK() (void)0
#else
#define HEAP_CHECK 1
#define LEAK_CHECK() (void)0
#endif

static rel_dev dev;

#if HEAP_CHECK
/* ---- the library's own heap blocks ---- */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static uintptr_t lib_lo[8], lib_hi[8];
static int lib_segments;
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
enum { SLOTS = 1 << 16 };
static void *blocks[SLOTS];     /* open addressing; (void *)1 marks a deleted slot */
static long live_blocks;

static int from_library(void *ret)
{
    uintptr_t a = (uintptr_t)ret;
    for (int i = 0; i < lib_segments; i++)
        if (a >= lib_lo[i] && a < lib_hi[i]) return 1;
    return 0;
}

static size_t slot_of(void *p) { return ((uintptr_t)p >> 4) * 2654435761u % SLOTS; }

static void track(void *p)
{
    pthread_mutex_lock(&heap_lock);
    size_t i = slot_of(p);
    while (blocks[i] && blocks[i] != (void *)1) i = (i + 1) % SLOTS;
    blocks[i] = p;
    live_blocks++;
    pthread_mutex_unlock(&heap_lock);
}

static void untrack(void *p)
{
    if (!live_blocks) return;
    pthread_mutex_lock(&heap_lock);
    for (size_t i = slot_of(p), n = 0; blocks[i] && n < SLOTS; i = (i + 1) % SLOTS, n++)
        if (blocks[i] == p) {
            blocks[i] = (void *)1;
            live_blocks--;
            break;
        }
    pthread_mutex_unlock(&heap_lock);
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);
    if (p && from_library(__builtin_return_address(0))) track(p);
    return p;
}

void *calloc(size_t a, size_t b)
{
    void *p = __libc_calloc(a, b);
    if (p && from_library(__builtin_return_address(0))) track(p);
    return p;
}

void *realloc(void *old, size_t n)
{
    if (old) untrack(old);
    void *p = __libc_realloc(old, n);
    if (p && from_library(__builtin_return_address(0))) track(p);
    return p;
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = __libc_malloc(n);
    if (p) {
        memcpy(p, s, n);
        if (from_library(__builtin_return_address(0))) track(p);
    }
    return p;
}

void free(void *p)
{
    if (p) untrack(p);
    __libc_free(p);
}

static int find_library(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (!strstr(info->dlpi_name, "libgpublas3")) return 0;
    for (int i = 0; i < info->dlpi_phnum && lib_segments < 8; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X)) {
            lib_lo[lib_segments] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            lib_hi[lib_segments] = lib_lo[lib_segments] + info->dlpi_phdr[i].p_memsz;
            lib_segments++;
        }
    return 1;
}
#endif

static int calls(cl_context ctx, cl_command_queue q, uint64_t seed)
{
    int bad = 0;
    for (int r = 0; r < SPEC_NROUTINES; r++) {
        spec_case c = { .routine = (spec_routine)r, .dbl = r % 2, .order = gpublas3ColumnMajor, .M = 21, .N = 34,
                        .K = 13, .alpha = 0.5, .beta = 2 };
        rel_case rc;
        rel_fill(&rc, &c, seed + (uint64_t)r, 1);
        rel_upload(&rc, ctx, q);
        bad |= rel_run(&rc, q, "cycle");
        rel_free(&rc);
    }
    return bad;
}

static int same(const shim_counts *a, const shim_counts *b)
{
    return a->mems == b->mems && a->events == b->events && a->kernels == b->kernels &&
           a->programs == b->programs && a->contexts == b->contexts;
}

int main(int argc, char **argv)
{
    int cycles = argc > 1 ? atoi(argv[1]) : 25;
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    rel_open(&dev);
#if HEAP_CHECK
    dl_iterate_phdr(find_library, NULL);
    rel_expect(lib_segments > 0, "libgpublas3's code not found among the loaded objects");
#endif
    for (int i = 0; i < cycles; i++) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &dev.dev, NULL, NULL, &err);
        cl_command_queue q = clCreateCommandQueue(ctx, dev.dev, 0, &err);
        shim_counts before, after;
        shim_get(&before);
        gpublas3Setup();
        rel_expect(calls(ctx, q, 10 * (uint64_t)i) == 0, "cycle %d: wrong results", i);
        if (i % 5 == 1) {
            /* nested: the inner Teardown keeps the state */
            gpublas3Setup();
            gpublas3Teardown();
            rel_expect(calls(ctx, q, 7) == 0, "cycle %d: calls after a nested Teardown", i);
        }
#if HEAP_CHECK
        /* the count sees the library's blocks at all (device and program entries) */
        rel_expect(live_blocks > 0, "cycle %d: no heap block of libgpublas3 seen while set up", i);
#endif
        gpublas3Teardown();
        if (i % 5 == 2) gpublas3Teardown(); /* one too many: harmless */
        clFinish(q);
        shim_get(&after);
        rel_expect(same(&before, &after),
                   "cycle %d left OpenCL objects: mems %ld events %ld kernels %ld programs %ld contexts %ld", i,
                   after.mems - before.mems, after.events - before.events, after.kernels - before.kernels,
                   after.programs - before.programs, after.contexts - before.contexts);
        /* between cycles: not initialized, nothing enqueued */
        spec_case c = { .routine = SPEC_GEMM, .order = gpublas3ColumnMajor, .M = 2, .N = 2, .K = 2, .alpha = 1 };
        rel_case rc;
        rel_fill(&rc, &c, 1, 0);
        rel_upload(&rc, ctx, q);
        gpublas3Status st = spec_run(&rc.c, q, rc.buf[0], rc.buf[1], rc.buf[2], 0, NULL, NULL);
        rel_expect(st == gpublas3NotInitialized, "cycle %d: a call after Teardown returned %d", i, st);
        rel_free(&rc);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
        LEAK_CHECK();
#if HEAP_CHECK
        rel_expect(live_blocks == 0, "cycle %d left %ld heap blocks allocated by libgpublas3", i, live_blocks);
#endif
    }
    rel_close(&dev);
    return rel_finish("test_cycles");
}
