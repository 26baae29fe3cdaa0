/* SPDX-License-Identifier: MIT */
/*
 * What this build of iogauge is: its version, the commit it was built
 * from, its engines and optional parts (--version), and where its recipes
 * live.  Not the command line: main.c prints what these return.
 */
#ifndef IOGAUGE_VERSION_H
#define IOGAUGE_VERSION_H

#include "util/util.h"

/* --version's text: "iogauge X.Y.Z" first, then the commit, the engines
 * and the optional parts, a line each. */
void version_text(struct strbuf *sb);

/*
 * The folder of recipes this binary uses, malloc'd: $IOGAUGE_RECIPES when
 * set, else the installed share/iogauge/jobs beside the binary's bin/, else
 * the source tree's jobs/ when the binary is the one in its build folder.
 * NULL (and *cause) when there is none.
 */
char *version_recipe_dir(char **cause);

#endif
