/* SPDX-License-Identifier: MIT */
/*
 * fio job files, read through the system libinih.  Debian's libinih has
 * no bare keys, a 200-byte line, no callback for empty sections and no way
 * to tell a repeated section from a continued one, so a line reader of
 * our own sits in front of it: it strips comments as fio does, follows
 * include, opens sections, turns bare flags into key=, refuses lines
 * libinih would cut, and notes file:line for the handler.  libinih then
 * splits key=value.  This file does not parse option values.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"

#define INCLUDE_DEPTH_MAX 16

struct src {
	FILE *fp;
	const char *path; /* interned in js->names */
	dev_t dev;
	ino_t ino;
	unsigned line;
	bool close;
};

struct reader {
	struct jobset *js;
	struct src stack[INCLUDE_DEPTH_MAX];
	int depth;
	struct settings *vals;	  /* where options go now; NULL before any section */
	struct settings *discard; /* after a section header that was refused */
	bool global;
	const char *file; /* origin of the line last handed to libinih */
	unsigned line;
	bool bare;
	bool spaced;			/* white space right after = */
	bool stop;			/* the rest cannot be read as text */
	char buf[JOBFILE_LINE_MAX + 2]; /* a line, its newline and a NUL */
};

static struct settings *vals_new(const struct settings *from)
{
	struct settings *v = xcalloc(1, sizeof(*v));
	unsigned i;

	v->refs = 1;
	if (from && from->n) {
		v->v = xcalloc(from->n, sizeof(*v->v));
		for (i = 0; i < from->n; i++) {
			v->v[i] = from->v[i];
			v->v[i].value = xstrdup(from->v[i].value);
			v->v[i].unset = from->v[i].unset ? xstrdup(from->v[i].unset) : NULL;
		}
		v->n = v->cap = from->n;
	}
	return v;
}

/* Drops one reference to @v; the last one frees it. */
static void vals_free(struct settings *v)
{
	unsigned i;

	if (!v || --v->refs)
		return;
	for (i = 0; i < v->n; i++) {
		free(v->v[i].value);
		free(v->v[i].unset);
	}
	free(v->v);
	free(v);
}

static void spec_free(struct jobspec *s)
{
	free(s->name);
	vals_free(s->inherited);
	vals_free(s->vals);
}

void jobset_init(struct jobset *js)
{
	memset(js, 0, sizeof(*js));
	js->cmdline = vals_new(NULL);
	js->global = vals_new(NULL);
}

void jobset_free(struct jobset *js)
{
	unsigned i;

	for (i = 0; i < js->nr; i++)
		spec_free(&js->specs[i]);
	free(js->specs);
	vals_free(js->global);
	vals_free(js->cmdline);
	str_list_clear(&js->names);
	str_list_clear(&js->warnings);
	job_errors_clear(&js->errors);
	memset(js, 0, sizeof(*js));
}

void jobset_error(struct jobset *js, char *msg)
{
	job_errors_add_in(&js->errors, ++js->seq, js->reading, msg);
}

static const char *intern(struct jobset *js, const char *s)
{
	str_list_push(&js->names, xstrdup(s));
	return js->names.v[js->names.n - 1];
}

struct jobspec *jobset_add_job(struct jobset *js, const char *name, const struct origin *where)
{
	struct jobspec *s;

	if (js->nr == js->cap) {
		js->cap = js->cap ? js->cap * 2 : 8;
		js->specs = xrealloc(js->specs, sizeof(*js->specs) * js->cap);
	}
	s = &js->specs[js->nr++];
	s->name = xstrdup(name);
	s->where = *where;
	s->where.seq = ++js->seq; /* where messages about the job sort */
	/* The [global] settings so far, shared: later ones are appended
	 * past nr_inherited, which this job does not see. */
	s->inherited = js->global;
	s->nr_inherited = js->global->n;
	js->global->refs++;
	s->vals = vals_new(NULL);
	return s;
}

struct jobspec *jobset_add_cmdline_job(struct jobset *js, const char *name,
				       const struct origin *where)
{
	vals_free(js->global);
	js->global = vals_new(js->cmdline);
	js->section++;
	return jobset_add_job(js, name, where);
}

