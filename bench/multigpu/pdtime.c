/* SPDX-License-Identifier: BSD-3-Clause */
/* ScaLAPACK timings over gpublas3: PDGEMM, LU (PDGETRF) or Cholesky
 * (PDPOTRF) of an n x n matrix on a P x Q grid, for each block size NB in a
 * list, with whatever BLAS each rank has (gpublas3 preloaded, or the host
 * BLAS).  Debian's PBLAS timer and xdlu/xdllt drivers have fixed workspaces
 * (a few million elements), too small for sizes that fill a GPU, hence this
 * program.  Each result is checked after it is timed:
 *   gemm: C x against A (B x) for a random x (PDGEMV);
 *   lu, llt: the solve of A x = A 1 with the factors, |A x - b| against
 *            n * eps * n |A|max |x|max.
 * A small call of the same operation runs first (kernels compiled, buffers
 * made).  Prints per NB:
 *
 *   RESULT op=gemm n=16384 nb=256 grid=1x2 time_s=... gflops=... check=ok resid=...
 *
 *   mpiexec -n P*Q pdtime gemm|lu|llt N NB[,NB...] P Q
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_pinfo(int *me, int *np);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int p, int q);
void Cblacs_gridinfo(int ctxt, int *p, int *q, int *myp, int *myq);
void Cblacs_gridexit(int ctxt);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *rsrc,
               const int *csrc, const int *ctxt, const int *lld, int *info);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
             const double *a, const int *ia, const int *ja, const int *desca, const double *b, const int *ib,
             const int *jb, const int *descb, const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);
void pdgemv_(const char *t, const int *m, const int *n, const double *alpha, const double *a, const int *ia,
             const int *ja, const int *desca, const double *x, const int *ix, const int *jx, const int *descx,
             const int *incx, const double *beta, double *y, const int *iy, const int *jy, const int *descy,
             const int *incy);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca, int *ipiv,
              int *info);
void pdgetrs_(const char *t, const int *n, const int *nrhs, const double *a, const int *ia, const int *ja,
              const int *desca, const int *ipiv, double *b, const int *ib, const int *jb, const int *descb,
              int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja, const int *desca, int *info);
void pdpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *ia, const int *ja,
              const int *desca, double *b, const int *ib, const int *jb, const int *descb, int *info);

static int ctxt, nprow, npcol, myrow, mycol;
static const int i0 = 0, i1 = 1;

/* A distributed matrix: local part and descriptor. */
typedef struct { int m, n, nb, lr, lc, desc[9]; double *v; } dmat;

static dmat dmat_new(int m, int n, int nb)
{
    dmat a = { .m = m, .n = n, .nb = nb };
    int one_col = n == 1 ? 1 : nb, info;
    a.lr = numroc_(&m, &nb, &myrow, &i0, &nprow);
    a.lc = numroc_(&n, &one_col, &mycol, &i0, &npcol);
    int lld = a.lr > 1 ? a.lr : 1;
    descinit_(a.desc, &m, &n, &nb, &one_col, &i0, &i0, &ctxt, &lld, &info);
    a.v = calloc((size_t)lld * (a.lc > 0 ? a.lc : 1), sizeof(double));
    if (!a.v || info) {
        fprintf(stderr, "pdtime: matrix %dx%d: out of memory or descinit info %d\n", m, n, info);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return a;
}

/* Global index of local index l (block-cyclic, source 0). */
static long global(int l, int nb, int me, int np) { return (long)(l / nb * np + me) * nb + l % nb; }

/* Fills a with f(i, j) of the global indices. */
static void fill(dmat *a, double (*f)(long, long, int), int n)
{
    int cnb = a->n == 1 ? 1 : a->nb, lld = a->desc[8];
    for (int lj = 0; lj < a->lc; lj++)
        for (int li = 0; li < a->lr; li++)
            a->v[li + (size_t)lj * lld] = f(global(li, a->nb, myrow, nprow), global(lj, cnb, mycol, npcol), n);
}

static double hash(long i, long j)
{
    unsigned long long z = (unsigned long long)i * 0x9e3779b97f4a7c15ull + (unsigned long long)j * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 31)) * 0x94d049bb133111ebull;
    return (double)(z >> 11) / 9007199254740992.0 * 2 - 1;
}
static double rnd(long i, long j, int n) { (void)n; return hash(i, j); }
static double rnd2(long i, long j, int n) { (void)n; return hash(i + 7, j * 3 + 1); }
static double spd(long i, long j, int n) { return hash(i < j ? i : j, i < j ? j : i) + (i == j ? n : 0); }
static double ones(long i, long j, int n) { (void)i; (void)j; (void)n; return 1; }

