/* SPDX-License-Identifier: MIT */
/*
 * The value kinds with a grammar of their own: rw=MODE[:N], bssplit,
 * random_distribution, file_service_type, percentile_list, cpus_allowed
 * and verify_pattern.  Each parsed into struct job and printed back as a
 * job file would spell it; the scalar kinds are in optvals.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"
#include "jobfile/optvals.h"
#include "jobfile/units.h"
#include "verify/verify.h"

/* ---- rw=MODE[:N] ---- */

static int rw_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	const char *colon = strchr(val, ':');
	char *mode = colon ? xstrndup(val, (size_t)(colon - val)) : xstrdup(val);
	const char *suf = colon ? colon + 1 : NULL;
	uint64_t v;
	int rw, ret;

	ret = optval_enum_lookup(o, mode, &rw, cause);
	free(mode);
	if (ret)
		return ret;
	job->rw = (enum rw_mode)rw;
	job->rw_seq_add = 0;
	job->rw_rand_nr = 1;
	if (!suf)
		return 0;
	if (job_is_random(job->rw)) {
		ret = units_parse_size(suf, job->kb_base, &v, NULL, cause);
		if (!ret && (v < 1 || v > UINT32_MAX))
			ret = set_cause(cause, "'%s': I/Os per random offset must be 1 to %u", suf,
					UINT32_MAX);
		if (!ret)
			job->rw_rand_nr = (unsigned)v;
	} else {
		bool back = *suf == '-';

		ret = units_parse_size(suf + back, job->kb_base, &v, NULL, cause);
		if (!ret && v > INT64_MAX)
			ret = set_cause(cause, "'%s': the gap is too large", suf);
		if (!ret)
			job->rw_seq_add = back ? -(int64_t)v : (int64_t)v;
	}
	if (ret) {
		char *inner = *cause;

		*cause = xasprintf("'%s': bad :N suffix: %s", val, inner);
		free(inner);
	}
	return ret;
}

static void rw_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_adds(sb, optval_enum_name(o, (int)job->rw));
	if (job->rw_seq_add)
		strbuf_addf(sb, ":%lld", (long long)job->rw_seq_add);
	else if (job->rw_rand_nr > 1)
		strbuf_addf(sb, ":%u", job->rw_rand_nr);
}

const struct opt_kind opt_kind_rw = { .syntax = "mode[:N]",
				      .parse = rw_parse,
				      .format = rw_format };

/* ---- bssplit=bs/pct:bs/pct[,...] ---- */

static int bssplit_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
		       char **cause)
{
	struct bssplit_entry *e = job->bssplit[d];
	unsigned n, i, missing = 0;
	char **ent = optval_split(piece, ':', &n);
	double sum = 0;
	int ret = 0;

	(void)o;
	if (n > JOB_MAX_BSSPLIT) {
		ret = set_cause(cause, "'%s': at most %d block sizes", piece, JOB_MAX_BSSPLIT);
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		char *slash = strchr(ent[i], '/');

		if (slash)
			*slash = '\0';
		ret = units_parse_size(ent[i], job->kb_base, &e[i].bs, NULL, cause);
		if (!ret && !e[i].bs)
			ret = set_cause(cause, "'%s': a block size of 0", piece);
		if (ret)
			break;
		e[i].pct = -1;
		if (slash && slash[1]) {
			char *num = slash + 1;
			size_t len = strlen(num);

			if (num[len - 1] == '%')
				num[len - 1] = '\0';
			ret = units_parse_double(num, &e[i].pct, cause);
			if (!ret && (e[i].pct < 0 || e[i].pct > 100))
				ret = set_cause(cause, "'%s': a weight of %s%%", piece, num);
			if (!ret)
				sum += e[i].pct;
		} else {
			missing++;
		}
	}
	if (ret)
		goto out;
	if (sum > 100.0 + 1e-6) { /* 1e-6: what prints at 10 digits reads back */
		ret = set_cause(cause, "'%s': the weights add up to %g%%, more than 100%%", piece,
				sum);
		goto out;
	}
	if (!missing && sum < 100.0 - 1e-6) {
		ret = set_cause(cause, "'%s': the weights add up to %g%%, not 100%%", piece, sum);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (e[i].pct < 0)
			e[i].pct = (100.0 - sum) / missing;
	job->nr_bssplit[d] = n;
out:
	optval_free_split(ent);
	return ret;
}

static int bssplit_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	if (!job->bssplit)
		job->bssplit = xcalloc(DDIR_COUNT, sizeof(*job->bssplit));
	return optval_per_ddir(o, job, val, bssplit_one, cause);
}

