/* SPDX-License-Identifier: MIT */
/*
 * iogauge recipes: the recipes this binary finds (installed, or the source
 * tree's beside a build), a line each with its summary.  --names: the
 * names alone, for the shell's completion.  Exit status 0, or 2 when a
 * recipe's header is wrong (each named, file:line) or there is no folder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recipe/recipe.h"
#include "version/version.h"

static const char usage[] =
	"usage: iogauge recipes [--names]\n"
	"\n"
	"Lists the recipes (job files with a header: what each measures, what to\n"
	"expect, how long it runs, what it writes) with their one-line summaries.\n"
	"iogauge recipe NAME [--set KEY=VALUE...] runs one; --set directory=DIR or\n"
	"--set filename=DEVICE points it at what to measure.  IOGAUGE_RECIPES=DIR\n"
	"reads another folder.  See iogauge-recipe(1).\n";

int recipes_main(int argc, char **argv)
{
	struct str_list errors = { 0 };
	struct recipe *v = NULL;
	char *dir, *cause = NULL;
	unsigned n = 0, i, w = 8;
	bool names = false;
	int status = 0;

	for (i = 1; i < (unsigned)argc; i++) {
		if (!strcmp(argv[i], "--names")) {
			names = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "iogauge recipes: unknown argument '%s'\n%s", argv[i],
				usage);
			return 2;
		}
	}
	dir = version_recipe_dir(&cause);
	if (!dir || recipe_list(dir, &v, &n, &errors, &cause)) {
		fprintf(stderr, "iogauge recipes: %s\n", cause);
		free(cause);
		free(dir);
		return 2;
	}
	for (i = 0; i < n; i++)
		if (strlen(v[i].field[RECIPE_NAME]) > w)
			w = (unsigned)strlen(v[i].field[RECIPE_NAME]);
	if (!names)
		printf("Recipes in %s (iogauge recipe NAME runs one):\n", dir);
	for (i = 0; i < n; i++) {
		if (names)
			printf("%s\n", v[i].field[RECIPE_NAME]);
		else
			printf("  %-*s  %s\n", (int)w, v[i].field[RECIPE_NAME],
			       v[i].field[RECIPE_SUMMARY]);
	}
	for (i = 0; i < errors.n; i++) {
		fprintf(stderr, "iogauge recipes: %s\n", errors.v[i]);
		status = 2;
	}
	str_list_clear(&errors);
	recipe_list_free(v, n);
	free(dir);
	return status;
}
