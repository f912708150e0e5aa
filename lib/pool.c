/* SPDX-License-Identifier: BSD-3-Clause */
/* The scratch pool: the packed copies of every call live in buffers kept
 * per (context, device) and handed out again, so repeated calls do not
 * allocate.  A buffer goes to one call at a time; when that call has
 * enqueued its work it comes back with the event of the call's last
 * command, and another call may take it only once that event completed,
 * or at once when the new call runs on the same in-order queue (whose
 * commands then run after the old ones anyway).  A buffer whose last user
 * is still running on another queue is never shared: that would add a
 * dependency between calls the caller did not ask for, and could deadlock
 * calls gated on user events.
 *
 * New buffers are made resident with a content-undefined migration before
 * the call enqueues anything else, because drivers allocate lazily: an
 * allocation failure then shows here, while C is still untouched, and the
 * path (routines/plan/packed.c) can retry with smaller panels.  The
 * migration runs on the caller's queue when that is in order, and on an
 * in-order queue of the pool's own when the caller's is out of order: on
 * NVIDIA's driver (580.159) a migration enqueued on an out-of-order queue
 * while a command gated on an unset user event waited there left the
 * context unable to be released (clReleaseContext deadlocked inside the
 * driver), and the pool's queue for every call crashed a driver thread
 * when eight threads over four contexts shared it (docs/performance.md).
 *
 * The pool keeps at most the scratch limit (g3_scratch_limit) per device;
 * buffers over it are released when they come back.  Teardown releases all. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

typedef struct slot {
    cl_mem buf;
    size_t bytes;
    int busy;           /* handed to a call that is still enqueuing */
    cl_event done;      /* the last command of its last call, retained; NULL: free */
    cl_command_queue q; /* that call's queue, not retained: compared only while `done` runs */
    unsigned long stamp;
    struct slot *next;
} slot;

typedef struct pool {
    cl_context ctx;
    cl_device_id dev;
    size_t held;
    slot *slots;
    cl_command_queue side; /* in order, made when first needed: migrations for out-of-order callers */
    struct pool *next;
} pool;

static pool *pools;
static unsigned long clock_;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* GPUBLAS3_SCRATCH_LIMIT: bytes, or with a suffix k, M, G (powers of 1024);
 * anything else is ignored. */
size_t g3_scratch_limit(const g3_device *d)
{
    size_t limit = d->global_mem / 2;
    const char *env = getenv("GPUBLAS3_SCRATCH_LIMIT");
    if (env && *env >= '0' && *env <= '9') {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        int shift = !*end ? 0 : strchr("kK", *end) ? 10 : strchr("mM", *end) ? 20 : strchr("gG", *end) ? 30 : -1;
        if (shift >= 0 && (!*end || !end[1]) && v <= (ULLONG_MAX >> shift) && (v << shift) < limit)
            limit = (size_t)(v << shift);
    }
    return limit;
}

int g3_alloc_failure(cl_int err)
{
    return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
           err == CL_INVALID_BUFFER_SIZE;
}

static pool *pool_of(const g3_device *d)
{
    pool *p = pools;
    while (p && (p->ctx != d->ctx || p->dev != d->dev))
        p = p->next;
    if (!p && (p = calloc(1, sizeof *p))) {
        p->ctx = d->ctx;
        p->dev = d->dev;
        p->next = pools;
        pools = p;
    }
    return p;
}

/* Free for a call on q: its last user finished (or failed: its commands
 * are over either way), or ran on q itself and q is in order. */