static void bssplit_print(const struct job *job, unsigned d, struct strbuf *sb)
{
	unsigned i;

	for (i = 0; i < job->nr_bssplit[d]; i++)
		strbuf_addf(sb, "%s%llu/%.10g", i ? ":" : "",
			    (unsigned long long)job->bssplit[d][i].bs, job->bssplit[d][i].pct);
}

static bool bssplit_same(const struct job *job, unsigned a, unsigned b)
{
	return job->nr_bssplit[a] == job->nr_bssplit[b] &&
	       (!job->nr_bssplit[a] || !memcmp(job->bssplit[a], job->bssplit[b],
					       job->nr_bssplit[a] * sizeof(job->bssplit[a][0])));
}

static void bssplit_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	unsigned d, n = DDIR_COUNT;

	(void)o;
	if (bssplit_same(job, 0, 1) && bssplit_same(job, 0, 2))
		n = 1;
	for (d = 0; d < n; d++) {
		if (d)
			strbuf_addc(sb, ',');
		bssplit_print(job, d, sb);
	}
}

/* A per-direction array that a copied job still shares: its own now. */
static void *own_per_ddir(const void *shared, size_t each)
{
	void *p;

	if (!shared)
		return NULL;
	p = xmalloc(DDIR_COUNT * each);
	memcpy(p, shared, DDIR_COUNT * each);
	return p;
}

static void bssplit_own(const struct opt_def *o, struct job *job)
{
	(void)o;
	job->bssplit = own_per_ddir(job->bssplit, sizeof(*job->bssplit));
}

static void bssplit_release(const struct opt_def *o, struct job *job)
{
	(void)o;
	free(job->bssplit);
	job->bssplit = NULL;
}

const struct opt_kind opt_kind_bssplit = { .syntax = "bs/pct:bs/pct...[,...]",
					   .parse = bssplit_parse,
					   .format = bssplit_format,
					   .own = bssplit_own,
					   .release = bssplit_release };

/* ---- random_distribution ---- */

static const struct {
	const char *name;
	enum rand_dist_kind kind;
} rdist_names[] = {
	{ "random", RDIST_RANDOM }, { "zipf", RDIST_ZIPF },   { "pareto", RDIST_PARETO },
	{ "normal", RDIST_NORMAL }, { "zoned", RDIST_ZONED }, { "zoned_abs", RDIST_ZONED_ABS },
};

/*
 * One direction's zones: "60/10:30/20:10/70" (zoned) or "60/20g:40/80g"
 * (zoned_abs).  As fio 3.33: an empty entry ends the list; a zoned size
 * that is missing, empty or 0 takes an equal share of what the others
 * leave of 100% (rounded down; nothing when it is the only zone), and the
 * sizes may add up to less than 100% (the rest is not accessed); a
 * zoned_abs zone without a size has none.
 */
