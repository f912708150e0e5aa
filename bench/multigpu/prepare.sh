#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Makes what run_h200x2.sh carries to the GPU machine, on this Debian 12
# machine (mpich and scalapack-mpi-test installed): Debian's .debs of MPICH,
# ScaLAPACK and its testers, OpenBLAS (the host BLAS of every rank, as
# libblas.so.3) and their small dependencies; pdtime built against Debian's
# ScaLAPACK; the pilaenv_ shim.  Everything lands in bench/multigpu/carry/
# (git-ignored, about 25 MB), with the library and gpublas3-multiq from
# build/.  Run from the repository root, after building into build/:
#
#   sh bench/multigpu/prepare.sh
set -eu
D=bench/multigpu/carry
rm -rf "$D" && mkdir -p "$D/debs"
(cd "$D/debs" && apt-get download mpich libmpich12 libhwloc15 libucx0 libslurm38 libscalapack-mpich2.2 \
    scalapack-mpi-test scalapack-test-common libopenblas0-pthread libgfortran5 libquadmath0 libfabric1 \
    libpsm2-2 libpsm-infinipath1 librdmacm1 libibverbs1 libnuma1 libpmix2 libevent-core-2.1-7 \
    libevent-pthreads-2.1-7 libmunge2 liblz4-1 libxml2 libudev1 ocl-icd-libopencl1 2>&1 | grep -v "^Get:" || true)
mpicc.mpich -O2 -Wall -o "$D/pdtime" bench/multigpu/pdtime.c /usr/lib/x86_64-linux-gnu/libscalapack-mpich.so.2.2 -lm
gcc -O2 -Wall -shared -fPIC -o "$D/libpilaenv.so" bench/multigpu/pilaenv.c
# what the run takes from the build: the library and gpublas3-multiq
mkdir -p "$D/build/bench"
for f in libgpublas3.so libgpublas3.so.0; do cp -L "build/$f" "$D/build/"; done # files, not links
cp build/bench/gpublas3-multiq "$D/build/bench/"
du -sh "$D"
