/* SPDX-License-Identifier: MIT */
/*
 * cpuio: no I/O, CPU burnt.  Each "I/O" spins for cpuchunks microseconds
 * (cpumode=noop) or sorts a 1 MiB array four times (cpumode=qsort), and
 * the worker then pauses for the idle share that makes cpuload percent of
 * one CPU (engine.think), as fio's cpuio does through its thinktime.  The
 * job counts one read of 0 bytes per chunk, as fio's, and runs for its
 * runtime alone (ENGINE_F_NOIO): no file, no size.  exit_on_io_done ends
 * it once the run's clones that do I/O have ended (run/clone.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "util/runclock.h"
#include "util/util.h"

extern const struct engine_ops cpuio_engine_ops;

enum cpu_mode { CPU_NOOP, CPU_QSORT };

struct cpuio_opts {
	unsigned cpuload;     /* % of one CPU; 0: not given (refused) */
	unsigned cpuchunks;   /* us: one spin */
	int cpumode;	      /* enum cpu_mode */
	bool exit_on_io_done; /* end when the I/O clones have */
};

#define CF(field) .engine = &cpuio_engine_ops, .off = offsetof(struct cpuio_opts, field)

static const struct opt_enum cpumode_enums[] = {
	{ "noop", CPU_NOOP },
	{ "qsort", CPU_QSORT },
	{ NULL, 0 },
};

enum { CO_CPUCHUNKS, CO_CPULOAD, CO_CPUMODE, CO_EXIT_ON_IO_DONE, CO_NR };

/* clang-format off */
static const struct opt_def cpuio_options[CO_NR + 1] = {
	[CO_CPUCHUNKS] = { .name = "cpuchunks", .kind = &opt_kind_uint, CF(cpuchunks), .min = 1,
	  .def = "50000", .help = "cpuio: microseconds of one burn (the idle share follows it)" },
	[CO_CPULOAD] = { .name = "cpuload", .kind = &opt_kind_uint, CF(cpuload), .max = 100,
	  .def = "0", .help = "cpuio: the percentage of one CPU to burn, 1 to 100 (required)" },
	[CO_CPUMODE] = { .name = "cpumode", .kind = &opt_kind_enum, CF(cpumode),
	  .enums = cpumode_enums, .def = "noop",
	  .help = "cpuio: noop (spin on the clock) or qsort (sort 1 MiB, four times)" },
	[CO_EXIT_ON_IO_DONE] = { .name = "exit_on_io_done", .kind = &opt_kind_bool,
	  CF(exit_on_io_done), .def = "0",
	  .help = "cpuio: end once every job that does I/O has ended" },
	[CO_NR] = { .name = NULL },
};
/* clang-format on */

static int cpuio_check(const struct job *job, const void *o, const struct opt_def **blame,
		       char **cause)
{
	const struct cpuio_opts *opts = o;

	(void)job;
	(void)blame; /* ioengine=cpuio's line: cpuload has none to name */
	if (!opts->cpuload) {
		return set_cause(cause, "ioengine=cpuio needs cpuload= (the percentage of one "
					"CPU to burn, 1 to 100)");
	}
	return 0;
}

/* qsort mode's array: 256 Ki 32-bit numbers (1 MiB), as fio's. */
#define SORT_N (256u * 1024u)

struct cpuio_priv {
	uint64_t chunk; /* ns: the last burn's length */
	unsigned load;	/* % */
	int mode;
	int32_t *data; /* qsort: SORT_N numbers */
};

/*
 * In-place quicksorts (median of three, Hoare's partition, the smaller
 * side first so the stack stays under 64 ranges, insertion sort below 16):
 * libc's qsort allocates a buffer of the array's size on each call, which
 * the I/O loop may not do.  One per order fio's four sorts use.
 */
