/* SPDX-License-Identifier: MIT */
/*
 * The per-I/O priority options of io_uring and libaio (cmdprio.h): the
 * cmdprio_bssplit value kind, the check, and the pick.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cmdprio.h"
#include "jobfile/units.h"
#include "util/util.h"

#define PRIO_CLASS_SHIFT 13
#define PRIO_CLASS_RT	 1
#define PRIO_CLASS_BE	 2

static uint32_t prio_value(uint64_t class, uint64_t level)
{
	return (uint32_t)((class ? class : PRIO_CLASS_BE) << PRIO_CLASS_SHIFT | level);
}

/* cmdprio_bssplit's row points at the split (a field of its own: one
 * shared with another option would share its origin too). */
static struct cmdprio_opts *opts_of(const struct opt_def *o, const struct job *job)
{
	return (struct cmdprio_opts *)((char *)opt_field(o, job, o->off) -
				       offsetof(struct cmdprio_opts, split));
}

static int entry_cmp(const void *a, const void *b)
{
	const struct cmdprio_split_entry *x = a, *y = b;

	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* "bs/pct", "bs/pct/class/level" or "bs/": one entry of direction @d. */
static int parse_entry(const struct opt_def *o, struct job *job, char *s,
		       struct cmdprio_split_entry *e, char **cause)
{
	char *f[5] = { s }, *end;
	unsigned n = 1, k;
	unsigned long v[3] = { 0 };
	bool pct;

	while (n < 5 && (f[n] = strchr(f[n - 1], '/')))
		*f[n++]++ = '\0';
	if (n == 3 || n > 4)
		return set_cause(cause,
				 "'%s': an entry is bs/percentage or "
				 "bs/percentage/class/level",
				 s);
	if (units_parse_size(f[0], job->kb_base, &e->bs, &pct, cause))
		return -EINVAL;
	if (pct || !e->bs)
		return set_cause(cause, "'%s': the block size is a size in bytes", f[0]);
	for (k = 1; k < n; k++) {
		if (k == 1 && !*f[1])
			break; /* "bs/": 0% */
		v[k - 1] = strtoul(f[k], &end, 10);
		if (!*f[k] || *end || f[k][0] == '-')
			return set_cause(cause, "'%s' is not a whole number", f[k]);
	}
	(void)o;
	if (v[0] > 100)
		return set_cause(cause, "%lu%% is above 100%%", v[0]);
	if (n == 4 && (v[1] < 1 || v[1] > 3))
		return set_cause(cause, "class %lu: 1 realtime, 2 best-effort or 3 idle", v[1]);
	if (n == 4 && v[2] > 7)
		return set_cause(cause, "level %lu is above 7", v[2]);
	e->pct = (uint32_t)v[0];
	e->prio = n == 4 ? (int32_t)prio_value(v[1], v[2]) : -1;
	return 0;
}

/* One direction's list, "e:e:...", into split[d]; @list is not changed. */
static int parse_dir(const struct opt_def *o, struct job *job, const char *list, unsigned d,
		     char **cause)
{
	struct cmdprio_opts *c = opts_of(o, job);
	struct cmdprio_split_entry e;
	char *copy = xstrdup(list), *s, *next;
	unsigned n = 0, i, k;
	uint32_t sum;
	int ret = 0;

	for (s = copy; *s && !ret; s = next) {
		next = strchr(s, ':');
		if (next)
			*next++ = '\0';
		else
			next = s + strlen(s);
		ret = parse_entry(o, job, s, &e, cause);
		if (ret || !e.pct)
			continue; /* as fio: a 0% entry says nothing */
		if (n == CMDPRIO_MAX_SPLIT)
			ret = set_cause(cause, "more than %d entries for one direction",
					CMDPRIO_MAX_SPLIT);
		else
			c->split[d][n++] = e;
	}
	free(copy);
	if (ret)
		return ret;
	qsort(c->split[d], n, sizeof(e), entry_cmp);
	for (i = 0; i < n; i = k) {
		for (sum = 0, k = i; k < n && c->split[d][k].bs == c->split[d][i].bs; k++)
			sum += c->split[d][k].pct;
		if (sum > 100)
			return set_cause(cause,
					 "the entries for bs=%llu add up to %u%%, over 100%%",
					 (unsigned long long)c->split[d][i].bs, sum);
	}
	c->nr_split[d] = n;
	return 0;
}

static int bssplit_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct cmdprio_opts *c = opts_of(o, job);
	char *s = xstrdup(val), *piece[DDIR_COUNT] = { s }, *comma;
	unsigned n = 1, d;
	int ret = 0;

	while (n < DDIR_COUNT && (comma = strchr(piece[n - 1], ','))) {
		*comma = '\0';
		piece[n++] = comma + 1;
	}
	if (strchr(piece[n - 1], ','))
		ret = set_cause(cause, "'%s': at most %d comma-separated lists (read,write,trim)",
				val, DDIR_COUNT);
	/* As fio: one list is every direction's; trim's is read and ignored. */
	for (d = 0; d < 2 && !ret; d++)
		ret = parse_dir(o, job, piece[d < n ? d : 0], d, cause);
	if (!ret && n == DDIR_COUNT) {
		struct cmdprio_opts keep = *c;

		ret = parse_dir(o, job, piece[2], 0, cause); /* checked, not kept */
		*c = keep;
	}
	if (!ret)
		c->split_set = c->nr_split[0] || c->nr_split[1];
	free(s);
	return ret;
}