static int zones_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
		     char **cause)
{
	struct rand_dist *rd = &job->random_distribution;
	struct rand_zone *z = rd->zones[d];
	unsigned n, i, nr, missing = 0;
	char **ent = optval_split(piece, ':', &n);
	double access = 0, size = 0;
	int ret = 0;

	(void)o;
	for (nr = 0; nr < n && *ent[nr]; nr++)
		;
	for (i = nr; i < n; i++)
		if (*ent[i]) {
			ret = set_cause(cause,
					"'%s': an empty zone ends fio's list, so '%s' after it "
					"would be ignored",
					piece, ent[i]);
			goto out;
		}
	if (nr > JOB_MAX_ZONES) {
		ret = set_cause(cause, "'%s': at most %d zones", piece, JOB_MAX_ZONES);
		goto out;
	}
	for (i = 0; i < nr && !ret; i++) {
		char *slash = strchr(ent[i], '/');

		if (slash)
			*slash = '\0';
		memset(&z[i], 0, sizeof(z[i]));
		ret = units_parse_double(ent[i], &z[i].access_pct, cause);
		if (ret)
			break;
		if (rd->kind == RDIST_ZONED) {
			z[i].size_pct = -1; /* missing until it is given */
			if (slash && slash[1])
				ret = units_parse_double(slash + 1, &z[i].size_pct, cause);
			if (!ret && z[i].size_pct == 0)
				z[i].size_pct = -1;
		} else if (slash) {
			ret = units_parse_size(slash + 1, job->kb_base, &z[i].size, NULL, cause);
		}
		if (ret)
			break;
		if (z[i].access_pct < 0 || z[i].access_pct > 100 || z[i].size_pct > 100 ||
		    (z[i].size_pct < 0 && z[i].size_pct != -1))
			ret = set_cause(cause, "'%s': zone percentages must be 0 to 100", piece);
		access += z[i].access_pct;
		if (z[i].size_pct == -1)
			missing++;
		else
			size += z[i].size_pct;
	}
	if (ret)
		goto out;
	if (access < 100.0 - 1e-6 || access > 100.0 + 1e-6)
		ret = set_cause(cause, "'%s': the access percentages add up to %g%%, not 100%%",
				piece, access);
	else if (rd->kind == RDIST_ZONED && size > 100.0 + 1e-6)
		ret = set_cause(cause, "'%s': the size percentages add up to %g%%, more than 100%%",
				piece, size);
	if (ret)
		goto out;
	for (i = 0; i < nr && missing; i++)
		if (z[i].size_pct == -1)
			z[i].size_pct = nr == 1 ? 0 : floor((100.0 - size) / missing);
	rd->nr_zones[d] = nr;
out:
	optval_free_split(ent);
	return ret;
}

static int rand_dist_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct rand_dist *rd = &job->random_distribution;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	char **params = NULL;
	unsigned i, n = 0;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(rdist_names); i++)
		if (strlen(rdist_names[i].name) == len && !strncmp(rdist_names[i].name, val, len))
			break;
	if (i == ARRAY_SIZE(rdist_names))
		return set_cause(
			cause,
			"'%s' is not a valid random_distribution (valid: random zipf:THETA "
			"pareto:H normal:SIGMA zoned:A/S:... zoned_abs:A/SIZE:...)",
			val);
	/* fio 3.33 matches the name up to the first ',' (before any ':'), so a
	 * comma, per-direction zones included, never parses in fio. */
	if (strchr(val, ','))
		return set_cause(cause,
				 "'%s': fio 3.33 refuses a comma here (it reads the name up to the "
				 "first comma), so per-direction lists, though its documentation "
				 "shows them, are refused too",
				 val);
	memset(rd->nr_zones, 0, sizeof(rd->nr_zones));
	rd->kind = rdist_names[i].kind;
	rd->param = rd->center = 0;
	rd->has_center = false;
	if (rd->kind == RDIST_RANDOM)
		return colon ? set_cause(cause, "'%s': random takes no parameters", val) : 0;
	if (!colon || !colon[1])
		return set_cause(cause, "'%s': %s needs parameters after ':'", val,
				 rdist_names[i].name);
	if (rd->kind == RDIST_ZONED || rd->kind == RDIST_ZONED_ABS) {
		if (!rd->zones)
			rd->zones = xcalloc(DDIR_COUNT, sizeof(*rd->zones));
		ret = optval_per_ddir(o, job, colon + 1, zones_one, cause);
		if (!ret && !rd->nr_zones[DDIR_READ])
			ret = set_cause(cause, "'%s': no zones for reads", val);
		/* An empty piece gives a direction the zones of the one before. */
		for (i = 1; !ret && i < DDIR_COUNT; i++) {
			if (rd->nr_zones[i])
				continue;
			rd->nr_zones[i] = rd->nr_zones[i - 1];
			memcpy(rd->zones[i], rd->zones[i - 1], sizeof(rd->zones[i]));
		}
		return ret;
	}

	params = optval_split(colon + 1, ':', &n);
	if (n > 2) {
		ret = set_cause(cause, "'%s': %s takes a value and an optional center", val,
				rdist_names[i].name);
		goto out;
	}
	ret = units_parse_double(params[0], &rd->param, cause);
	if (!ret && n == 2) {
		ret = units_parse_double(params[1], &rd->center, cause);
		rd->has_center = true;
	}
	if (ret)
		goto out;
	if (rd->center < 0 || rd->center > 1)
		ret = set_cause(cause, "'%s': the center must be 0.0 to 1.0", val);
	else if (rd->kind == RDIST_ZIPF && (rd->param <= 0 || rd->param == 1.0))
		ret = set_cause(cause, "'%s': zipf theta must be above 0 and not 1.0", val);
	else if (rd->kind == RDIST_PARETO && (rd->param <= 0 || rd->param >= 1))
		ret = set_cause(cause, "'%s': pareto h must be between 0 and 1", val);
	else if (rd->kind == RDIST_NORMAL && (rd->param < 0 || rd->param > 100))
		ret = set_cause(cause, "'%s': normal sigma must be 0 to 100 (%%)", val);
