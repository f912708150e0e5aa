/* SPDX-License-Identifier: BSD-3-Clause */
/* One thread kept for the host BLAS's part of split calls (dropin.c):
 * started at the first such call and kept for the process, so that the
 * host BLAS always sees the same calling thread (OpenBLAS keeps state per
 * calling thread, and versions before 0.3.4 ran out of memory regions when
 * callers came and went: github.com/OpenMathLib/OpenBLAS/issues/539
 * and /1882) and a split call pays
 * no thread start.  One job at a time: a split call made while another
 * holds the worker (a program calling from several threads) gets a thread
 * of its own instead. */
#include <pthread.h>
#include <unistd.h>
#include "dropin.h"

static pthread_mutex_t owner = PTHREAD_MUTEX_INITIALIZER;  /* held by the split call using the worker */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static void *(*job)(void *);
static void *job_arg;
static int started, pending;
static pid_t started_in;  /* a forked child has no worker: it starts its own */

static void *work(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!pending)
            pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        job(job_arg);
        pthread_mutex_lock(&lock);
        pending = 0;
        pthread_cond_broadcast(&changed);
    }
    return NULL;
}

int g3w_start(g3w_job *w, void *(*fn)(void *), void *arg)
{
    w->fn = fn;
    w->arg = arg;
    w->kept = pthread_mutex_trylock(&owner) == 0;
    if (w->kept) {
        pthread_mutex_lock(&lock);
        if (started && started_in != getpid())
            started = pending = 0;
        if (!started) {
            pthread_t t;
            started = pthread_create(&t, NULL, work, NULL) == 0;
            if (started)
                pthread_detach(t);
            started_in = getpid();
        }
        if (started) {
            job = fn;
            job_arg = arg;
            pending = 1;
            pthread_cond_broadcast(&changed);
        }
        pthread_mutex_unlock(&lock);
        if (started)
            return 1;
        pthread_mutex_unlock(&owner);
        w->kept = 0;
    }
    w->own = pthread_create(&w->thread, NULL, fn, arg) == 0;
    return w->own;
}

void g3w_join(g3w_job *w)
{
    if (w->kept) {
        pthread_mutex_lock(&lock);
        while (pending)
            pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        pthread_mutex_unlock(&owner);
    } else if (w->own) {
        pthread_join(w->thread, NULL);
    } else {
        w->fn(w->arg);  /* no thread could be had: here, after the device's part */
    }
}