static int usable(slot *s, cl_command_queue q, int in_order)
{
    if (!s->done)
        return 1;
    cl_int status = CL_QUEUED;
    if (clGetEventInfo(s->done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS ||
        status <= CL_COMPLETE) {
        clReleaseEvent(s->done);
        s->done = NULL;
        return 1;
    }
    return in_order && s->q == q;
}

static void destroy(pool *p, slot *s)
{
    slot **pp = &p->slots;
    while (*pp != s)
        pp = &(*pp)->next;
    *pp = s->next;
    p->held -= s->bytes;
    if (s->done)
        clReleaseEvent(s->done);
    clReleaseMemObject(s->buf); /* the driver keeps it until commands using it finished */
    free(s);
}

/* Releases the least recently used buffers not handed out until the pool
 * holds at most `keep` bytes. */
static void trim(pool *p, size_t keep)
{
    while (p->held > keep) {
        slot *victim = NULL;
        for (slot *s = p->slots; s; s = s->next)
            if (!s->busy && (!victim || s->stamp < victim->stamp))
                victim = s;
        if (!victim)
            return;
        destroy(p, victim);
    }
}

/* One attempt under the lock: a free buffer for each request, or a new
 * one.  fresh[i] marks the new ones.  On failure nothing is held. */
static cl_int take(const g3_device *d, pool *p, cl_command_queue q, int in_order, int n,
                   const size_t bytes[], cl_mem out[], int fresh[])
{
    cl_int err = CL_SUCCESS;
    int i;
    for (i = 0; i < n && err == CL_SUCCESS; i++) {
        out[i] = NULL;
        fresh[i] = 0;
        if (!bytes[i])
            continue;
        slot *best = NULL;
        for (slot *s = p->slots; s; s = s->next)
            if (!s->busy && s->bytes >= bytes[i] && (!best || s->bytes < best->bytes) && usable(s, q, in_order))
                best = s;
        if (!best) {
            size_t size = bytes[i];
            size_t limit = g3_scratch_limit(d);
            trim(p, limit > size ? limit - size : 0);
            best = calloc(1, sizeof *best);
            if (!best) {
                err = CL_OUT_OF_HOST_MEMORY;
                break;
            }
            best->buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
            if (err != CL_SUCCESS) {
                free(best);
                break;
            }
            best->bytes = size;
            best->next = p->slots;
            p->slots = best;
            p->held += size;
            fresh[i] = 1;
        }
        best->busy = 1;
        best->stamp = ++clock_;
        out[i] = best->buf;
    }
    if (err != CL_SUCCESS)
        for (int u = 0; u < i; u++)
            for (slot *s = p->slots; out[u] && s; s = s->next)
                if (s->buf == out[u]) {
                    if (fresh[u])
                        destroy(p, s);
                    else
                        s->busy = 0;
                    break;
                }
    return err;
}

/* Under the lock: bufs come back from a call; those marked in drop go. */
static void give_back_locked(const g3_device *d, pool *p, const g3_chain *chain, int n, cl_mem bufs[],
                             const int drop[])
{
    for (int i = 0; p && i < n; i++)
        for (slot *s = p->slots; bufs[i] && s; s = s->next)
            if (s->buf == bufs[i]) {
                s->busy = 0;
                s->stamp = ++clock_;
                if (drop && drop[i]) {
                    destroy(p, s);
                } else if (chain->last) {
                    /* The chain is linear, so its last event completes after
                     * every command of the call, including an earlier user's
                     * that this call was ordered after. */
                    clRetainEvent(chain->last);
                    if (s->done)
                        clReleaseEvent(s->done);
                    s->done = chain->last;
                    s->q = chain->q;
                }
                break;
            }
    if (p)
        trim(p, g3_scratch_limit(d));
}

static void give_back(const g3_device *d, const g3_chain *chain, int n, cl_mem bufs[], const int drop[])
{
    pthread_mutex_lock(&lock);
    give_back_locked(d, pool_of(d), chain, n, bufs, drop);
    pthread_mutex_unlock(&lock);
}

/* Makes buffers resident now, so that a device that allocates lazily
 * refuses them here, before anything writes C.  The migration runs on
 * `mq` and waits on nothing (fresh buffers: no command uses them; a
 * remote scratch of split.c: its last user is already ordered before the
 * chain's deps); a marker on the chain's queue then joins it with the
 * call's wait list.  Gating the migration itself on the wait list crashed
 * NVIDIA's driver (580.159) when the list held an unset user event and
 * another queue read a buffer meanwhile. */
static cl_int make_resident(g3_chain *chain, cl_command_queue mq, cl_uint n, const cl_mem mems[])
{
    cl_event mig;
    cl_int err = clEnqueueMigrateMemObjects(mq, n, mems, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, &mig);
    if (err != CL_SUCCESS)
        return err;
    if (mq != chain->q && (err = clFlush(mq)) != CL_SUCCESS) { /* the caller flushes only its own queue */
        clReleaseEvent(mig);
        return err;
    }
    /* Nothing to join: the chain's next step waits on the migration itself
     * (a marker would do, but PoCL's marker on an out-of-order queue waits
     * for every earlier command, a gated one too). */
    const cl_event *deps;
    cl_uint ndeps = g3_chain_deps(chain, &deps);
    if (ndeps == 0) {
        g3_chain_push(chain, mig);
        return CL_SUCCESS;
    }
    cl_event *all = malloc((ndeps + 1) * sizeof *all), joined;
    if (!all) {
        clReleaseEvent(mig);
        return CL_OUT_OF_HOST_MEMORY;
    }
    if (ndeps)
        memcpy(all, deps, ndeps * sizeof *all);
    all[ndeps] = mig;
    err = clEnqueueMarkerWithWaitList(chain->q, ndeps + 1, all, &joined);
    free(all);
    clReleaseEvent(mig);
    if (err == CL_SUCCESS)
        g3_chain_push(chain, joined);
    return err;
}

gpublas3Status g3_scratch_acquire(const g3_device *d, g3_chain *chain, int n, const size_t bytes[],
                                  cl_mem out[])
{
    cl_command_queue_properties props = 0;
    clGetCommandQueueInfo(chain->q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    int in_order = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    int fresh[G3_SCRATCH_MAX];
    cl_int err = CL_SUCCESS;
    if (n > G3_SCRATCH_MAX)
        return gpublas3InvalidValue;
    for (int attempt = 0; attempt < 2; attempt++) {
        pthread_mutex_lock(&lock);
        pool *p = pool_of(d);
        if (!p) {
            pthread_mutex_unlock(&lock);
            return gpublas3OutOfHostMemory;
        }
        if (attempt)
            trim(p, 0); /* the second try first gives back everything idle */
        err = take(d, p, chain->q, in_order, n, bytes, out, fresh);
        cl_mem mems[G3_SCRATCH_MAX];
        cl_uint nnew = 0;
        for (int i = 0; err == CL_SUCCESS && i < n; i++)
            if (fresh[i])
                mems[nnew++] = out[i];
        if (nnew && !in_order && !p->side) {
            p->side = clCreateCommandQueue(d->ctx, d->dev, 0, &err);
            if (err != CL_SUCCESS)
                give_back_locked(d, p, chain, n, out, fresh);
        }
        cl_command_queue mq = in_order ? chain->q : p->side;
        pthread_mutex_unlock(&lock);
        if (err == CL_SUCCESS) {
            if (!nnew)
                return gpublas3Success;
            err = make_resident(chain, mq, nnew, mems);
            if (err == CL_SUCCESS)
                return gpublas3Success;
            give_back(d, chain, n, out, fresh);
        }
        if (!g3_alloc_failure(err))
            break;
    }
    for (int i = 0; i < n; i++)
        out[i] = NULL;
    return g3_alloc_failure(err) ? gpublas3OutOfResources : (gpublas3Status)err;
}

gpublas3Status g3_scratch_resident(g3_chain *chain, int n, cl_mem bufs[])
{
    cl_int err = make_resident(chain, chain->q, (cl_uint)n, bufs);
    return g3_alloc_failure(err) ? gpublas3OutOfResources : (gpublas3Status)err;
}

void g3_scratch_release(const g3_device *d, const g3_chain *chain, int n, cl_mem bufs[])
{
    give_back(d, chain, n, bufs, NULL);
}

void g3_pool_release_all(void)
{
    pthread_mutex_lock(&lock);
    while (pools) {
        pool *p = pools;
        pools = p->next;
        while (p->slots)
            destroy(p, p->slots);
        if (p->side)
            clReleaseCommandQueue(p->side);
        free(p);
    }
    pthread_mutex_unlock(&lock);
}
