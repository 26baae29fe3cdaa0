/* SPDX-License-Identifier: MIT */
/*
 * The knee of a load curve and the crossover of a block-size curve:
 * pure functions of the measured points, so that the rules can be tested
 * on curves whose answers are known.  Both look at the steps between
 * neighbouring points, in the order the axis runs.
 */
#ifndef IOGAUGE_SWEEP_KNEE_H
#define IOGAUGE_SWEEP_KNEE_H

/*
 * The knee: a step from point i-1 to point i is bent when the IOPS grow
 * by less than @gain_pct percent while the latency (p99) grows by more
 * than @lat_pct percent; it rises when the IOPS grow by @gain_pct or
 * more.  The knee is point i-1 of the first bent step that no rising step
 * follows: the last point before more load stopped buying throughput and
 * started costing latency.  Point 0 when the curve is bent from its first
 * step (the device was saturated at the first point).  -1 when there is
 * none: no bent step (flat, still rising, or noise within the margins),
 * or the IOPS rise again after every bent one.  A step whose earlier
 * value is not above 0 counts as rising when the later one is.
 */
int sweep_knee(const double *iops, const double *lat, unsigned n, double gain_pct, double lat_pct);

/*
 * The crossover of a sweep over growing block sizes: a step is
 * bandwidth-bound when the bandwidth grows by less than @bw_pct percent
 * (so the IOPS fall about as the block size grows), IOPS-bound when it
 * grows by @bw_pct or more.  The crossover is point i-1 of the first
 * bandwidth-bound step that no IOPS-bound step follows and an IOPS-bound
 * step precedes: the last block size at which larger blocks still bought
 * bandwidth.  -1 when there is none (bandwidth-bound from the first
 * step, never bandwidth-bound, or bandwidth that grows again).
 */
int sweep_crossover(const double *bw, unsigned n, double bw_pct);

#endif