static void bssplit_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct cmdprio_opts *c = opts_of(o, job);
	unsigned d, i;

	for (d = 0; d < 2; d++) {
		if (d)
			strbuf_addc(sb, ',');
		for (i = 0; i < c->nr_split[d]; i++) {
			const struct cmdprio_split_entry *e = &c->split[d][i];

			strbuf_addf(sb, "%s%llu/%u", i ? ":" : "", (unsigned long long)e->bs,
				    e->pct);
			if (e->prio >= 0)
				strbuf_addf(sb, "/%d/%d", e->prio >> PRIO_CLASS_SHIFT, e->prio & 7);
		}
	}
}

const struct opt_kind opt_kind_cmdprio_bssplit = { .syntax = "bs/pct[/class/level]:...[,...]",
						   .parse = bssplit_parse,
						   .format = bssplit_format };

int cmdprio_check(const struct cmdprio_opts *o, const struct opt_def *blame_row,
		  const struct opt_def **blame, char **cause)
{
	if (o->split_set && (o->percentage[0] || o->percentage[1])) {
		*blame = blame_row;
		return set_cause(cause, "cmdprio_percentage and cmdprio_bssplit are one or the "
					"other (as in fio)");
	}
	return 0;
}

void cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o, const struct job *job)
{
	unsigned d;

	memset(cp, 0, sizeof(*cp));
	cp->o = o;
	for (d = 0; d < 2; d++) {
		/* As fio: cmdprio_class unset is realtime. */
		cp->prio[d] = prio_value(o->class[d] ? o->class[d] : PRIO_CLASS_RT, o->level[d]);
		cp->on |= o->percentage[d] && job_does(job, (enum ddir)d);
		cp->on |= o->nr_split[d] && job_does(job, (enum ddir)d);
	}
	rng_seed(&cp->rng, job->randseed ^ 0x636d647072696fu); /* "cmdprio" */
}

/* @v into @e's list of direction @d, unless it is there. */
static void list_add(struct engine *e, unsigned d, uint32_t v)
{
	unsigned i;

	for (i = 0; i < e->nr_cmdprios[d]; i++)
		if (e->cmdprios[d][i] == v)
			return;
	if (e->nr_cmdprios[d] < ENGINE_CMDPRIOS)
		e->cmdprios[d][e->nr_cmdprios[d]++] = (uint16_t)v;
}

void cmdprio_list(const struct cmdprio *cp, const struct job *job, struct engine *e)
{
	const struct cmdprio_opts *o = cp->o;
	unsigned d, i;

	for (d = 0; d < 2; d++) {
		e->nr_cmdprios[d] = 0;
		/* As fio: a direction the job does not do keeps no list. */
		if (!job_does(job, (enum ddir)d))
			continue;
		/* In the order fio numbers them: bssplit's entries by size. */
		for (i = 0; o->split_set && i < o->nr_split[d]; i++)
			list_add(e, d,
				 o->split[d][i].prio >= 0 ? (uint32_t)o->split[d][i].prio
							  : cp->prio[d]);
		if (!o->split_set && o->percentage[d])
			list_add(e, d, cp->prio[d]);
	}
}

bool cmdprio_pick(struct cmdprio *cp, struct io_req *req)
{
	const struct cmdprio_opts *o = cp->o;
	const struct cmdprio_split_entry *e = NULL;
	unsigned d, i, n = 0;
	uint32_t p = 0, r, sum = 0;

	if (req->op != IO_OP_READ && req->op != IO_OP_WRITE)
		return false;
	d = req->op == IO_OP_WRITE;
	if (o->split_set) {
		for (i = 0; i < o->nr_split[d] && o->split[d][i].bs < req->len; i++)
			;
		e = &o->split[d][i];
		for (; i + n < o->nr_split[d] && e[n].bs == req->len; n++)
			p += e[n].pct;
	} else {
		p = (uint32_t)o->percentage[d];
	}
	if (!p)
		return false;
	r = (uint32_t)rng_below(&cp->rng, 100);
	if (r >= p)
		return false;
	if (!e) {
		req->ioprio = (uint16_t)cp->prio[d];
		return true;
	}
	for (i = 0; i < n; i++) {
		sum += e[i].pct;
		if (r < sum) {
			req->ioprio =
				(uint16_t)(e[i].prio >= 0 ? (uint32_t)e[i].prio : cp->prio[d]);
			return true;
		}
	}
	return false;
}
