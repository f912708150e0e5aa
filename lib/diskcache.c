/* SPDX-License-Identifier: BSD-3-Clause */
/* The compiled-program cache on disk, so that a new process does not
 * compile the kernels again.  One file per program, named by a hash of its
 * key: the library version, the platform, the device, the driver version,
 * the build options and a hash of the source.  The file repeats the whole
 * key and a checksum of key and binary, so a stale entry (another driver,
 * another source), a hash collision, a truncated or corrupt file are all
 * told apart from a good one; such an entry is removed and the program
 * built from source again.  Writers write a temporary file in the same
 * folder and rename it into place, so readers and concurrent writers (other
 * threads or processes) only ever see whole files.
 *
 * Location: GPUBLAS3_CACHE_DIR, else $XDG_CACHE_HOME/gpublas3, else
 * $HOME/.cache/gpublas3; GPUBLAS3_CACHE_DIR=off turns the cache off.  Left
 * unset, a driver that keeps its own cache (g3_device.driver_cache) gets
 * none: PoCL caches its builds, and asking it for a binary compiles every
 * kernel of the program once more, which doubled a cold start.  Any
 * failure here (no HOME, read-only folder, full disk) only costs the build
 * time: the cache is never a reason for a call to fail. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core.h"

#define MAGIC "G3CACHE\n"
#define FORMAT 1u

typedef struct {
    char magic[8];
    uint32_t format, keylen;
    uint64_t binlen, checksum;
} header;

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
#define FNV_SEED 0xcbf29ce484222325ull

/* The folder, or 0 when the cache is off or has no home. */
static int cache_dir(const g3_device *d, char *dir, size_t n)
{
    const char *env = getenv("GPUBLAS3_CACHE_DIR");
    if ((env && strcmp(env, "off") == 0) || (!(env && *env) && d->driver_cache))
        return 0;
    int len;
    if (env && *env)
        len = snprintf(dir, n, "%s", env);
    else if ((env = getenv("XDG_CACHE_HOME")) && *env == '/')
        len = snprintf(dir, n, "%s/gpublas3", env);
    else if ((env = getenv("HOME")) && *env)
        len = snprintf(dir, n, "%s/.cache/gpublas3", env);
    else
        return 0;
    return len > 0 && (size_t)len < n;
}

/* mkdir -p, private to the user. */
static int make_dirs(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *s = path + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(path, 0700) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(path, 0700) && errno != EEXIST ? -1 : 0;
}

static void append_info(char **p, size_t *left, const char *label, int is_platform, void *obj, cl_uint what)
{
    char buf[512] = "";
    if (is_platform)
        clGetPlatformInfo((cl_platform_id)obj, what, sizeof buf - 1, buf, NULL);
    else
        clGetDeviceInfo((cl_device_id)obj, what, sizeof buf - 1, buf, NULL);
    buf[sizeof buf - 1] = 0;
    int n = snprintf(*p, *left, "%s %s\n", label, buf);
    if (n > 0 && (size_t)n < *left) {
        *p += n;
        *left -= (size_t)n;
    }
}

