/* SPDX-License-Identifier: MIT */
/*
 * The command line's questions about options and engines, answered on
 * standard output (help.c).
 */
#ifndef IOGAUGE_JOBFILE_HELP_H
#define IOGAUGE_JOBFILE_HELP_H

#include "jobfile/jobfile.h"

/* --help-options: every option, its syntax, help and default. */
void help_options(void);
/* --cmdhelp: every option's help as fio lists it (@name ""), or one
 * option's rows.  0, or -EINVAL (a message said why) for no such option. */
int help_cmdhelp(const char *name);
/* --list-engines: the engines of this build. */
void help_list_engines(void);
/* --enghelp: what an engine does and the options it acts on.  0, or
 * -EINVAL (a message said why) for no engine of this build. */
int help_enghelp(const char *name);
/* --showcmd: the job files' sections as fio's one command line. */
void help_showcmd(const struct jobset *js);

#endif
