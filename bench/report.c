/* SPDX-License-Identifier: BSD-3-Clause */
/* The benchmark's outputs: a table for people (what ran where, when, and
 * GFLOP/s per peer with ours/CLBlast), and CSV and JSON files that carry
 * every number with the metadata needed to reproduce or question it — in
 * the spirit of GEMMbench: device, driver, library versions, options,
 * sizes, repetitions, min and median times, error, check status. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

static const char *tr(gpublas3Transpose t) { return t == gpublas3NoTrans ? "N" : t == gpublas3Trans ? "T" : "C"; }
static const char *sd(const spec_case *c) { return c->side == gpublas3Left ? "L" : "R"; }
static const char *ul(const spec_case *c) { return c->uplo == gpublas3Upper ? "U" : "L"; }
static const char *dg(const spec_case *c) { return c->diag == gpublas3NonUnit ? "N" : "U"; }
static const char *od(const spec_case *c) { return c->order == gpublas3ColumnMajor ? "col" : "row"; }

/* Only the options the routine takes, e.g. "col side=L uplo=U". */
void bench_options_string(const spec_case *c, char *buf, size_t n)
{
    switch (c->routine) {
    case SPEC_GEMM:
        if (c->batch) /* as cublas_peer.cu writes it, so the two join */
            snprintf(buf, n, "%s transA=%s transB=%s batch=%zu", od(c), tr(c->transA), tr(c->transB), c->batch);
        else
            snprintf(buf, n, "%s transA=%s transB=%s", od(c), tr(c->transA), tr(c->transB));
        break;
    case SPEC_SYMM:
    case SPEC_HEMM: snprintf(buf, n, "%s side=%s uplo=%s", od(c), sd(c), ul(c)); break;
    case SPEC_SYRK:
    case SPEC_SYR2K:
    case SPEC_HERK:
    case SPEC_HER2K: snprintf(buf, n, "%s uplo=%s trans=%s", od(c), ul(c), tr(c->transA)); break;
    case SPEC_TRMM:
    case SPEC_TRSM:
        snprintf(buf, n, "%s side=%s uplo=%s transA=%s diag=%s", od(c), sd(c), ul(c), tr(c->transA), dg(c));
        break;
    default: snprintf(buf, n, "?");
    }
}

/* The same, as BLAS people abbreviate it: "col NN", "col LUNN". */
static void options_short(const spec_case *c, char *buf, size_t n)
{
    switch (c->routine) {
    case SPEC_GEMM: snprintf(buf, n, "%s %s%s", od(c), tr(c->transA), tr(c->transB)); break;
    case SPEC_SYMM:
    case SPEC_HEMM: snprintf(buf, n, "%s %s%s", od(c), sd(c), ul(c)); break;
    case SPEC_SYRK:
    case SPEC_SYR2K:
    case SPEC_HERK:
    case SPEC_HER2K: snprintf(buf, n, "%s %s%s", od(c), ul(c), tr(c->transA)); break;
    case SPEC_TRMM:
    case SPEC_TRSM: snprintf(buf, n, "%s %s%s%s%s", od(c), sd(c), ul(c), tr(c->transA), dg(c)); break;
    default: snprintf(buf, n, "?");
    }
}

/* The case's size as the table shows it: n for the squares of --sizes,
 * for shapes the dimensions the routine takes, as shapes.h writes them
 * (the options column carries the transposes). */
static void dims_string(const bench_result *r, char *buf, size_t n)
{
    const spec_case *c = &r->c;
    int rk = c->routine == SPEC_SYRK || c->routine == SPEC_SYR2K || c->routine == SPEC_HERK || c->routine == SPEC_HER2K;
    if (!r->group || !r->group[0]) snprintf(buf, n, "%zu", c->N);
    else if (rk) snprintf(buf, n, "%zux%zu", c->N, c->K);
    else if (c->routine == SPEC_GEMM) snprintf(buf, n, "%zux%zux%zu", c->M, c->N, c->K);
    else snprintf(buf, n, "%zux%zu", c->M, c->N);
}
static int dims_width = 6;   /* 15 when the run has shapes: set by report_header */

static int index_of(const bench_result *row, int npeers, const char *name)
{
    for (int i = 0; i < npeers; i++)
        if (strcmp(row[i].peer, name) == 0) return i;
    return -1;
}