/* The key text, and the file name derived from it. */
static int make_key(const g3_device *d, const char *src, const char *options, char *key, size_t n,
                    char *file, size_t fn)
{
    char dir[4096];
    if (!cache_dir(d, dir, sizeof dir))
        return 0;
    cl_platform_id plat = NULL;
    clGetDeviceInfo(d->dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
    char *p = key;
    size_t left = n;
    int w = snprintf(p, left, "gpublas3 %d.%d.%d program cache %u\n", GPUBLAS3_VERSION_MAJOR,
                     GPUBLAS3_VERSION_MINOR, GPUBLAS3_VERSION_PATCH, FORMAT);
    p += w;
    left -= (size_t)w;
    append_info(&p, &left, "platform", 1, plat, CL_PLATFORM_NAME);
    append_info(&p, &left, "platform-version", 1, plat, CL_PLATFORM_VERSION);
    append_info(&p, &left, "device", 0, d->dev, CL_DEVICE_NAME);
    append_info(&p, &left, "vendor", 0, d->dev, CL_DEVICE_VENDOR);
    append_info(&p, &left, "device-version", 0, d->dev, CL_DEVICE_VERSION);
    append_info(&p, &left, "driver", 0, d->dev, CL_DRIVER_VERSION);
    size_t srclen = strlen(src);
    w = snprintf(p, left, "options %s\nsource %016llx %zu\n", options,
                 (unsigned long long)fnv1a(FNV_SEED, src, srclen), srclen);
    if (w < 0 || (size_t)w >= left)
        return 0;
    uint64_t h = fnv1a(FNV_SEED, key, strlen(key));
    w = snprintf(file, fn, "%s/%016llx.bin", dir, (unsigned long long)h);
    return w > 0 && (size_t)w < fn;
}

static int read_all(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

static int write_all(int fd, const void *buf, size_t n)
{
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, (const char *)buf + done, n - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* The binary stored for key in file, checked whole; NULL when absent,
 * and the file removed when it is not a good entry for this key. */
static unsigned char *read_entry(const char *file, const char *key, size_t *binlen)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat sb;
    header h;
    size_t keylen = strlen(key);
    unsigned char *buf = NULL;
    int good = fstat(fd, &sb) == 0 && read_all(fd, &h, sizeof h) == 0 &&
               memcmp(h.magic, MAGIC, 8) == 0 && h.format == FORMAT && h.keylen == keylen &&
               (uint64_t)sb.st_size == sizeof h + (uint64_t)h.keylen + h.binlen && h.binlen > 0 &&
               (buf = malloc(keylen + h.binlen)) && read_all(fd, buf, keylen + h.binlen) == 0 &&
               memcmp(buf, key, keylen) == 0 && fnv1a(FNV_SEED, buf, keylen + h.binlen) == h.checksum;
    close(fd);
    if (!good) {
        free(buf);
        unlink(file);
        return NULL;
    }
    memmove(buf, buf + keylen, h.binlen);
    *binlen = h.binlen;
    return buf;
}

cl_program g3_diskcache_load(const g3_device *d, const char *src, const char *options)
{
    char key[4096], file[4200];
    if (!make_key(d, src, options, key, sizeof key, file, sizeof file))
        return NULL;
    size_t binlen = 0;
    unsigned char *bin = read_entry(file, key, &binlen);
    if (!bin)
        return NULL;
    cl_int err, status = CL_SUCCESS;
    const unsigned char *bins[1] = { bin };
    cl_program p = clCreateProgramWithBinary(d->ctx, 1, &d->dev, &binlen, bins, &status, &err);
    free(bin);
    if (err == CL_SUCCESS && status == CL_SUCCESS &&
        (err = clBuildProgram(p, 1, &d->dev, options, NULL, NULL)) == CL_SUCCESS)
        return p;
    /* The driver refused what it once wrote (an update that kept its
     * version string): rebuild from source, which rewrites the entry. */
    if (p)
        clReleaseProgram(p);
    unlink(file);
    return NULL;
}

void g3_diskcache_store(const g3_device *d, const char *src, const char *options, cl_program p)
{
    char key[4096], file[4200], dir[4096];
    if (!make_key(d, src, options, key, sizeof key, file, sizeof file) || !cache_dir(d, dir, sizeof dir))
        return;
    cl_uint ndev = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL) != CL_SUCCESS || !ndev || ndev > 64)
        return;
    cl_device_id devs[64];
    size_t sizes[64];
    unsigned char *bins[64] = { 0 };
    cl_uint me = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_DEVICES, ndev * sizeof devs[0], devs, NULL) != CL_SUCCESS ||
        clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, ndev * sizeof sizes[0], sizes, NULL) != CL_SUCCESS)
        return;
    while (me < ndev && devs[me] != d->dev)
        me++;
    if (me == ndev || !sizes[me] || !(bins[me] = malloc(sizes[me])))
        return;
    /* Binaries for the context's other devices are not asked for (NULL). */
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, ndev * sizeof bins[0], bins, NULL) == CL_SUCCESS &&
        make_dirs(dir) == 0) {
        size_t keylen = strlen(key);
        header h = { .format = FORMAT, .keylen = (uint32_t)keylen, .binlen = sizes[me] };
        memcpy(h.magic, MAGIC, 8);
        h.checksum = fnv1a(fnv1a(FNV_SEED, key, keylen), bins[me], sizes[me]);
        char tmp[4300];
        static unsigned long serial;
        snprintf(tmp, sizeof tmp, "%s.%ld.%lu.tmp", file, (long)getpid(),
                 __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED));
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            int ok = write_all(fd, &h, sizeof h) == 0 && write_all(fd, key, keylen) == 0 &&
                     write_all(fd, bins[me], sizes[me]) == 0;
            ok = close(fd) == 0 && ok;
            if (!ok || rename(tmp, file) != 0)
                unlink(tmp);
        }
    }
    free(bins[me]);
}
