/* SPDX-License-Identifier: MIT */
/*
 * Scalar value parsers: sizes, times, booleans, integers, ranges.
 * Unlike fio, an unknown suffix is an error: fio reads "bs=4q" as 4 bytes.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jobfile/units.h"
#include "util/util.h"

/*
 * Reads the numeric head of @s: a decimal integer, or hex after 0x.  *end
 * points past it.  No sign and no fraction: fio would read both otherwise
 * than they look.
 */
struct number {
	uint64_t whole;
	bool hex;
};

static int read_number(const char *s, struct number *n, const char **end, char **cause)
{
	const char *p = s;

	memset(n, 0, sizeof(*n));
	if (*p == '-' || *p == '+')
		return set_cause(cause, "'%s': a signed value is not allowed here", s);
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (!isxdigit((unsigned char)*p))
			return set_cause(cause, "'%s': 0x needs hex digits after it", s);
		for (; isxdigit((unsigned char)*p); p++) {
			unsigned d = isdigit((unsigned char)*p)
					     ? (unsigned)(*p - '0')
					     : (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
			if (n->whole > (UINT64_MAX - d) / 16)
				return set_cause(cause, "'%s': number too large", s);
			n->whole = n->whole * 16 + d;
		}
		n->hex = true;
		*end = p;
		/* fio stops at the hex digits and ignores the rest: 0x10k is 16. */
		if (isalpha((unsigned char)*p))
			return set_cause(
				cause,
				"'%s': fio ignores a suffix after a hex number (it reads "
				"0x%llx); write the value in hex or in decimal with a suffix",
				s, (unsigned long long)n->whole);
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return set_cause(cause, "'%s' is not a number", s);
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (n->whole > (UINT64_MAX - d) / 10)
			return set_cause(cause, "'%s': number too large", s);
		n->whole = n->whole * 10 + d;
	}
	/* fio stops at the point and drops the fraction: 1.5m is 1 byte there. */
	if (*p == '.')
		return set_cause(
			cause,
			"'%s': fio reads only the whole part of a number with a point "
			"(%llu, before the unit); write it in a smaller unit (1536k for 1.5m, "
			"1500ms for 1.5s)",
			s, (unsigned long long)n->whole);
	*end = p;
	return 0;
}

/* n * mult, or an error when it overflows. */
static int scale_number(const char *s, const struct number *n, uint64_t mult, uint64_t *out,
			char **cause)
{
	if (mult && n->whole > UINT64_MAX / mult)
		return set_cause(cause, "'%s': value too large", s);
	*out = n->whole * mult;
	return 0;
}

static uint64_t upow(uint64_t base, unsigned exp)
{
	uint64_t r = 1;

	while (exp--)
		r *= base;
	return r;
}

int units_parse_size(const char *s, unsigned kb_base, uint64_t *out, bool *pct, char **cause)
{
	static const char prefixes[] = "kmgtp";
	struct number n;
	const char *suf, *at;
	uint64_t mult = 1;
	int ret;

	if (pct)
		*pct = false;
	ret = read_number(s, &n, &suf, cause);
	if (ret)
		return ret;
	if (*suf == '%') {
		if (!pct)
			return set_cause(cause, "'%s': a percentage is not allowed here", s);
		if (suf[1])
			return set_cause(cause, "'%s': nothing may follow '%%'", s);
		ret = scale_number(s, &n, 1, out, cause);
		if (ret)
			return ret;
		if (*out > 100)
			return set_cause(cause, "'%s': a percentage must be 0%% to 100%%", s);
		/* fio reads 0% as 0: no offset, or the whole file for size. */
		*pct = *out > 0;
		return 0;
	}
	if (!*suf || !strcasecmp(suf, "b")) {
		mult = 1;
	} else if ((at = strchr(prefixes, tolower((unsigned char)*suf))) && *suf) {
		unsigned exp = (unsigned)(at - prefixes) + 1;
		const char *rest = suf + 1;

		if (!*rest || !strcasecmp(rest, "b"))
			mult = upow(kb_base, exp);
		else if (!strcasecmp(rest, "ib"))
			mult = upow(kb_base == 1000 ? 1024 : 1000, exp);
		else if (!strcasecmp(rest, "i"))
			return set_cause(
				cause,
				"'%s': suffix '%s' is ambiguous in fio (it reads it as '%c'); write "
				"'%c' or '%cib'",
				s, suf, tolower((unsigned char)*suf), tolower((unsigned char)*suf),
				tolower((unsigned char)*suf));
		else
			goto bad_suffix;
	} else {
		goto bad_suffix;
	}
	return scale_number(s, &n, mult, out, cause);

bad_suffix:
	return set_cause(
		cause,
		"'%s': unknown size suffix '%s' (valid: k m g t p, each alone or with b or ib, any case%s)",
		s, suf, pct ? ", or %" : "");
}

int units_parse_time(const char *s, uint64_t unit_ns, uint64_t *out, char **cause)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 },
		{ "nsec", 1 },
		{ "us", NSEC_PER_USEC },
		{ "usec", NSEC_PER_USEC },
		{ "ms", NSEC_PER_MSEC },
		{ "msec", NSEC_PER_MSEC },
		{ "s", NSEC_PER_SEC },
		{ "sec", NSEC_PER_SEC },
		{ "m", 60 * NSEC_PER_SEC },
		{ "min", 60 * NSEC_PER_SEC },
		{ "h", 3600 * NSEC_PER_SEC },
		{ "d", 86400 * NSEC_PER_SEC },
	};
	struct number n;
	const char *suf;
	uint64_t mult = unit_ns;
	size_t i;
	int ret;

	ret = read_number(s, &n, &suf, cause);
	if (ret)
		return ret;
	if (*suf) {
		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (!strcasecmp(suf, units[i].name))
				break;
		if (i == ARRAY_SIZE(units))
			return set_cause(cause,
					 "'%s': unknown time suffix '%s' (valid: ns us ms s m h d)",
					 s, suf);
		mult = units[i].ns;
	}
	ret = scale_number(s, &n, mult, out, cause);
	/* So that a time plus a clock reading (or two times) cannot wrap. */
	if (!ret && *out > UNITS_TIME_MAX)
		ret = set_cause(cause, "'%s': longer than the limit of 2^62 ns (about 146 years)",
				s);
	return ret;
}

int units_parse_bool(const char *s, bool *out, char **cause)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return set_cause(cause, "'%s' is not a boolean (valid: 0 1 true false yes no on off)", s);
}

int units_parse_uint(const char *s, uint64_t *out, char **cause)
{
	struct number n;
	const char *end;
	int ret;

	ret = read_number(s, &n, &end, cause);
	if (ret)
		return ret;
	if (*end)
		return set_cause(cause, "'%s' is not a whole number", s);
	*out = n.whole;
	return 0;
}

int units_parse_double(const char *s, double *out, char **cause)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out))
		return set_cause(cause, "'%s' is not a number", s);
	return 0;
}

long units_range_split(const char *s)
{
	const char *p = strpbrk(s, "-:");

	return p ? (long)(p - s) : -1;
}

void units_format_time(uint64_t ns, char *buf, unsigned len)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "d", 86400 * NSEC_PER_SEC }, { "h", 3600 * NSEC_PER_SEC },
		{ "m", 60 * NSEC_PER_SEC },    { "s", NSEC_PER_SEC },
		{ "ms", NSEC_PER_MSEC },       { "us", NSEC_PER_USEC },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (ns && ns % units[i].ns == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[i].ns),
				 units[i].name);
			return;
		}
	}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}
