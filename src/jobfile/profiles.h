/* SPDX-License-Identifier: MIT */
/*
 * fio's built-in benchmarks (--profile=NAME): the jobs a profile adds to
 * the jobset, as job-file text read after every job file and --name job.
 * A profile is a command-line flag only: fio 3.33 ignores profile= in a
 * job file.  Nothing here runs or reports.
 */
#ifndef IOGAUGE_JOBFILE_PROFILES_H
#define IOGAUGE_JOBFILE_PROFILES_H

#include "jobfile/jobfile.h"

/*
 * Adds profile @name's jobs to @js and pushes their names onto @job_names
 * (so --section keeps them, as fio does).  @flags are the command line's
 * profile options ("--dir=/x"), which fio accepts and ignores.  Each error
 * (no such profile; an option or command-line default the profile would
 * silently override) is added to js->errors; returns how many.
 */
unsigned profile_add(struct jobset *js, const char *name, const struct str_list *flags,
		     struct str_list *job_names);

/* Whether @key is an option of a profile that takes a value (fio's
 * --device-names da takes the next word; act's --prep does not). */
bool profile_opt_has_value(const char *key);

/* Whether @name is act with --prep among @flags: its slice table then
 * counts no I/O, as fio 3.33's. */
bool profile_act_prep(const char *name, const struct str_list *flags);

/* Each of @flags that is iogauge's own option of a profile other than
 * @name (NULL: no --profile), such as --slice-duration without
 * --profile=act, added to js->errors; returns how many. */
unsigned profile_own_flags_check(struct jobset *js, const char *name, const struct str_list *flags);

/* Whether @name is act (with @flags that profile_add took): then
 * *@rows is its table's rows (--test-duration over --slice-duration,
 * rounded up) and *@slice_ns a slice's length. */
bool profile_act_slicing(const char *name, const struct str_list *flags, uint32_t *rows,
			 uint64_t *slice_ns);

#endif