void report_header(FILE *out, const bench_config *cfg, const bench_device *dev,
                   const char *peers[], const char *versions[], int npeers)
{
    fprintf(out, "gpublas3-bench: gpublas3 %s, %s, host %s (%s, %ld CPUs, load %s)\n", dev->library, dev->date,
            dev->host, dev->os, dev->host_cpus, dev->load);
    fprintf(out, "device   %s (%s, %s, %u compute units, %u MHz, %.1f GiB)\n", dev->name, dev->type,
            dev->vendor, dev->compute_units, dev->clock_mhz, (double)dev->global_mem / (1 << 30));
    fprintf(out, "driver   %s; %s; platform %s, %s\n", dev->driver, dev->cl_version, dev->platform_name,
            dev->platform_version);
    /* unpinned, PoCL's worker threads made our figures swing by up to 2x
     * on a 2-vCPU host (docs/performance.md, The CPU shape suite) */
    if (strstr(dev->platform_name, "Portable Computing Language") && strcmp(dev->type, "cpu") == 0 &&
        !getenv("POCL_AFFINITY"))
        fprintf(out, "note     POCL_AFFINITY is unset: PoCL's threads are not pinned, and its figures may swing\n"
                     "         from run to run; POCL_AFFINITY=1 pins them (README, Environment variables)\n");
    for (int i = 0; i < npeers; i++)
        fprintf(out, "%-8s %s %s\n", i == 0 ? "peers" : "", peers[i], versions[i][0] ? versions[i] : "(unavailable)");
    fprintf(out, "method   median of %d timed calls (%d per round x %d rounds%s) after 1 checked warm-up call\n"
                 "         per round and untimed device calls for 20 ms (GPU clocks; 100 ms, and host calls too, on a CPU\n"
                 "         device); device calls timed between clFinish, transfers excluded; alpha=%g beta=%g;\n"
                 "         random data in [-1,1], seed %llu\n",
            cfg->reps * cfg->rounds, cfg->reps, cfg->rounds,
            cfg->nshapes ? "; 8x as many under 0.1 GFLOP, at most 64" : "", cfg->alpha, cfg->beta, cfg->seed);
    if (cfg->sample)
        fprintf(out, "check    the leading %zu columns of each output (rows on the right side; syrk-like:\n"
                     "         the leading %zu x %zu block), --sample\n", cfg->sample, cfg->sample, cfg->sample);
    if (cfg->ld_extra)
        fprintf(out, "ld       every leading dimension %zu elements past the tight one, --ld-extra\n", cfg->ld_extra);
    fprintf(out, "options  order, then gemm: transA transB | symm: side uplo | syrk, syr2k: uplo trans |\n"
                 "         trmm, trsm: side uplo transA diag.  Cells: GFLOP/s of the median call (useful flops)\n\n");
    dims_width = cfg->nshapes ? 15 : 6;
    if (cfg->nshapes)
        fprintf(out, "shapes   %s; M x N x K (gemm), N x K (syrk, syr2k, herk, her2k), M x N (the others)\n\n",
                cfg->suite ? cfg->suite : "--shapes list");
    fprintf(out, "%-7s %-9s %*s", "routine", "options", dims_width, cfg->nshapes ? "shape" : "n");
    for (int i = 0; i < npeers; i++) fprintf(out, " %11s", peers[i]);
    int ours = -1, theirs = -1;
    for (int i = 0; i < npeers; i++) {
        if (strcmp(peers[i], "gpublas3") == 0) ours = i;
        if (strcmp(peers[i], "clblast") == 0) theirs = i;
    }
    if (ours >= 0 && theirs >= 0) fprintf(out, " %13s", "ours/clblast");
    fprintf(out, "\n");
    fflush(out);
}

void report_row(FILE *out, const bench_result *row, int npeers)
{
    const spec_case *c = &row[0].c;
    char name[16], opts[16], dims[48];
    snprintf(name, sizeof name, "%c%s", spec_precision(c), spec_routine_name(c->routine));
    options_short(c, opts, sizeof opts);
    dims_string(&row[0], dims, sizeof dims);
    fprintf(out, "%-7s %-9s %*s", name, opts, dims_width, dims);
    for (int i = 0; i < npeers; i++) {
        const char *st = row[i].status;
        if (strcmp(st, "ok") == 0) fprintf(out, " %11.2f", row[i].gflops);
        else fprintf(out, " %11s", strncmp(st, "FAIL", 4) == 0 ? "FAIL" :
                                  strstr(st, "unavailable") ? "-" : "error");
    }
    int ours = index_of(row, npeers, "gpublas3"), theirs = index_of(row, npeers, "clblast");
    if (ours >= 0 && theirs >= 0) {
        if (row[ours].gflops > 0 && row[theirs].gflops > 0)
            fprintf(out, " %13.2f", row[ours].gflops / row[theirs].gflops);
        else
            fprintf(out, " %13s", "-");
    }
    fprintf(out, "\n");
    for (int i = 0; i < npeers; i++)
        if (strcmp(row[i].status, "ok") && !strstr(row[i].status, "unavailable"))
            fprintf(out, "        ! %s: %s\n", row[i].peer, row[i].status);
    fflush(out);
}

