/* SPDX-License-Identifier: MIT */
/*
 * Expansion of job-file values: ${VAR} from the environment and fio's
 * $ncpus, $mb_memory and $pagesize keywords, then integer arithmetic when
 * a keyword was substituted (numjobs=$ncpus/2).  fio pipes such values to
 * bc; this is the same integer arithmetic done in-process.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobfile/jobfile.h"

struct expr {
	const char *s;
	const char *p;
	char **cause;
	int err;
};

static long long expr_sum(struct expr *e);

static void skip_space(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static long long expr_fail(struct expr *e, const char *what)
{
	if (!e->err) {
		if (*e->p)
			*e->cause = xasprintf("%s at '%s'", what, e->p);
		else
			*e->cause = xasprintf("%s at the end", what);
		e->err = -EINVAL;
	}
	return 0;
}

static long long expr_atom(struct expr *e)
{
	long long v = 0;

	skip_space(e);
	if (*e->p == '-') {
		e->p++;
		v = expr_atom(e);
		return v == LLONG_MIN ? expr_fail(e, "overflow") : -v;
	}
	if (*e->p == '(') {
		e->p++;
		v = expr_sum(e);
		skip_space(e);
		if (*e->p != ')')
			return expr_fail(e, "missing ')'");
		e->p++;
		return v;
	}
	if (!isdigit((unsigned char)*e->p))
		return expr_fail(e, "expected a number");
	while (isdigit((unsigned char)*e->p)) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *e->p - '0', &v))
			return expr_fail(e, "overflow");
		e->p++;
	}
	return v;
}

static long long expr_product(struct expr *e)
{
	long long v = expr_atom(e), r;
	char op;

	for (;;) {
		skip_space(e);
		op = *e->p;
		if (e->err || (op != '*' && op != '/'))
			return v;
		e->p++;
		r = expr_atom(e);
		if (e->err)
			return 0;
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				return expr_fail(e, "overflow");
		} else {
			if (!r) {
				*e->cause = xasprintf("division by zero");
				e->err = -EINVAL;
				return 0;
			}
			if (v == LLONG_MIN && r == -1)
				return expr_fail(e, "overflow");
			v /= r;
		}
	}
}

static long long expr_sum(struct expr *e)
{
	long long v = expr_product(e), r;
	char op;

	for (;;) {
		skip_space(e);
		op = *e->p;
		if (e->err || (op != '+' && op != '-'))
			return v;
		e->p++;
		r = expr_product(e);
		if (e->err)
			return 0;
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
			return expr_fail(e, "overflow");
	}
}

int expr_eval(const char *s, long long *out, char **cause)
{
	struct expr e = { .s = s, .p = s, .cause = cause };
	long long v = expr_sum(&e);

	skip_space(&e);
	if (!e.err && *e.p)
		expr_fail(&e, "unexpected character");
	if (e.err)
		return e.err;
	*out = v;
	return 0;
}

static long long keyword_value(int which)
{
	long page = sysconf(_SC_PAGESIZE);

	switch (which) {
	case 0:
		return sysconf(_SC_NPROCESSORS_CONF);
	case 1:
		return (long long)sysconf(_SC_PHYS_PAGES) * page / (1024 * 1024);
	default:
		return page;
	}
}

char *jobfile_expand(const char *value, char **unset, char **cause)
{
	struct strbuf missing = { 0 };
	static const char *const keywords[] = { "$ncpus", "$mb_memory", "$pagesize" };
	struct strbuf sb = { 0 };
	const char *p = value, *end, *env;
	bool keyword = false;
	long long v;
	size_t i, len;
	char *name;

	while (*p) {
		if (p[0] == '$' && p[1] == '{') {
			end = strchr(p + 2, '}');
			if (!end) {
				*cause = xasprintf("'%s': '${' without a closing '}'", value);
				strbuf_free(&sb);
				strbuf_free(&missing);
				return NULL;
			}
			name = xstrndup(p + 2, (size_t)(end - p - 2));
			env = getenv(name);
			/* Unset means empty, as in fio. */
			if (env)
				strbuf_add(&sb, env, strlen(env));
			else
				strbuf_addf(&missing, "%s%s", missing.len ? ", " : "", name);
			free(name);
			p = end + 1;
			continue;
		}
		for (i = 0; *p == '$' && i < ARRAY_SIZE(keywords); i++) {
			len = strlen(keywords[i]);
			if (!strncmp(p, keywords[i], len))
				break;
		}
		if (*p == '$' && i < ARRAY_SIZE(keywords)) {
			strbuf_addf(&sb, "%lld", keyword_value((int)i));
			keyword = true;
			p += len;
			continue;
		}
		strbuf_addc(&sb, *p++);
	}
	if (keyword && sb.buf && strpbrk(sb.buf, "+-*/")) {
		char *inner = NULL;

		if (expr_eval(sb.buf, &v, &inner)) {
			/* Show what was written and what it became on this machine. */
			*cause = xasprintf("'%s' (here '%s'): %s", value, sb.buf, inner);
			free(inner);
			strbuf_free(&sb);
			strbuf_free(&missing);
			return NULL;
		}
		strbuf_free(&sb);
		strbuf_addf(&sb, "%lld", v);
	}
	if (unset)
		*unset = missing.len ? strbuf_detach(&missing) : NULL;
	strbuf_free(&missing);
	return strbuf_detach(&sb);
}