out:
	optval_free_split(params);
	return ret;
}

static void zones_print(const struct rand_dist *rd, unsigned d, struct strbuf *sb)
{
	unsigned i;

	for (i = 0; i < rd->nr_zones[d]; i++) {
		const struct rand_zone *z = &rd->zones[d][i];

		if (rd->kind == RDIST_ZONED)
			strbuf_addf(sb, "%s%.10g/%.10g", i ? ":" : "", z->access_pct, z->size_pct);
		else
			strbuf_addf(sb, "%s%.10g/%llu", i ? ":" : "", z->access_pct,
				    (unsigned long long)z->size);
	}
}

static bool zones_same(const struct rand_dist *rd, unsigned a, unsigned b)
{
	return rd->nr_zones[a] == rd->nr_zones[b] &&
	       (!rd->nr_zones[a] ||
		!memcmp(rd->zones[a], rd->zones[b], rd->nr_zones[a] * sizeof(rd->zones[a][0])));
}

static void rand_dist_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct rand_dist *rd = &job->random_distribution;
	unsigned i, d, n = DDIR_COUNT;

	(void)o;
	for (i = 0; i < ARRAY_SIZE(rdist_names); i++)
		if (rdist_names[i].kind == rd->kind)
			strbuf_addf(sb, "%s", rdist_names[i].name);
	switch (rd->kind) {
	case RDIST_RANDOM:
		break;
	case RDIST_ZONED:
	case RDIST_ZONED_ABS:
		strbuf_addc(sb, ':');
		if (zones_same(rd, 0, 1) && zones_same(rd, 0, 2))
			n = 1;
		for (d = 0; d < n; d++) {
			if (d)
				strbuf_addc(sb, ',');
			zones_print(rd, d, sb);
		}
		break;
	default:
		strbuf_addf(sb, ":%g", rd->param);
		if (rd->center)
			strbuf_addf(sb, ":%g", rd->center);
	}
}

static void rand_dist_own(const struct opt_def *o, struct job *job)
{
	struct rand_dist *rd = &job->random_distribution;

	(void)o;
	rd->zones = own_per_ddir(rd->zones, sizeof(*rd->zones));
}

static void rand_dist_release(const struct opt_def *o, struct job *job)
{
	(void)o;
	free(job->random_distribution.zones);
	job->random_distribution.zones = NULL;
}

const struct opt_kind opt_kind_rand_dist = { .syntax = "distribution",
					     .parse = rand_dist_parse,
					     .format = rand_dist_format,
					     .own = rand_dist_own,
					     .release = rand_dist_release };

/* ---- file_service_type=KIND[:N] or DIST[:PARAM[:CENTER]] ---- */