/* The project's own yardstick: every routine should run near our GEMM's
 * rate.  One line per GEMM result: the others' GFLOP/s over it (same
 * precision, order and M, N, K as case_dims sets them). */
static void versus_gemm(FILE *out, const bench_result *all, size_t nall)
{
    int header = 0;
    for (size_t i = 0; i < nall; i++) {
        const bench_result *g = &all[i];
        if (strcmp(g->peer, "gpublas3") || strcmp(g->status, "ok") || g->c.routine != SPEC_GEMM) continue;
        int printed = 0;
        for (size_t j = 0; j < nall; j++) {
            const bench_result *r = &all[j];
            if (strcmp(r->peer, "gpublas3") || strcmp(r->status, "ok") || r->c.routine == SPEC_GEMM ||
                spec_precision(&g->c) != spec_precision(&r->c) || g->c.M != r->c.M || g->c.N != r->c.N ||
                g->c.K != r->c.K || g->c.order != r->c.order)
                continue;
            if (!header++) fprintf(out, "\ngpublas3, each routine's GFLOP/s over its own GEMM's:\n");
            char dims[48], opts[16];
            dims_string(g, dims, sizeof dims);
            options_short(&g->c, opts, sizeof opts);
            if (!printed++) fprintf(out, "  %c %s n=%-5s", spec_precision(&g->c), opts, dims);
            fprintf(out, "  %s %.2f", spec_routine_name(r->c.routine), r->gflops / g->gflops);
        }
        if (printed) fprintf(out, "\n");
    }
}

/* With shapes: gpublas3's rate over each peer's, per case, and whether
 * the case meets the shape suite's target against the peers in this run: on a
 * GPU >= 1.0x CLBlast (cuBLAS runs apart: plot.py --table adds it); on a
 * CPU >= 0.5x OpenBLAS from 0.25 GFLOP up, else >= 1.0x CLBlast. */
static void versus_peers(FILE *out, const bench_device *dev, const bench_result *all, size_t nall, int npeers)
{
    const int cpu = strcmp(dev->type, "cpu") == 0;
    int met = 0, missed = 0;
    fprintf(out, "\ngpublas3's GFLOP/s over each peer's, per case (target: %s):\n",
            cpu ? ">= 0.5x openblas from 0.25 GFLOP, else >= 1.0x clblast" : ">= 1.0x clblast");
    for (size_t at = 0; at + (size_t)npeers <= nall; at += (size_t)npeers) {
        const bench_result *row = all + at;
        int ours = index_of(row, npeers, "gpublas3");
        if (ours < 0 || strcmp(row[ours].status, "ok")) continue;
        char name[16], opts[16], dims[48];
        snprintf(name, sizeof name, "%c%s", spec_precision(&row[0].c), spec_routine_name(row[0].c.routine));
        options_short(&row[0].c, opts, sizeof opts);
        dims_string(&row[0], dims, sizeof dims);
        fprintf(out, "  %-7s %-9s %15s %-7s", name, opts, dims, row[0].group);
        const char *judge = cpu && spec_flops(&row[0].c) >= 2.5e8 ? "openblas" : "clblast";
        double need = strcmp(judge, "openblas") == 0 ? 0.5 : 1.0, ratio = -1;
        for (int i = 0; i < npeers; i++) {
            if (i == ours || strcmp(row[i].status, "ok")) continue;
            double q = row[ours].gflops / row[i].gflops;
            fprintf(out, "  %s %.2f", row[i].peer, q);
            if (strcmp(row[i].peer, judge) == 0) ratio = q;
        }
        if (ratio >= 0) {
            fprintf(out, "  %s", ratio >= need ? "met" : "MISSED");
            if (ratio >= need) met++;
            else missed++;
        }
        fprintf(out, "\n");
    }
    fprintf(out, "  target met in %d cases, missed in %d\n", met, missed);
}