int jobset_keep(struct jobset *js, const struct str_list *names, char **cause)
{
	bool *used = xcalloc(names->n ? names->n : 1, sizeof(*used));
	bool *dropped = xcalloc(js->nr ? js->nr : 1, sizeof(*dropped));
	struct job_errors *e = &js->errors;
	unsigned i, j, kept = 0;
	int ret = 0;

	for (i = 0; i < js->nr; i++) {
		bool keep = false;

		for (j = 0; j < names->n; j++)
			if (!strcmp(js->specs[i].name, names->v[j]))
				keep = used[j] = true;
		if (keep)
			js->specs[kept++] = js->specs[i];
		else
			spec_free(&js->specs[i]);
		dropped[i] = !keep;
	}
	js->nr = kept;
	/* As fio, which does not read the sections --section leaves out: what
	 * was wrong in them is not reported (in [global] it still is). */
	for (i = j = 0; i < e->n; i++) {
		if (e->v[i].spec && dropped[e->v[i].spec - 1]) {
			free(e->v[i].msg);
			e->total--;
			continue;
		}
		e->v[i].spec = 0;
		e->v[j++] = e->v[i];
	}
	e->n = j;
	free(dropped);
	for (j = 0; j < names->n; j++) {
		if (!used[j]) {
			jobset_error(js,
				     xasprintf("--section=%s: no job has that name", names->v[j]));
			ret = -EINVAL;
		}
	}
	free(used);
	if (ret)
		*cause = job_errors_text(&js->errors);
	return ret;
}

int jobset_set(struct jobset *js, struct settings *vals, const char *key, const char *value,
	       const struct origin *where, char **cause)
{
	const struct opt_def *o = opt_find(key);
	struct setting *sv;
	const char *why, *near;
	char *expanded = NULL, *unset = NULL;

	if (!o) {
		switch (fio_option_status(key, &why)) {
		case FIO_OPT_HARMLESS: {
			struct strbuf sb = { 0 };

			origin_format(where, key, &sb);
			strbuf_addf(&sb, ": warning: '%s' is ignored: %s", key, why);
			str_list_push(&js->warnings, strbuf_detach(&sb));
			return 0;
		}
		case FIO_OPT_UNSUPPORTED:
			*cause = xasprintf(
				"'%s' is a fio option that iogauge does not implement%s%s", key,
				why ? ": " : "", why ? why : "");
			return -EINVAL;
		case FIO_OPT_NOT_BUILT:
			*cause = xasprintf("'%s' is an option of %s, which iogauge does not build",
					   key, why);
			return -EINVAL;
		case FIO_OPT_UNKNOWN:
			break;
		}
		near = opt_suggest(key);
		if (near)
			*cause = xasprintf("unknown option '%s'; did you mean '%s'?", key, near);
		else
			*cause = xasprintf(
				"unknown option '%s' (iogauge --help-options lists them)", key);
		return -EINVAL;
	}
	if (value) {
		char *inner = NULL;

		expanded = jobfile_expand(value, &unset, &inner);
		if (!expanded) {
			*cause = xasprintf("%s: %s", o->name, inner);
			free(inner);
			return -EINVAL;
		}
	}
	if (vals->n == vals->cap) {
		vals->cap = vals->cap ? vals->cap * 2 : 8;
		vals->v = xrealloc(vals->v, sizeof(*vals->v) * vals->cap);
	}
	sv = &vals->v[vals->n++];
	sv->opt = o;
	sv->value = expanded ? expanded : xstrdup("");
	sv->unset = unset;
	sv->bare = !value;
	sv->origin = *where;
	sv->origin.seq = ++js->seq;
	sv->origin.section = js->section;
	return 0;
}

/* ---- the line reader in front of libinih ---- */