static const struct {
	const char *name;
	enum file_service_kind kind;
	double def; /* the distribution's parameter when none is given (fio's) */
} fsrv_names[] = {
	{ "roundrobin", FSRV_ROUNDROBIN, 0 }, { "sequential", FSRV_SEQUENTIAL, 0 },
	{ "random", FSRV_RANDOM, 0 },	      { "zipf", FSRV_ZIPF, 1.1 },
	{ "pareto", FSRV_PARETO, 0.2 },	      { "normal", FSRV_NORMAL, 0 },
	{ "gauss", FSRV_NORMAL, 0 },
};

static int file_service_parse(const struct opt_def *o, struct job *job, const char *val,
			      char **cause)
{
	struct file_service *fs = FIELD(o, job, struct file_service);
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	char **params = NULL;
	unsigned i, n = 0;
	uint64_t nr;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(fsrv_names); i++)
		if (strlen(fsrv_names[i].name) == len && !strncmp(fsrv_names[i].name, val, len))
			break;
	if (i == ARRAY_SIZE(fsrv_names))
		return set_cause(cause,
				 "'%s' is not a valid file_service_type (valid: roundrobin[:N] "
				 "sequential[:N] random[:N] zipf[:THETA] pareto[:H] normal[:DEV] "
				 "gauss[:DEV])",
				 val);
	memset(fs, 0, sizeof(*fs));
	fs->kind = fsrv_names[i].kind;
	fs->nr = 1;
	fs->param = fsrv_names[i].def;
	if (!colon)
		return 0;
	if (fs->kind <= FSRV_RANDOM) {
		ret = units_parse_uint(colon + 1, &nr, cause);
		if (!ret && (nr < 1 || nr > UINT32_MAX))
			ret = set_cause(cause, "'%s': the I/Os per file must be 1 to %u", val,
					UINT32_MAX);
		fs->nr = (unsigned)nr;
		return ret;
	}
	params = optval_split(colon + 1, ':', &n);
	if (n > 2) {
		ret = set_cause(cause, "'%s': %s takes a value and an optional center", val,
				fsrv_names[i].name);
		goto out;
	}
	ret = units_parse_double(params[0], &fs->param, cause);
	if (!ret && n == 2) {
		ret = units_parse_double(params[1], &fs->center, cause);
		fs->has_center = true;
	}
	if (ret)
		goto out;
	if (fs->center < 0 || fs->center > 1)
		ret = set_cause(cause, "'%s': the center must be 0.0 to 1.0", val);
	else if (fs->kind == FSRV_ZIPF && (fs->param <= 0 || fs->param == 1.0))
		ret = set_cause(cause, "'%s': zipf theta must be above 0 and not 1.0", val);
	else if (fs->kind == FSRV_PARETO && (fs->param <= 0 || fs->param >= 1))
		ret = set_cause(cause, "'%s': pareto h must be between 0 and 1", val);
	else if (fs->kind == FSRV_NORMAL && (fs->param < 0 || fs->param >= 100))
		ret = set_cause(cause, "'%s': the normal deviation must be 0 to below 100 (%%)",
				val);
out:
	optval_free_split(params);
	return ret;
}

static void file_service_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct file_service *fs = CFIELD(o, job, struct file_service);
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(fsrv_names) && fsrv_names[i].kind != fs->kind; i++)
		;
	strbuf_adds(sb, i < ARRAY_SIZE(fsrv_names) ? fsrv_names[i].name : "?");
	if (fs->kind <= FSRV_RANDOM && fs->nr != 1)
		strbuf_addf(sb, ":%u", fs->nr);
	else if (fs->kind > FSRV_RANDOM)
		strbuf_addf(sb, ":%.10g", fs->param);
	if (fs->has_center)
		strbuf_addf(sb, ":%.10g", fs->center);
}

const struct opt_kind opt_kind_file_service = { .syntax = "kind[:N]",
						.parse = file_service_parse,
						.format = file_service_format };

/* ---- percentile_list=p:p:... ---- */

