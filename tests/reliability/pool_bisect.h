/* SPDX-License-Identifier: BSD-3-Clause */
/* test_pool's bisection stages (pool_bisect.c) and what they share with
 * test_pool.c: its device, its base case, its driver control and its
 * bounded wait. */
#ifndef POOL_BISECT_H
#define POOL_BISECT_H
#include "rel.h"

extern rel_dev pool_dev;
extern const spec_case pool_base;
/* Whether the driver runs a plain copy on qy while one on qx waits for an
 * unset user event (test_pool.c). */
int driver_runs_past(cl_command_queue qx, cl_command_queue qy);
/* 0 when ev completed within `seconds` (test_pool.c). */
int wait_bounded(cl_event ev, double seconds);

void ooo_control(void);
void ooo_migrate_control(void);
void ooo_kernel_control(void);
void ooo_single_gated(void);
void ooo_single_ungated(void);
void ooo_replica(void);
void ooo_replay(void);
#endif
