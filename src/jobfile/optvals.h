/* SPDX-License-Identifier: MIT */
/*
 * What the two files of value kinds share: optvals.c (scalars: strings,
 * numbers, enums, sizes, times) and optvals_compound.c (values with a
 * grammar of their own).
 */
#ifndef IOGAUGE_JOBFILE_OPTVALS_H
#define IOGAUGE_JOBFILE_OPTVALS_H

#include "jobfile/options.h"

#define FIELD(o, job, type)   ((type *)opt_field(o, job, (o)->off))
#define FIELD2(o, job, type)  ((type *)opt_field(o, job, (o)->off2))
#define CFIELD(o, job, type)  ((const type *)opt_field(o, job, (o)->off))
#define CFIELD2(o, job, type) ((const type *)opt_field(o, job, (o)->off2))

/* Splits @s at @sep into a NULL-terminated array of fresh strings, *@n
 * of them; optval_free_split frees it. */
char **optval_split(const char *s, char sep, unsigned *n);
void optval_free_split(char **v);
/* @val's choice among the row's enum names: 0 with *@out set, or -EINVAL
 * with *cause listing the choices. */
int optval_enum_lookup(const struct opt_def *o, const char *val, int *out, char **cause);
/* The row's enum name of @v ("?" for none). */
const char *optval_enum_name(const struct opt_def *o, int v);
/*
 * A per-direction value "read,write,trim": @one parses each piece for its
 * direction.  With one value, all three take it; with two, trim takes the
 * write value; an empty piece changes nothing.  0, or -EINVAL.
 */
typedef int (*optval_ddir_fn)(const struct opt_def *o, struct job *job, const char *piece,
			      enum ddir d, char **cause);
int optval_per_ddir(const struct opt_def *o, struct job *job, const char *val, optval_ddir_fn one,
		    char **cause);

#endif