void report_footer(FILE *out, const bench_config *cfg, const bench_device *dev, const bench_result *all,
                   size_t nall)
{
    if (cfg->nshapes) versus_peers(out, dev, all, nall, cfg->npeers);
    versus_gemm(out, all, nall);
    size_t ok = 0, fail = 0, err = 0;
    for (size_t i = 0; i < nall; i++) {
        if (strcmp(all[i].status, "ok") == 0) ok++;
        else if (strncmp(all[i].status, "FAIL", 4) == 0) fail++;
        else if (!strstr(all[i].status, "unavailable")) err++;
    }
    fprintf(out, "\nchecked against OpenBLAS: %zu passed, %zu FAILED, %zu could not run\n", ok, fail, err);
    if (dev->others >= 0)
        fprintf(out, "during the run, other processes used %.0f%% of the %ld CPUs and the hypervisor stole %.0f%%%s\n",
                100 * dev->others, dev->host_cpus, 100 * dev->steal,
                dev->others + dev->steal > 0.1 ? ": timings disturbed, rerun on a quiet host" : "");
}

/* --- CSV ------------------------------------------------------------------- */
static void csv_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}

FILE *report_csv_open(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f)
        fprintf(f, "date,host,device,vendor,driver,opencl,gpublas3,peer,peer_version,routine,precision,"
                   "options,m,n,k,alpha,beta,reps,min_s,median_s,gflops,max_rel_err,status,shape,group\n");
    return f;
}

void report_csv_row(FILE *f, const bench_device *dev, const bench_result *r)
{
    const spec_case *c = &r->c;
    char num[512];
    csv_field(f, dev->date, 0);
    csv_field(f, dev->host, 0);
    csv_field(f, dev->name, 0);
    csv_field(f, dev->vendor, 0);
    csv_field(f, dev->driver, 0);
    csv_field(f, dev->cl_version, 0);
    csv_field(f, dev->library, 0);
    csv_field(f, r->peer, 0);
    csv_field(f, r->peer_version, 0);
    csv_field(f, spec_routine_name(c->routine), 0);
    char prec[2] = { spec_precision(c), 0 };
    csv_field(f, prec, 0);
    csv_field(f, r->options, 0);
    snprintf(num, sizeof num, "%zu,%zu,%zu,%.17g,%.17g,%d,%.9g,%.9g,%.6g,%.3g", c->M, c->N, c->K, c->alpha,
             c->beta, r->reps, r->min_s, r->median_s, r->gflops, r->max_rel_err);
    fputs(num, f);
    fputc(',', f);
    csv_field(f, r->status, 0);
    char dims[48];
    dims_string(r, dims, sizeof dims);
    csv_field(f, dims, 0);
    csv_field(f, r->group ? r->group : "", 1);
    fflush(f);
}

/* --- JSON ------------------------------------------------------------------ */
extern char **environ;

