/* SPDX-License-Identifier: BSD-3-Clause */
/* Device names against the rows of tables that name devices: lib/device.c's
 * tuned sets, the drop-ins' device choice (GPUBLAS3_DEVICE) and their cost
 * rows (routines/dropin/host.c, crossover.c).  A header of its own, so that
 * a test can build crossover.c with lib/names.c alone. */
#ifndef G3_NAMES_H
#define G3_NAMES_H
/* 1 when needle occurs in hay, case aside. */
int g3_contains_nocase(const char *hay, const char *needle);
/* 1 when the name contains one of match's parts, "A|B": several devices of
 * one design (the H100's rows serve the H200: the same SM and local memory). */
int g3_names_device(const char *name, const char *match);
#endif