#define QSORT_FN(name, T, LESS)                                                    \
	static void name(T *v, size_t n)                                           \
	{                                                                          \
		size_t stack[64][2], sp = 0, lo = 0, hi = n, i, j, m;              \
		T p, t;                                                            \
                                                                                   \
		for (;;) {                                                         \
			while (hi - lo > 16) {                                     \
				m = lo + (hi - lo) / 2;                            \
				if (LESS(v[m], v[lo]))                             \
					t = v[m], v[m] = v[lo], v[lo] = t;         \
				if (LESS(v[hi - 1], v[m]))                         \
					t = v[m], v[m] = v[hi - 1], v[hi - 1] = t; \
				if (LESS(v[m], v[lo]))                             \
					t = v[m], v[m] = v[lo], v[lo] = t;         \
				/* The median at lo: j ends in [lo, hi - 2]. */    \
				t = v[m], v[m] = v[lo], v[lo] = t;                 \
				p = v[lo];                                         \
				i = lo - 1;                                        \
				j = hi;                                            \
				for (;;) {                                         \
					do                                         \
						i++;                               \
					while (LESS(v[i], p));                     \
					do                                         \
						j--;                               \
					while (LESS(p, v[j]));                     \
					if (i >= j)                                \
						break;                             \
					t = v[i], v[i] = v[j], v[j] = t;           \
				}                                                  \
				if (j + 1 - lo < hi - j - 1) {                     \
					stack[sp][0] = j + 1, stack[sp++][1] = hi; \
					hi = j + 1;                                \
				} else {                                           \
					stack[sp][0] = lo, stack[sp++][1] = j + 1; \
					lo = j + 1;                                \
				}                                                  \
			}                                                          \
			for (i = lo + 1; i < hi; i++)                              \
				for (j = i; j > lo && LESS(v[j], v[j - 1]); j--)   \
					t = v[j], v[j] = v[j - 1], v[j - 1] = t;   \
			if (!sp)                                                   \
				break;                                             \
			sp--;                                                      \
			lo = stack[sp][0];                                         \
			hi = stack[sp][1];                                         \
		}                                                                  \
	}

#define ASC(a, b)  ((a) < (b))
#define DESC(a, b) ((a) > (b))
QSORT_FN(sort_up, int32_t, ASC)
QSORT_FN(sort_down, int32_t, DESC)
QSORT_FN(sort_bytes_up, int8_t, ASC)

/* One think after each burn: the idle share that makes @load % of @chunk. */
static uint64_t idle_for(uint64_t chunk, unsigned load)
{
	return chunk / load * (100 - load) + chunk % load * (100 - load) / load;
}

static int cpuio_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	const struct cpuio_opts *o = s->opts;
	struct cpuio_priv *p = xcalloc(1, sizeof(*p));
	uint32_t z = 362436069u, w = 521288629u;
	unsigned i;

	(void)cause;
	p->chunk = (uint64_t)o->cpuchunks * 1000;
	p->load = o->cpuload;
	p->mode = o->cpumode;
	if (p->mode == CPU_QSORT) {
		p->data = xcalloc(SORT_N, sizeof(*p->data));
		/* Marsaglia's multiply-with-carry, as fio fills it. */
		for (i = 0; i < SORT_N; i++) {
			z = 36969 * (z & 65535) + (z >> 16);
			w = 18000 * (w & 65535) + (w >> 16);
			p->data[i] = (int32_t)((z << 16) + w);
		}
	}
	e->priv = p;
	e->think = idle_for(p->chunk, p->load);
	e->until_io_done = o->exit_on_io_done;
	return 0;
}

static enum engine_q cpuio_queue(struct engine *e, struct io_req *req)
{
	struct cpuio_priv *p = e->priv;
	uint64_t t0 = run_now(), end;

	if (p->mode == CPU_QSORT) {
		/* Up, down, by byte, down again: fio's four sorts.  The idle
		 * share then follows the time they took. */
		sort_up(p->data, SORT_N);
		sort_down(p->data, SORT_N);
		sort_bytes_up((int8_t *)p->data, SORT_N * sizeof(*p->data));
		sort_down(p->data, SORT_N);
		e->think = idle_for(run_now() - t0, p->load);
	} else {
		end = t0 + p->chunk;
		while (run_now() < end)
			;
	}
	/* Nothing moved: a read of 0 bytes, as fio counts it. */
	req->len = 0;
	req->res = 0;
	return ENGINE_Q_DONE;
}

static void cpuio_cleanup(struct engine *e)
{
	struct cpuio_priv *p = e->priv;

	free(p->data);
	free(p);
	e->priv = NULL;
}

const struct engine_ops cpuio_engine_ops = {
	.name = "cpuio",
	.desc = "burns cpuload% of a CPU, no I/O",
	.help = "No I/O: each chunk spins on the clock for cpuchunks microseconds\n"
		"(cpumode=noop) or sorts 1 MiB four times (cpumode=qsort), then sleeps\n"
		"for the share that makes cpuload percent of one CPU.  Each chunk\n"
		"counts as a read of 0 bytes.  It runs for the job's runtime, with no\n"
		"file and no size; exit_on_io_done ends it when the I/O jobs have ended.",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILES | ENGINE_F_NOIO,
	.options = cpuio_options,
	.opts_size = sizeof(struct cpuio_opts),
	.check = cpuio_check,
	.init = cpuio_init,
	.queue = cpuio_queue,
	.cleanup = cpuio_cleanup,
};