static double maxabs(const dmat *a)
{
    double m = 0, g;
    for (size_t k = 0; k < (size_t)a->desc[8] * a->lc; k++) m = fmax(m, fabs(a->v[k]));
    MPI_Allreduce(&m, &g, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return g;
}

/* y <- alpha A x + beta y */
static void gemv(double alpha, const dmat *a, const dmat *x, double beta, dmat *y)
{
    pdgemv_("N", &a->m, &a->n, &alpha, a->v, &i1, &i1, a->desc, x->v, &i1, &i1, x->desc, &i1, &beta, y->v, &i1,
            &i1, y->desc, &i1);
}

static void axpy_into(dmat *d, const dmat *s) /* d <- d - s */
{
    for (size_t k = 0; k < (size_t)d->desc[8] * d->lc; k++) d->v[k] -= s->v[k];
}

/* Runs op once at n, nb; time (s) and the scaled residual. */
static void run(const char *op, int n, int nb, double *t, double *resid)
{
    int gemm = !strcmp(op, "gemm"), llt = !strcmp(op, "llt"), info = 0;
    dmat a = dmat_new(n, n, nb), x = dmat_new(n, 1, nb), y = dmat_new(n, 1, nb), z = dmat_new(n, 1, nb);
    fill(&a, llt ? spd : rnd, n);
    fill(&x, gemm ? rnd2 : ones, n);
    double one = 1, zero = 0, eps = 2.2e-16;
    if (gemm) {
        dmat b = dmat_new(n, n, nb), c = dmat_new(n, n, nb);
        fill(&b, rnd2, n);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        pdgemm_("N", "N", &n, &n, &n, &one, a.v, &i1, &i1, a.desc, b.v, &i1, &i1, b.desc, &zero, c.v, &i1, &i1,
                c.desc);
        MPI_Barrier(MPI_COMM_WORLD);
        *t = MPI_Wtime() - t0;
        gemv(1, &b, &x, 0, &y); /* y = B x */
        gemv(1, &a, &y, 0, &z); /* z = A y */
        gemv(1, &c, &x, 0, &y); /* y = C x */
        axpy_into(&y, &z);
        *resid = maxabs(&y) / ((double)n * n * eps * maxabs(&a) * maxabs(&b));
        free(b.v);
        free(c.v);
    } else {
        dmat a0 = dmat_new(n, n, nb);
        memcpy(a0.v, a.v, sizeof(double) * a.desc[8] * (a.lc > 0 ? a.lc : 1));
        gemv(1, &a0, &x, 0, &y); /* b = A 1 */
        memcpy(z.v, y.v, sizeof(double) * y.desc[8] * (y.lc > 0 ? y.lc : 1));
        int *ipiv = malloc(sizeof(int) * (a.lr + nb));
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (llt) pdpotrf_("L", &n, a.v, &i1, &i1, a.desc, &info);
        else pdgetrf_(&n, &n, a.v, &i1, &i1, a.desc, ipiv, &info);
        MPI_Barrier(MPI_COMM_WORLD);
        *t = MPI_Wtime() - t0;
        if (!info && llt) pdpotrs_("L", &n, &i1, a.v, &i1, &i1, a.desc, z.v, &i1, &i1, z.desc, &info);
        else if (!info) pdgetrs_("N", &n, &i1, a.v, &i1, &i1, a.desc, ipiv, z.v, &i1, &i1, z.desc, &info);
        /* z = x solved; y <- A0 z - b */
        gemv(1, &a0, &z, -1, &y);
        *resid = info ? INFINITY : maxabs(&y) / ((double)n * n * eps * maxabs(&a0) * maxabs(&z));
        free(ipiv);
        free(a0.v);
    }
    free(a.v); free(x.v); free(y.v); free(z.v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 6) {
        fprintf(stderr, "usage: pdtime gemm|lu|llt N NB[,NB...] P Q\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *op = argv[1];
    int n = atoi(argv[2]), p = atoi(argv[4]), q = atoi(argv[5]), me, np;
    Cblacs_pinfo(&me, &np);
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", p, q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (myrow < 0 || myrow >= p) { MPI_Finalize(); return 0; } /* not in the grid */
    double flops = !strcmp(op, "gemm") ? 2.0 * n * n * n : !strcmp(op, "lu") ? 2.0 / 3 * n * n * n : 1.0 / 3 * n * n * n;
    int bad = 0;
    char list[256];
    snprintf(list, sizeof list, "%s", argv[3]);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        int nb = atoi(tok);
        double t, r;
        run(op, n < 4 * nb ? n : 4 * nb, nb, &t, &r); /* warm-up */
        run(op, n, nb, &t, &r);
        int ok = r < 1;
        bad |= !ok;
        if (me == 0) {
            printf("RESULT op=%s n=%d nb=%d grid=%dx%d time_s=%.3f gflops=%.1f check=%s resid=%.2g\n", op, n, nb, p,
                   q, t, flops / t / 1e9, ok ? "ok" : "BAD", r);
            fflush(stdout);
        }
    }
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return bad;
}
