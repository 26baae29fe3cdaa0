/* SPDX-License-Identifier: MIT */
/*
 * pvsync2: one preadv2(2) or pwritev2(2) per I/O at its offset, done before
 * ->queue() returns, with fio's per-I/O flags: hipri (RWF_HIPRI, on
 * hipri_percentage of the I/Os), nowait (RWF_NOWAIT), uncached (buffered
 * I/O that leaves no pages in the cache: RWF_DONTCACHE, Linux 6.14's name
 * for what fio 3.33 calls RWF_UNCACHED).
 */
#include <stdlib.h>
#include <sys/uio.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "util/util.h"

/* The uapi values (linux/fs.h), for C libraries that lack the newer ones. */
#ifndef RWF_HIPRI
#define RWF_HIPRI 0x01
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x08
#endif
/* fio 3.33 sets 0x40, its RWF_UNCACHED, which no kernel took under that
 * value (0x40 became RWF_ATOMIC in Linux 6.11); uncached buffered I/O was
 * merged in 6.14 as RWF_DONTCACHE. */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x80
#endif

extern const struct engine_ops pvsync2_engine_ops;

struct pvsync2_opts {
	bool hipri;
	unsigned hipri_percentage; /* % of the I/Os that get RWF_HIPRI */
	unsigned uncached;	   /* nonzero: RWF_DONTCACHE on buffered I/O */
	bool nowait;
};

#define PF(field) .engine = &pvsync2_engine_ops, .off = offsetof(struct pvsync2_opts, field)

/* clang-format off */
static const struct opt_def pvsync2_options[] = {
	{ .name = "hipri", .kind = &opt_kind_bool, PF(hipri), .def = "0", .flags = OPTF_BARE,
	  .help = "pvsync2: RWF_HIPRI, polled completion, on hipri_percentage of the I/Os" },
	{ .name = "hipri_percentage", .kind = &opt_kind_uint, PF(hipri_percentage), .max = 100,
	  .def = "100", .help = "pvsync2: the percentage of I/Os hipri marks, chosen at random" },
	{ .name = "nowait", .kind = &opt_kind_bool, PF(nowait), .def = "0",
	  .help = "pvsync2: RWF_NOWAIT (fail with EAGAIN instead of waiting)" },
	{ .name = "uncached", .kind = &opt_kind_uint, PF(uncached), .def = "0",
	  .help = "pvsync2: buffered I/O that drops its pages after (RWF_DONTCACHE)" },
	{ .name = NULL },
};
/* clang-format on */

struct pvsync2_priv {
	int rwf;	/* flags every read and write gets */
	unsigned hipri; /* %: RWF_HIPRI on this share of them; 0: none */
	uint64_t rng;	/* xorshift64 state, for hipri_percentage */
};

static int pvsync2_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	const struct pvsync2_opts *o = s->opts;
	struct pvsync2_priv *p = xcalloc(1, sizeof(*p));

	(void)cause;
	/* As fio: uncached only on buffered I/O, direct I/O has no pages. */
	if (o->uncached && !s->job->direct)
		p->rwf |= RWF_DONTCACHE;
	if (o->nowait)
		p->rwf |= RWF_NOWAIT;
	p->hipri = o->hipri ? o->hipri_percentage : 0;
	p->rng = 0x9e3779b97f4a7c15ull;
	e->priv = p;
	return 0;
}

static enum engine_q pvsync2_queue(struct engine *e, struct io_req *req)
{
	struct pvsync2_priv *p = e->priv;
	int rwf = p->rwf;

	if (req->op != IO_OP_READ && req->op != IO_OP_WRITE) {
		req->res = engine_io_now(req, true);
		return ENGINE_Q_DONE;
	}
	if (p->hipri == 100) {
		rwf |= RWF_HIPRI;
	} else if (p->hipri) {
		p->rng ^= p->rng << 13;
		p->rng ^= p->rng >> 7;
		p->rng ^= p->rng << 17;
		if (p->rng % 100 < p->hipri)
			rwf |= RWF_HIPRI;
	}
	req->res = engine_rwv_now(req, true, rwf);
	return ENGINE_Q_DONE;
}

static void pvsync2_cleanup(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops pvsync2_engine_ops = {
	.name = "pvsync2",
	.desc = "preadv2/pwritev2 with RWF_* flags, one I/O at a time",
	.help = "One preadv2(2) or pwritev2(2) per I/O at its offset, finished before the\n"
		"next starts.  hipri sets RWF_HIPRI (on hipri_percentage of the I/Os),\n"
		"nowait RWF_NOWAIT, uncached RWF_DONTCACHE on buffered I/O (Linux 6.14\n"
		"and later; an older kernel fails the first I/O with EOPNOTSUPP).",
	.flags = ENGINE_F_SYNC | ENGINE_F_VECTORED,
	.options = pvsync2_options,
	.opts_size = sizeof(struct pvsync2_opts),
	.init = pvsync2_init,
	.queue = pvsync2_queue,
	.cleanup = pvsync2_cleanup,
};
