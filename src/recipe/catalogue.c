/* SPDX-License-Identifier: MIT */
/*
 * The recipe catalogue: finding the recipes in a folder and reading the
 * header every recipe opens with.  A header is the file's first comment
 * lines, one field each in a fixed order,
 *   ; name: default
 *   ; summary: one line
 * with longer text carried on by lines of "; " and two more spaces.  It
 * ends at the first comment line that is neither.  Nothing runs here.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recipe/recipe.h"

static const char *const field_keys[RECIPE_NR_FIELDS] = {
	[RECIPE_NAME] = "name",		[RECIPE_SUMMARY] = "summary",
	[RECIPE_MEASURES] = "measures", [RECIPE_EXPECT] = "expect",
	[RECIPE_RUNTIME] = "runtime",	[RECIPE_WRITES] = "writes",
	[RECIPE_FALLBACK] = "fallback", [RECIPE_COMMAND] = "command",
};

const char *recipe_field_key(enum recipe_field f)
{
	return field_keys[f];
}

/* The field a "; key: text" line starts, or -1; *text at its text. */
static int header_field(const char *line, const char **text)
{
	unsigned f;
	size_t n;

	if (line[0] != ';' || line[1] != ' ')
		return -1;
	for (f = 0; f < RECIPE_NR_FIELDS; f++) {
		n = strlen(field_keys[f]);
		if (!strncmp(line + 2, field_keys[f], n) && line[2 + n] == ':') {
			*text = line + 3 + n;
			*text += strspn(*text, " \t");
			return (int)f;
		}
	}
	return -1;
}

void recipe_free(struct recipe *r)
{
	unsigned f;

	free(r->path);
	for (f = 0; f < RECIPE_NR_FIELDS; f++)
		free(r->field[f]);
	memset(r, 0, sizeof(*r));
}

int recipe_read(const char *path, const char *name, struct recipe *r, char **cause)
{
	FILE *fp = fopen(path, "r");
	char line[1024];
	unsigned lineno = 0, next = 0;
	int f = -1, err = 0;
	const char *text;

	memset(r, 0, sizeof(*r));
	if (!fp)
		return set_cause_errno(cause, errno, "%s: %s", path, strerror(errno));
	r->path = xstrdup(path);
	while (!err && fgets(line, sizeof(line), fp)) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		f = header_field(line, &text);
		if (f < 0 && next && !strncmp(line, ";   ", 4) && line[4] != ' ') {
			/* a field's text carried on */
			char *more = xasprintf("%s %s", r->field[next - 1], line + 4);

			free(r->field[next - 1]);
			r->field[next - 1] = more;
			continue;
		}
		if (f < 0)
			break;
		if ((unsigned)f < next || (f > (int)next && next < RECIPE_REQUIRED))
			err = set_cause(cause,
					"%s:%u: '%s:' where '%s:' belongs (the fields: name, "
					"summary, measures, expect, runtime, writes)",
					path, lineno, field_keys[f],
					next < RECIPE_NR_FIELDS ? field_keys[next] : "nothing");
		else if (!*text)
			err = set_cause(cause, "%s:%u: '%s:' is empty", path, lineno,
					field_keys[f]);
		else
			r->field[f] = xstrdup(text), next = (unsigned)f + 1;
	}
	if (!err && ferror(fp))
		err = set_cause_errno(cause, EIO, "%s: read error", path);
	fclose(fp);
	if (!err && next < RECIPE_REQUIRED)
		err = set_cause(cause,
				"%s:%u: no '%s:' line: a recipe opens with the fields name, "
				"summary, measures, expect, runtime, writes",
				path, lineno, field_keys[next]);
	if (!err && name && strcmp(r->field[RECIPE_NAME], name))
		err = set_cause(cause, "%s:1: name: %s, but the file's name makes it %s", path,
				r->field[RECIPE_NAME], name);
	if (!err && r->field[RECIPE_FALLBACK] && strcmp(r->field[RECIPE_FALLBACK], "buffered"))
		err = set_cause(cause, "%s: fallback: %s (only 'buffered' is known)", path,
				r->field[RECIPE_FALLBACK]);
	if (!err && r->field[RECIPE_COMMAND] && strcmp(r->field[RECIPE_COMMAND], "crash"))
		err = set_cause(cause, "%s: command: %s (only 'crash' is known)", path,
				r->field[RECIPE_COMMAND]);
	if (err)
		recipe_free(r);
	return err;
}

/* The *.ini files under @dir/@sub, by name ("sub/file" without .ini). */
static int list_dir(const char *dir, const char *sub, struct str_list *names, unsigned depth,
		    char **cause)
{
	char *path = *sub ? xasprintf("%s/%s", dir, sub) : xstrdup(dir);
	DIR *d = opendir(path);
	struct dirent *de;
	struct stat st;
	int err = 0;

	if (!d) {
		err = set_cause_errno(cause, errno, "%s: %s", path, strerror(errno));
		free(path);
		return err;
	}
	while (!err && (de = readdir(d))) {
		char *rel, *full;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		rel = *sub ? xasprintf("%s/%s", sub, de->d_name) : xstrdup(de->d_name);
		full = xasprintf("%s/%s", dir, rel);
		if (stat(full, &st)) {
			/* a dangling link: not a recipe */
		} else if (S_ISDIR(st.st_mode) && depth < 4) {
			err = list_dir(dir, rel, names, depth + 1, cause);
		} else if (S_ISREG(st.st_mode) && n > 4 && !strcmp(de->d_name + n - 4, ".ini")) {
			rel[strlen(rel) - 4] = '\0';
			str_list_push(names, rel);
			rel = NULL;
		}
		free(rel);
		free(full);
	}
	closedir(d);
	free(path);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int recipe_list(const char *dir, struct recipe **v, unsigned *n, struct str_list *errors,
		char **cause)
{
	struct str_list names = { 0 };
	unsigned i;
	int err = list_dir(dir, "", &names, 0, cause);

	*v = NULL;
	*n = 0;
	if (err) {
		str_list_clear(&names);
		return err;
	}
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	*v = xcalloc(names.n ? names.n : 1, sizeof(**v));
	for (i = 0; i < names.n; i++) {
		char *path = xasprintf("%s/%s.ini", dir, names.v[i]), *why = NULL;

		if (recipe_read(path, names.v[i], &(*v)[*n], &why))
			str_list_push(errors, why);
		else
			(*n)++;
		free(path);
	}
	str_list_clear(&names);
	return 0;
}

void recipe_list_free(struct recipe *v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		recipe_free(&v[i]);
	free(v);
}