static void js(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void jkv(FILE *f, const char *indent, const char *key, const char *val, int comma)
{
    fprintf(f, "%s\"%s\": ", indent, key);
    js(f, val);
    fputs(comma ? ",\n" : "\n", f);
}

int report_json(const char *path, const bench_config *cfg, const bench_device *dev,
                const char *peers[], const char *versions[], int npeers,
                const bench_result *all, size_t nall)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\n  \"benchmark\": \"gpublas3-bench\",\n");
    jkv(f, "  ", "date", dev->date, 1);
    jkv(f, "  ", "host", dev->host, 1);
    jkv(f, "  ", "os", dev->os, 1);
    fprintf(f, "  \"host_cpus\": %ld,\n", dev->host_cpus);
    jkv(f, "  ", "load_average_at_start", dev->load, 1);
    fprintf(f, "  \"cpu_share_of_other_processes\": %.3f,\n  \"cpu_share_stolen\": %.3f,\n", dev->others, dev->steal);
    fprintf(f, "  \"device\": {\n");
    jkv(f, "    ", "name", dev->name, 1);
    jkv(f, "    ", "vendor", dev->vendor, 1);
    jkv(f, "    ", "type", dev->type, 1);
    jkv(f, "    ", "driver_version", dev->driver, 1);
    jkv(f, "    ", "opencl_version", dev->cl_version, 1);
    jkv(f, "    ", "platform", dev->platform_name, 1);
    jkv(f, "    ", "platform_version", dev->platform_version, 1);
    fprintf(f, "    \"compute_units\": %u,\n    \"max_clock_mhz\": %u,\n    \"global_mem_bytes\": %llu\n  },\n",
            dev->compute_units, dev->clock_mhz, (unsigned long long)dev->global_mem);
    fprintf(f, "  \"peers\": {\n");
    for (int i = 0; i < npeers; i++) jkv(f, "    ", peers[i], versions[i], i + 1 < npeers);
    fprintf(f, "  },\n  \"environment\": {");
    int first = 1;
    for (char **e = environ; *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || (strncmp(*e, "GPUBLAS3_", 9) && strncmp(*e, "POCL_", 5) && strncmp(*e, "OPENBLAS_", 9) &&
                    strncmp(*e, "OMP_", 4) && strncmp(*e, "CLBLAST_", 8)))
            continue;
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - *e), *e);
        fprintf(f, "%s\n", first ? "" : ",");
        fprintf(f, "    ");
        js(f, key);
        fputs(": ", f);
        js(f, eq + 1);
        first = 0;
    }
    fprintf(f, "%s},\n", first ? "" : "\n  ");
    fprintf(f, "  \"method\": {\n    \"reps\": %d,\n    \"rounds\": %d,\n    \"warmup\": 1,\n", cfg->reps,
            cfg->rounds);
    jkv(f, "    ", "timer", "CLOCK_MONOTONIC wall clock; device calls between clFinish before and after, "
        "host<->device transfers excluded; the output operand is restored before every call; device peers "
        "timed in interleaved rounds, host peers after them; each phase 0.2 s after the other's last call (idle worker threads spin); the device phase first runs untimed rounds for 20 ms on a GPU (its clocks), and on a CPU device both phases for 100 ms (PoCL's first launches after the pause run slow)", 1);
    jkv(f, "    ", "check", "the warm-up call's whole output buffer against OpenBLAS (spec_check: per-element "
        "bound from K*eps*(|alpha||op(A)||op(B)|+|beta||C|), untouched elements bit-identical); "
        "a failing peer is not timed", 1);
    fprintf(f, "    \"sample\": %zu,\n", cfg->sample);
    fprintf(f, "    \"ld_extra\": %zu,\n", cfg->ld_extra);
    jkv(f, "    ", "sample_means", "0: the whole output is checked; S: only the leading S columns (S rows for "
        "right-side routines, the leading S x S block for SYRK-like ones), the same routine on the same buffers, "
        "and every element the call must not touch", 1);
    jkv(f, "    ", "max_rel_err", "max over elements of |got-ref| / (|alpha||op(A)||op(B)|+|beta||C|) "
        "(complex: |re|+|im| of each; TRSM: |op(A)X-alpha B| / (|op(A)||X|+|alpha||B|)), the check's bound", 1);
    jkv(f, "    ", "data", "uniform random in [-1,1], never zero (splitmix64)", 1);
    fprintf(f, "    \"seed\": %llu,\n    \"alpha\": %.17g,\n    \"beta\": %.17g\n  },\n", cfg->seed, cfg->alpha,
            cfg->beta);
    fprintf(f, "  \"results\": [");
    for (size_t i = 0; i < nall; i++) {
        const bench_result *r = &all[i];
        const spec_case *c = &r->c;
        fprintf(f, "%s\n    {", i ? "," : "");
        fprintf(f, "\"peer\": ");
        js(f, r->peer);
        fprintf(f, ", \"routine\": \"%s\", \"precision\": \"%c\", \"options\": ", spec_routine_name(c->routine),
                spec_precision(c));
        js(f, r->options);
        char dims[48];
        dims_string(r, dims, sizeof dims);
        fprintf(f, ", \"shape\": ");
        js(f, dims);
        fprintf(f, ", \"group\": ");
        js(f, r->group ? r->group : "");
        fprintf(f, ", \"m\": %zu, \"n\": %zu, \"k\": %zu, \"lda\": %zu, \"ldb\": %zu, \"ldc\": %zu, \"flops\": %.17g,",
                c->M, c->N, c->K, c->lda, c->ldb, c->ldc, spec_flops(c));
        fprintf(f, " \"reps\": %d, \"times_s\": [", r->reps);
        for (int k = 0; k < r->reps; k++) fprintf(f, "%s%.9g", k ? ", " : "", r->times[k]);
        fprintf(f, "], \"min_s\": %.9g, \"median_s\": %.9g, \"gflops\": %.6g, \"max_rel_err\": ",
                r->min_s, r->median_s, r->gflops);
        if (isfinite(r->max_rel_err)) fprintf(f, "%.3g", r->max_rel_err);
        else fputs("null", f);   /* JSON has no infinity: a non-finite result */
        fprintf(f, ", \"status\": ");
        js(f, r->status);
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}
