/* SPDX-License-Identifier: MIT */
/* latency_target's queue depth search (see lattarget.h). */
#include "workload/lattarget.h"

void lat_target_init(struct lat_target *lt, unsigned iodepth, uint64_t now, uint64_t ios)
{
	lt->qd = 1;
	lt->qd_low = 1;
	lt->qd_high = iodepth;
	lt->max = iodepth;
	lt->stable = 0;
	lt->end_run = false;
	lt->done = false;
	lat_target_cycle(lt, now, ios);
}

void lat_target_cycle(struct lat_target *lt, uint64_t now, uint64_t ios)
{
	lt->t_cycle = now;
	lt->ios_cycle = ios;
	lt->failed = 0;
}

/* The depth was too deep: back down halfway to the last that held. */
static enum lat_target_act lat_target_down(struct lat_target *lt)
{
	if (lt->qd == 1)
		return LT_FATAL;
	lt->qd_high = lt->qd;
	if (lt->qd == lt->qd_low)
		lt->qd_low--;
	lt->qd = (lt->qd + lt->qd_low) / 2;
	lt->stable = 0;
	return LT_QUIESCE;
}

enum lat_target_act lat_target_over(struct lat_target *lt, double percentile)
{
	if (lt->done)
		return LT_NONE;
	if (percentile == 100.0)
		return lat_target_down(lt);
	lt->failed++;
	return LT_NONE;
}

/* The depth held: up, doubling until a depth fails, then bisecting.  A
 * depth just under the failing one that holds three windows in a row
 * lets the ceiling rise by one, as fio's. */
static enum lat_target_act lat_target_up(struct lat_target *lt, uint64_t now, uint64_t ios,
					 bool latency_run)
{
	unsigned qd = lt->qd;
	enum lat_target_act act = LT_NONE;

	lt->qd_low = lt->qd;
	if (lt->qd + 1 == lt->qd_high && ++lt->stable >= 3) {
		lt->qd_high++;
		lt->stable = 0;
	}
	if (lt->qd_high != lt->max)
		lt->qd = (lt->qd + lt->qd_high) / 2;
	else
		lt->qd *= 2;
	if (lt->qd > lt->max)
		lt->qd = lt->max;
	if (!latency_run && lt->qd == qd) {
		if (lt->end_run) {
			lt->done = true;
			return LT_DONE;
		}
		lt->end_run = true;
		act = LT_FINAL;
	}
	lat_target_cycle(lt, now, ios);
	return act;
}

enum lat_target_act lat_target_check(struct lat_target *lt, uint64_t now, uint64_t ios,
				     uint64_t window, double percentile, bool latency_run)
{
	uint64_t n = ios - lt->ios_cycle;
	/* As fio: a window without I/O is 0/0, which never holds. */
	double ok = 100.0 * (double)(n - lt->failed) / (double)n;

	if (lt->done || now - lt->t_cycle < window)
		return LT_NONE;
	if (ok >= percentile)
		return lat_target_up(lt, now, ios, latency_run);
	return lat_target_down(lt);
}
