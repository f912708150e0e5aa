#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Registers, spills and local memory of one GEMM kernel parameter set (or
# any of the kernels, named second) on
# sm_90, with no GPU: clang turns kernels/gemm.cl into PTX (OpenCL C on the
# nvptx64-nvidia-nvcl target, a few OpenCL built-ins mapped to PTX special
# registers below), ptxas from the CUDA toolkit assembles it.  NVIDIA's own
# OpenCL compiler differs in detail; this is for screening sets (spills, the
# 255-register limit, shared memory) and for checking inline PTX.
# Usage: bench/tune_ptxcheck.sh "-DPRECISION=64 -DMWG=64 ... -DMMA=2"
#        (every -D that lib/params.c's g3_params_defines writes)
#        bench/tune_ptxcheck.sh "-DPRECISION=32 -DTB=32 -DW=8 -DSLOTS=4 -DREFINE=1" kernels/trsm.cl
#        (another kernel with the options its host side builds it with)
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/prelude.h" <<'P'
#define get_group_id(d) ((d) == 0 ? __nvvm_read_ptx_sreg_ctaid_x() : (d) == 1 ? __nvvm_read_ptx_sreg_ctaid_y() : __nvvm_read_ptx_sreg_ctaid_z())
#define get_local_size(d) ((d) == 0 ? __nvvm_read_ptx_sreg_ntid_x() : (d) == 1 ? __nvvm_read_ptx_sreg_ntid_y() : __nvvm_read_ptx_sreg_ntid_z())
#define get_num_groups(d) ((d) == 0 ? __nvvm_read_ptx_sreg_nctaid_x() : (d) == 1 ? __nvvm_read_ptx_sreg_nctaid_y() : __nvvm_read_ptx_sreg_nctaid_z())
#define get_local_id(d) ((d) == 0 ? __nvvm_read_ptx_sreg_tid_x() : (d) == 1 ? __nvvm_read_ptx_sreg_tid_y() : __nvvm_read_ptx_sreg_tid_z())
#define barrier(x) __asm__ volatile("bar.sync 0;" ::: "memory")
#define fma(a, b, c) ((a) * (b) + (c))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define sqrt(x) __nvvm_sqrt_rn_f(x)
/* the store's vloadn / vstoren of C (kernels/gemm.cl), as aligned vector accesses */
#if PRECISION == 64
#define PT_(n) double##n
#else
#define PT_(n) float##n
#endif
#define PV_(n, o, p) (*(__global PT_(n) *)((p) + (n) * (o)))
#define vload2(o, p) PV_(2, o, p)
#define vload4(o, p) PV_(4, o, p)
#define vload8(o, p) PV_(8, o, p)
#define vload16(o, p) PV_(16, o, p)
#define vstore2(v, o, p) (PV_(2, o, p) = (v))
#define vstore4(v, o, p) (PV_(4, o, p) = (v))
#define vstore8(v, o, p) (PV_(8, o, p) = (v))
#define vstore16(v, o, p) (PV_(16, o, p) = (v))
#define FP_FAST_FMA 1
#define FP_FAST_FMAF 1
P
${CLANG:-clang-15} -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -finclude-default-header -O3 \
    -ffp-contract=fast -Dasm=__asm__ -include "$tmp/prelude.h" $1 -S "$here/${2:-kernels/gemm.cl}" -o "$tmp/k0.ptx"
sed -e 's/^\.target sm_20.*/.target sm_90/' -e 's/^\.version .*/.version 7.8/' "$tmp/k0.ptx" > "$tmp/k.ptx"
${PTXAS:-ptxas} -arch=sm_90 -v "$tmp/k.ptx" -o "$tmp/k.cubin" 2>&1 | grep -E 'registers|spill|error|fatal'
