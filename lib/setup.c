/* SPDX-License-Identifier: BSD-3-Clause */
/* Library set-up and tear-down (reference-counted, thread-safe), the
 * version, and the status strings.  GetVersion and StatusString work
 * without Setup. */
#include <pthread.h>
#include "core.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int refcount;

gpublas3Status gpublas3Setup(void)
{
    pthread_mutex_lock(&lock);
    refcount++;
    pthread_mutex_unlock(&lock);
    return gpublas3Success;
}

void gpublas3Teardown(void)
{
    pthread_mutex_lock(&lock);
    if (refcount > 0 && --refcount == 0) {
        g3_pool_release_all();
        g3_program_release_all();
        g3_launch_release_all();
        g3_device_release_all();
    }
    pthread_mutex_unlock(&lock);
}

int g3_initialized(void)
{
    pthread_mutex_lock(&lock);
    int r = refcount > 0;
    pthread_mutex_unlock(&lock);
    return r;
}

gpublas3Status gpublas3GetVersion(cl_uint *major, cl_uint *minor, cl_uint *patch)
{
    if (!major || !minor || !patch)
        return gpublas3InvalidValue;
    *major = GPUBLAS3_VERSION_MAJOR;
    *minor = GPUBLAS3_VERSION_MINOR;
    *patch = GPUBLAS3_VERSION_PATCH;
    return gpublas3Success;
}

const char *gpublas3StatusString(gpublas3Status s)
{
    switch (s) {
    case gpublas3Success: return "success";
    case gpublas3InvalidValue: return "invalid value (an enum argument is out of range)";
    case gpublas3InvalidCommandQueue: return "invalid command queue (none given, or NULL)";
    case gpublas3InvalidContext: return "a buffer belongs to another context than the queue";
    case gpublas3InvalidMemObject: return "invalid memory object";
    case gpublas3InvalidDevice: return "the device cannot run this routine (no double precision?)";
    case gpublas3InvalidEventWaitList: return "invalid event wait list";
    case gpublas3OutOfResources: return "out of device resources";
    case gpublas3OutOfHostMemory: return "out of host memory";
    case gpublas3InvalidOperation: return "invalid operation";
    case gpublas3CompilerNotAvailable: return "no OpenCL compiler available";
    case gpublas3BuildProgramFailure: return "a kernel failed to build for this device";
    case gpublas3NotImplemented: return "not implemented";
    case gpublas3NotInitialized: return "gpublas3Setup has not been called";
    case gpublas3InvalidMatA: return "matrix A is not a valid buffer";
    case gpublas3InvalidMatB: return "matrix B is not a valid buffer";
    case gpublas3InvalidMatC: return "matrix C is not a valid buffer";
    case gpublas3InvalidVecX: return "vector X is not a valid buffer";
    case gpublas3InvalidVecY: return "vector Y is not a valid buffer";
    case gpublas3InvalidDim: return "invalid dimension";
    case gpublas3InvalidLeadDimA: return "lda is smaller than A's stored rows";
    case gpublas3InvalidLeadDimB: return "ldb is smaller than B's stored rows";
    case gpublas3InvalidLeadDimC: return "ldc is smaller than C's stored rows";
    case gpublas3InvalidIncX: return "increment of X is 0";
    case gpublas3InvalidIncY: return "increment of Y is 0";
    case gpublas3InsufficientMemMatA: return "buffer A is too small for offA and its extent";
    case gpublas3InsufficientMemMatB: return "buffer B is too small for offB and its extent";
    case gpublas3InsufficientMemMatC: return "buffer C is too small for offC and its extent";
    case gpublas3InsufficientMemVecX: return "buffer X is too small";
    case gpublas3InsufficientMemVecY: return "buffer Y is too small";
    }
    return "unknown status";
}
