/* SPDX-License-Identifier: MIT */
/*
 * Recipes: the job files of jobs/ (installed as share/iogauge/jobs), each
 * opening with a header of fixed fields, listed by `iogauge recipes` and
 * run by name with `iogauge recipe NAME`.
 */
#ifndef IOGAUGE_RECIPE_H
#define IOGAUGE_RECIPE_H

#include "util/util.h"

/* The header's fields, in the order a recipe gives them. */
enum recipe_field {
	RECIPE_NAME,	 /* its name: the path under jobs/ without .ini */
	RECIPE_SUMMARY,	 /* one line for `iogauge recipes` */
	RECIPE_MEASURES, /* what it measures */
	RECIPE_EXPECT,	 /* what to expect, and why */
	RECIPE_RUNTIME,	 /* how long it runs */
	RECIPE_WRITES,	 /* what it writes, and where */
	RECIPE_FALLBACK, /* optional: "buffered" where O_DIRECT is refused */
	RECIPE_COMMAND,	 /* optional: "crash": run by iogauge crash, not as a job */
	RECIPE_NR_FIELDS,
};

#define RECIPE_REQUIRED RECIPE_FALLBACK /* the fields before it are required */

struct recipe {
	char *path;		       /* the file */
	char *field[RECIPE_NR_FIELDS]; /* NULL: absent */
};

/* The field's key in the header ("name", "summary", ...). */
const char *recipe_field_key(enum recipe_field f);

/*
 * Reads the header of the recipe at @path (@name: what its name must be,
 * or NULL).  0, or -EINVAL with *cause naming path:line and what is wrong
 * (a field missing, out of order, or empty; a name that is not the
 * file's); -errno when it cannot be read.
 */
int recipe_read(const char *path, const char *name, struct recipe *r, char **cause);
void recipe_free(struct recipe *r);

/* Every recipe under @dir (*.ini, sorted by name), headers read.  A
 * recipe whose header is wrong is listed with its error in
 * *@errors.  0, or -errno for a folder that cannot be read. */
int recipe_list(const char *dir, struct recipe **v, unsigned *n, struct str_list *errors,
		char **cause);
void recipe_list_free(struct recipe *v, unsigned n);

/* iogauge recipes [--names] [--check]: the exit status. */
int recipes_main(int argc, char **argv);
/* iogauge recipe NAME [iogauge flags...]: runs the recipe through @run
 * (iogauge's main) in a folder of its own; the exit status. */
int recipe_main(int argc, char **argv, int (*run)(int argc, char **argv));

#endif
