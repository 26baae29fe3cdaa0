/* SPDX-License-Identifier: MIT */
/*
 * Reading jobs: fio job files (through the system libinih) and the pieces
 * of the command line that define jobs, into a struct jobset of raw option
 * text with the origin of each value.  job.c turns a jobset into struct
 * jobs; nothing here parses option values.
 */
#ifndef IOGAUGE_JOBFILE_H
#define IOGAUGE_JOBFILE_H

#include <stdio.h>

#include "jobfile/options.h"

/* The most jobs the job files may define: fio's --parse-only reads any
 * number, but each is held here until all are checked.  A run takes at
 * most JOB_MAX_NUMJOBS threads. */
#define JOBFILE_JOBS_MAX 65536
/* The longest line (fio's limit) and the most text read in all, job files
 * and their includes together: input with no end (/dev/zero, a pipe that
 * never closes) is refused, not held. */
#define JOBFILE_LINE_MAX 8191
#define JOBFILE_SIZE_MAX (64 << 20)
/* The most error messages kept for the report; the rest are counted. */
#define JOBFILE_ERRORS_MAX 100

/*
 * The errors of one reading, job files and command line and the jobs built
 * from them: all are reported at once, in reading order (@seq, as struct
 * origin's), and nothing runs.  Only the JOBFILE_ERRORS_MAX first in that
 * order are kept; @total counts every distinct one.
 */
struct job_error {
	unsigned seq;
	unsigned order; /* when added: ties keep it */
	unsigned spec;	/* 1 + the job section it was read in; 0: none, or [global] */
	char *msg;	/* "FILE:LINE: message", or "--flag: message" */
};

struct job_errors {
	struct job_error *v;
	unsigned n, total;
};

/* Adds @msg, which @e now owns; a message already kept is dropped. */
void job_errors_add(struct job_errors *e, unsigned seq, char *msg);
/* The same, for an error read in job section @spec (1 + its index). */
void job_errors_add_in(struct job_errors *e, unsigned seq, unsigned spec, char *msg);
/* One message a line, in reading order, then "and N more errors" when
 * some were not kept.  A fresh string; "" when there are none. */
char *job_errors_text(const struct job_errors *e);
void job_errors_copy(struct job_errors *to, const struct job_errors *from);
void job_errors_clear(struct job_errors *e);

/* One option as written, in reading order.  A job applies its settings
 * in order, so a later value overrides an earlier one piece by piece, as
 * in fio ([global] bs=16k then bs=,8k leaves reads at 16k). */
struct setting {
	const struct opt_def *opt;
	char *value; /* after ${VAR} expansion; "" for a bare flag */
	char *unset; /* NULL, or the ${VAR}s that were not set ("A, B"): for messages */
	bool bare;   /* the option stood alone, without "=" */
	struct origin origin;
};

/* Only ever appended to, so a job can share a prefix of its [global]. */
struct settings {
	struct setting *v;
	unsigned n, cap;
	unsigned refs; /* the jobset's own and each job's that inherits it */
};

/* A job's settings are the first nr_inherited of @inherited (the [global]
 * block as it stood at the job's header, shared, not copied), then @vals. */
struct jobspec {
	char *name;		    /* the section name, or --name */
	struct origin where;	    /* the section header */
	struct settings *inherited; /* shared: NULL when none */
	unsigned nr_inherited;
	struct settings *vals; /* the job's own, after the inherited ones */
};

/* How many settings job @s has, and the @i'th in reading order. */
static inline unsigned jobspec_nr_settings(const struct jobspec *s)
{
	return s->nr_inherited + s->vals->n;
}

static inline const struct setting *jobspec_setting(const struct jobspec *s, unsigned i)
{
	return i < s->nr_inherited ? &s->inherited->v[i] : &s->vals->v[i - s->nr_inherited];
}

struct jobset {
	struct jobspec *specs;
	unsigned nr, cap;	  /* specs used, allocated */
	struct settings *global;  /* defaults for the jobs that follow */
	struct settings *cmdline; /* command-line defaults: each file starts from them */
	unsigned nr_files_read;
	size_t bytes_read;	  /* job files and includes: at most JOBFILE_SIZE_MAX */
	struct str_list names;	  /* file names that origins point into */
	struct str_list warnings; /* "file:line: warning: message", in order */
	struct job_errors errors; /* every error read so far */
	unsigned reading;	  /* 1 + the job section being read; 0: none, or [global] */
	bool stopped;		  /* a file was not read to its end: no jobs are built */
	unsigned seq;
	unsigned section; /* counts sections, --name jobs and the --set pass */
};

void jobset_init(struct jobset *js);
void jobset_free(struct jobset *js);

/*
 * Reads a job file into @js; "-" reads standard input.  Returns 0, or a
 * negative errno with *cause set to "FILE:LINE: message" (or "FILE:
 * message" when the file cannot be opened).  A file with errors is read
 * to its end (unless it is no text at all), each error added to
 * js->errors; *cause is then all of js->errors (job_errors_text).
 */
int jobfile_parse_file(struct jobset *js, const char *path, char **cause);
/* The same, from @len bytes of @text, reported as @name. */
int jobfile_parse_mem(struct jobset *js, const char *name, const char *text, size_t len,
		      char **cause);
/* The same, going on from the [global] the last file left (fio's profiles
 * start from it), and as no new file: its first job gets no stonewall. */
int jobfile_parse_more(struct jobset *js, const char *name, const char *text, size_t len,
		       char **cause);

/* Starts a job that the command line defines (--name=NAME). */
struct jobspec *jobset_add_job(struct jobset *js, const char *name, const struct origin *where);

/* Starts a --name job: it inherits the command-line defaults only. */
struct jobspec *jobset_add_cmdline_job(struct jobset *js, const char *name,
				       const struct origin *where);

/* Keeps only the jobs whose section name is in @names (--section); a name
 * that matches no job is an error, each added to js->errors.  0, or
 * -EINVAL with *cause set to all of js->errors. */
int jobset_keep(struct jobset *js, const struct str_list *names, char **cause);

/* Adds @msg (owned) to js->errors, after every setting read so far. */
void jobset_error(struct jobset *js, char *msg);

/*
 * Appends option @key to @vals (a jobspec's or a global set) after expanding
 * ${VAR} and fio's $keywords in @value.  @value NULL means a bare flag.
 * 0, or -EINVAL with *cause set (no location: the caller adds it).
 * Options fio has but that cannot change the workload only add a warning.
 */
int jobset_set(struct jobset *js, struct settings *vals, const char *key, const char *value,
	       const struct origin *where, char **cause);

/* Expands ${VAR} from the environment and $ncpus, $mb_memory, $pagesize,
 * evaluating + - * / ( ) when a keyword was substituted, as fio does.
 * An unset ${VAR} expands to nothing, as fio's; with @unset, *unset names
 * them ("A, B", fresh) or is NULL.  Returns a fresh string, or NULL with
 * *cause set. */
char *jobfile_expand(const char *value, char **unset, char **cause);
/* The longest value a job file line can give option @key: the system's
 * libinih reads lines of a fixed length. */
size_t jobfile_value_max(const char *key);

/* Integer arithmetic: + - * / and parentheses.  0 or -EINVAL. */
int expr_eval(const char *s, long long *out, char **cause);

#endif