static void reader_vfail(struct reader *r, int at, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Adds an error at the line last read of stack[@at] (none: -1); reading
 * goes on unless the caller sets r->stop. */
static void reader_vfail(struct reader *r, int at, const char *fmt, va_list ap)
{
	char *msg = xvasprintf(fmt, ap);

	if (at >= 0) {
		jobset_error(r->js,
			     xasprintf("%s:%u: %s", r->stack[at].path, r->stack[at].line, msg));
		free(msg);
	} else {
		jobset_error(r->js, msg);
	}
}

static void reader_fail_at(struct reader *r, int at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reader_fail_at(struct reader *r, int at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reader_vfail(r, at, fmt, ap);
	va_end(ap);
}

static void reader_fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reader_fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	reader_vfail(r, r->depth - 1, fmt, ap);
	va_end(ap);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

static int src_push(struct reader *r, FILE *fp, const char *path, bool close)
{
	struct src *s;
	struct stat st;
	int i;

	if (r->depth == INCLUDE_DEPTH_MAX) {
		if (close)
			fclose(fp);
		reader_fail(r, "include: more than %d files deep", INCLUDE_DEPTH_MAX);
		return -ELOOP;
	}
	if (fstat(fileno(fp), &st) < 0) {
		memset(&st, 0, sizeof(st));
	} else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && fp != stdin) {
		/* A device or a folder has no end a job file would have
		 * (/dev/zero) or is no text at all. */
		if (close)
			fclose(fp);
		reader_fail(r, "%s%s: not a regular file or a FIFO (%s)",
			    r->depth ? "include " : "", path, file_kind(st.st_mode));
		return -EINVAL;
	}
	if (S_ISREG(st.st_mode)) {
		for (i = 0; i < r->depth; i++) {
			if (r->stack[i].dev == st.st_dev && r->stack[i].ino == st.st_ino) {
				if (close)
					fclose(fp);
				reader_fail(r, "include %s: loop (it is already being read)", path);
				return -ELOOP;
			}
		}
	} else {
		memset(&st, 0, sizeof(st));
	}
	s = &r->stack[r->depth++];
	s->fp = fp;
	s->path = intern(r->js, path);
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->line = 0;
	s->close = close;
	return 0;
}

static void src_pop(struct reader *r)
{
	struct src *s = &r->stack[--r->depth];

	if (s->close)
		fclose(s->fp);
}

/*
 * Reads the next line of @s into r->buf, with its newline; *len is its
 * length.  1, 0 at the end, or -1 with r->stop set: a line longer than
 * JOBFILE_LINE_MAX, more than JOBFILE_SIZE_MAX in all, or a read error
 * (never taken for the end: a job cut short would run as something else).
 */
static int read_line(struct reader *r, struct src *s, size_t *len)
{
	size_t n = 0;
	int c = 0;

	while (n < sizeof(r->buf) - 1 && (c = getc_unlocked(s->fp)) != EOF) {
		r->buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	r->buf[n] = '\0';
	*len = n;
	if (c == EOF && ferror(s->fp)) {
		int err = errno;

		/* Named at the line being read, and for an include at the
		 * include's own line too. */
		s->line++;
		if (r->depth > 1)
			reader_fail_at(r, r->depth - 2, "include %s: read error at line %u: %s",
				       s->path, s->line, strerror(err));
		else
			reader_fail(r, "read error: %s", strerror(err));
		r->stop = true;
		return -1;
	}
	r->js->bytes_read += n;
	if (n == sizeof(r->buf) - 1 && r->buf[n - 1] != '\n') {
		s->line++;
		reader_fail(r, "line too long: more than %d characters", JOBFILE_LINE_MAX);
		r->stop = true;
		return -1;
	}
	if (r->js->bytes_read > JOBFILE_SIZE_MAX) {
		s->line++;
		reader_fail(r, "the job files are larger than %d MiB in all (with their includes)",
			    JOBFILE_SIZE_MAX >> 20);
		r->stop = true;
		return -1;
	}
	return n > 0;
}

/* Resolves @name against the folder of the including file. */
static void do_include(struct reader *r, const char *name)
{
	const char *from = r->stack[r->depth - 1].path;
	char *path, *copy;
	FILE *fp;

	if (!*name) {
		reader_fail(r, "include needs a file name");
		return;
	}
	if (name[0] == '/' || !strcmp(from, "<stdin>")) {
		path = xstrdup(name);
	} else {
		copy = xstrdup(from);
		path = xasprintf("%s/%s", dirname(copy), name);
		free(copy);
	}
	fp = fopen(path, "r");
	if (!fp)
		reader_fail(r, "include %s: %s", path, strerror(errno));
	else
		src_push(r, fp, path, true);
	free(path);
}

/* After a refused header, the section's options are still checked, for
 * their own errors, but kept nowhere. */
static void section_refused(struct reader *r)
{
	if (!r->discard)
		r->discard = vals_new(NULL);
	r->vals = r->discard;
	r->global = false;
}

static void open_section(struct reader *r, char *line)
{
	struct origin where = { .kind = ORIGIN_FILE };
	struct jobspec *spec;
	char *end = strrchr(line, ']'), *name;

	r->js->reading = 0; /* the header's own errors belong to no section */
	if (!end || end[1]) {
		reader_fail(r, "a section header must end with ']'");
		section_refused(r);
		return;
	}
	*end = '\0';
	name = trim(line + 1);
	if (!*name) {
		reader_fail(r, "empty section name '[]'");
		section_refused(r);
		return;
	}
	if (r->depth > 1) {
		reader_fail(r, "[%s]: no sections in included files", name);
		section_refused(r);
		return;
	}
	where.file = r->stack[0].path;
	where.line = r->stack[0].line;
	r->js->section++;
	/* fio: any section whose name starts with "global" is a global one. */
	r->global = !strncmp(name, "global", 6);
	if (r->global) {
		r->vals = r->js->global;
		return;
	}
	/* Every job is held in memory until all are read and checked. */
	if (r->js->nr >= JOBFILE_JOBS_MAX) {
		reader_fail(r, "[%s]: more than %d jobs (a run takes at most %d threads)", name,
			    JOBFILE_JOBS_MAX, JOB_MAX_NUMJOBS);
		r->stop = true;
		return;
	}
	spec = jobset_add_job(r->js, name, &where);
	r->vals = spec->vals;
	r->js->reading = r->js->nr;
}

static bool key_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/*
 * libinih's ini_reader: hands over one key=value or [section] line at a
 * time, or NULL at the end (or when the rest is not text).  A line with an
 * error is noted and skipped, so one reading finds them all.
 */
static char *reader_next(char *str, int num, void *stream)
{
	struct reader *r = stream;
	struct src *s;
	char *line, *cut, *eq, *key;
	size_t len, need;
	int got;

	while (!r->stop && r->depth) {
		s = &r->stack[r->depth - 1];
		got = read_line(r, s, &len);
		if (got < 0)
			break;
		if (!got) {
			src_pop(r);
			continue;
		}
		s->line++;
		line = r->buf;
		if (memchr(line, '\0', len)) {
			reader_fail(r, "a NUL byte in the line: this is not a text file");
			r->stop = true;
			break;
		}
		if (s->line == 1 && !strncmp(line, "\xEF\xBB\xBF", 3))
			line += 3;
		/* fio cuts a line at the first ';', then at the first '#'. */
		cut = strchr(line, ';');
		if (cut)
			*cut = '\0';
		cut = strchr(line, '#');
		if (cut)
			*cut = '\0';
		line = trim(line);
		if (!*line)
			continue;
		r->file = s->path;
		r->line = s->line;
		if (*line == '[') {
			open_section(r, line);
			if (r->stop)
				break;
			snprintf(str, (size_t)num, "[s]\n");
			return str;
		}
		if (!strncmp(line, "include", 7) &&
		    (line[7] == ' ' || line[7] == '\t' || line[7] == '\0')) {
			do_include(r, trim(line + 7)); /* line[7] may be its end */
			continue;
		}
		if (!r->vals) {
			reader_fail(r, "option '%s' outside of any [section]", line);
			continue;
		}
		eq = strchr(line, '=');
		if (eq)
			*eq = '\0';
		key = trim(line);
		for (cut = key; *cut && key_char_ok(*cut); cut++)
			;
		if (!*key || *cut) {
			reader_fail(r, "'%s' is not an option name", key);
			continue;
		}
		r->bare = !eq;
		r->spaced = eq && (eq[1] == ' ' || eq[1] == '\t');
		need = strlen(key) + (eq ? strlen(trim(eq + 1)) : 0) + 3;
		if (need > (size_t)num) {
			reader_fail(r,
				    "line too long: %zu characters after comments are removed; "
				    "the system's libinih reads at most %d",
				    need - 3 + 1, num - 2);
			continue;
		}
		snprintf(str, (size_t)num, "%s=%s\n", key, eq ? trim(eq + 1) : "");
		return str;
	}
	return NULL;
}

/*
 * Whether fio would misread @value written after "name= ": it keeps the
 * space, and its size and time parsers then stop before the unit, so
 * "bs= 8k" is 8 bytes and "runtime= 10m" 10 seconds.
 */
static bool misread_spaced(const char *name, const char *value)
{
	static const struct opt_kind *const numeric[] = {
		&opt_kind_size_pct, &opt_kind_size_ddir,  &opt_kind_range,   &opt_kind_range_ddir,
		&opt_kind_time,	    &opt_kind_time_range, &opt_kind_bssplit,
	};
	const struct opt_def *o = opt_find(name);
	const char *p;
	size_t i;

	for (i = 0; o && i < ARRAY_SIZE(numeric); i++) {
		if (o->kind != numeric[i])
			continue;
		for (p = value; *p; p++)
			if (isalpha((unsigned char)*p) || *p == '%')
				return true;
	}
	return false;
}

static int reader_handler(void *user, const char *section, const char *name, const char *value)
{
	struct reader *r = user;
	struct origin where = {
		.kind = ORIGIN_FILE, .file = r->file, .line = r->line, .global = r->global
	};
	char *cause = NULL;

	(void)section;
	if (r->spaced && misread_spaced(name, value)) {
		jobset_error(r->js,
			     xasprintf("%s:%u: %s: '%s= %s': fio keeps the space after '=' and "
				       "then reads only the number, without its unit; remove "
				       "the space",
				       r->file, r->line, name, name, value));
		return 1;
	}
	if (jobset_set(r->js, r->vals, name, r->bare ? NULL : value, &where, &cause)) {
		jobset_error(r->js, xasprintf("%s:%u: %s", r->file, r->line, cause));
		free(cause);
	}
	return 1;
}

/* @more: go on from the [global] the last file left, and add no stonewall
 * (jobfile_parse_more). */
static int parse_stream(struct jobset *js, FILE *fp, const char *name, bool more, char **cause)
{
	struct reader r = { .js = js };
	unsigned first_job = js->nr, errors = js->errors.total;
	int ret;

	/* Each file starts from the command line's defaults, as in fio. */
	if (!more) {
		vals_free(js->global);
		js->global = vals_new(js->cmdline);
	}
	if (src_push(&r, fp, name, false)) {
		*cause = job_errors_text(&js->errors);
		return -EINVAL;
	}
	ret = ini_parse_stream(reader_next, &r, reader_handler, &r);
	while (r.depth)
		src_pop(&r);
	js->reading = 0;
	js->stopped |= r.stop;
	vals_free(r.discard);
	if (ret > 0)
		jobset_error(js,
			     xasprintf("%s:%u: libinih could not read the line", r.file, r.line));
	else if (ret < 0)
		jobset_error(js, xasprintf("%s: libinih failed (%d)", name, ret));
	if (js->errors.total != errors) {
		*cause = job_errors_text(&js->errors);
		return -EINVAL;
	}
	if (!more && js->nr_files_read++ > 0 && js->nr > first_job) {
		struct jobspec *s = &js->specs[first_job];
		struct origin w = s->where;

		jobset_set(js, s->vals, "stonewall", NULL, &w, cause);
	}
	return 0;
}

int jobfile_parse_file(struct jobset *js, const char *path, char **cause)
{
	FILE *fp;
	int ret;

	if (!strcmp(path, "-"))
		return parse_stream(js, stdin, "<stdin>", false, cause);
	fp = fopen(path, "r");
	if (!fp) {
		ret = -errno;
		jobset_error(js, xasprintf("%s: %s", path, strerror(errno)));
		*cause = job_errors_text(&js->errors);
		return ret;
	}
	ret = parse_stream(js, fp, path, false, cause);
	fclose(fp);
	return ret;
}

static int parse_mem(struct jobset *js, const char *name, const char *text, size_t len, bool more,
		     char **cause)
{
	/* fmemopen refuses a zero-length buffer; an empty line reads the same. */
	FILE *fp = len ? fmemopen((void *)text, len, "r") : fmemopen((void *)"\n", 1, "r");
	int ret;

	if (!fp) {
		int err = errno;

		jobset_error(js, xasprintf("%s: %s", name, strerror(err)));
		*cause = job_errors_text(&js->errors);
		return -err;
	}
	ret = parse_stream(js, fp, name, more, cause);
	fclose(fp);
	return ret;
}

int jobfile_parse_mem(struct jobset *js, const char *name, const char *text, size_t len,
		      char **cause)
{
	return parse_mem(js, name, text, len, false, cause);
}

int jobfile_parse_more(struct jobset *js, const char *name, const char *text, size_t len,
		       char **cause)
{
	return parse_mem(js, name, text, len, true, cause);
}

size_t jobfile_value_max(const char *key)
{
	/* As the reader's check: key, '=', value, newline and NUL in a line. */
	return INI_MAX_LINE - strlen(key) - 3;
}
