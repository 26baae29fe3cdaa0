/* SPDX-License-Identifier: MIT */
/*
 * Reporters: they read a finished run and write text.  They never see
 * engines or threads.
 */
#ifndef IOGAUGE_REPORT_H
#define IOGAUGE_REPORT_H

#include "iogauge/run.h"
#include "iogauge/util.h"

/* The native report, modelled on SQLIO's: per job clone, or per group with
 * group_reporting, and per direction. */
void report_text(const struct run *run, struct strbuf *sb);

#endif