static int percentiles_parse(const struct opt_def *o, struct job *job, const char *val,
			     char **cause)
{
	double v[JOB_MAX_PERCENTILES];
	unsigned n, i;
	char **ent = optval_split(val, ':', &n);
	int ret = 0;

	(void)o;
	if (n > JOB_MAX_PERCENTILES) {
		ret = set_cause(cause, "'%s': at most %d percentiles (got %u)", val,
				JOB_MAX_PERCENTILES, n);
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = units_parse_double(ent[i], &v[i], cause);
		if (!ret && (v[i] < 0 || v[i] > 100))
			ret = set_cause(cause, "'%s': percentile %s is not 0 to 100", val, ent[i]);
	}
	if (!ret) {
		memcpy(job->percentile_list, v, n * sizeof(v[0]));
		job->nr_percentiles = n;
	}
out:
	optval_free_split(ent);
	return ret;
}

static void percentiles_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	unsigned i;

	(void)o;
	for (i = 0; i < job->nr_percentiles; i++) {
		double p = job->percentile_list[i];

		if (i)
			strbuf_addc(sb, ':');
		/* Whole ones as %g prints them, without its cost (--parse-only). */
		if (p >= 0 && p <= 100 && p == (double)(unsigned)p)
			strbuf_addu(sb, (unsigned)p);
		else
			strbuf_addf(sb, "%g", p);
	}
}

const struct opt_kind opt_kind_percentiles = { .syntax = "p:p:...",
					       .parse = percentiles_parse,
					       .format = percentiles_format };

/* ---- cpus_allowed=0,5,8-15 ---- */

static int cpus_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	uint64_t set[JOB_MAX_CPUS / 64] = { 0 };
	unsigned n, i;
	char **ent = optval_split(val, ',', &n);
	int ret = 0;

	(void)o;
	for (i = 0; i < n && !ret; i++) {
		char *dash = strchr(ent[i], '-');
		uint64_t lo, hi, c;

		if (dash)
			*dash = '\0';
		ret = units_parse_uint(ent[i], &lo, cause);
		hi = lo;
		if (!ret && dash)
			ret = units_parse_uint(dash + 1, &hi, cause);
		if (ret)
			break;
		if (lo > hi || hi >= JOB_MAX_CPUS) {
			ret = set_cause(cause, "'%s': bad CPU range (CPUs are 0 to %d, low first)",
					val, JOB_MAX_CPUS - 1);
			break;
		}
		for (c = lo; c <= hi; c++)
			set[c / 64] |= 1ull << (c % 64);
	}
	if (!ret) {
		memcpy(job->cpus_allowed, set, sizeof(set));
		job->cpus_allowed_set = true;
	}
	optval_free_split(ent);
	return ret;
}

static bool cpu_isset(const struct job *job, unsigned c)
{
	return c < JOB_MAX_CPUS && (job->cpus_allowed[c / 64] >> (c % 64) & 1);
}

static void cpus_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	unsigned c = 0, end;
	bool first = true;

	(void)o;
	if (!job->cpus_allowed_set)
		return;
	while (c < JOB_MAX_CPUS) {
		if (!cpu_isset(job, c)) {
			c++;
			continue;
		}
		for (end = c; cpu_isset(job, end + 1); end++)
			;
		strbuf_addf(sb, first ? "%u" : ",%u", c);
		if (end > c)
			strbuf_addf(sb, "-%u", end);
		first = false;
		c = end + 1;
	}
}

const struct opt_kind opt_kind_cpus = { .syntax = "cpu-list",
					.parse = cpus_parse,
					.format = cpus_format };

/* ---- verify_pattern=0x..."str"%o... ---- */

static int pattern_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	return verify_pattern_parse(val, FIELD(o, job, struct verify_pattern), cause);
}

/* Back as hex, with the %o places: the same bytes whatever was written. */
static void pattern_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct verify_pattern *vp = CFIELD(o, job, struct verify_pattern);
	unsigned i = 0, k = 0;

	while (i < vp->len) {
		unsigned end = k < vp->nr_off ? vp->off_at[k] : vp->len;

		if (i == end) {
			strbuf_addf(sb, "%%o");
			i += 8;
			k++;
			continue;
		}
		strbuf_addf(sb, "0x");
		for (; i < end; i++)
			strbuf_addf(sb, "%02x", vp->bytes[i]);
	}
}

const struct opt_kind opt_kind_pattern = { .syntax = "pattern",
					   .parse = pattern_parse,
					   .format = pattern_format };
