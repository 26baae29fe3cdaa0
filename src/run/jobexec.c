/* SPDX-License-Identifier: MIT */
/*
 * exec_prerun, exec_postrun (see jobexec.h).  fio goes on past a postrun
 * that fails and quietly skips the job's I/O when its prerun fails; here
 * either is the clone's error, so a run whose hook failed does not exit 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "run/jobexec.h"
#include "util/util.h"

int jobexec_run(const struct job *job, const char *cmd, const char *mode, char **cause)
{
	char *line = xasprintf("%s > %s.%s.txt 2>&1", cmd, job->name, mode);
	int st = system(line), err = errno;

	free(line);
	if (st == -1)
		return set_cause_errno(cause, err, "exec_%s=%s: cannot start a shell: %s", mode,
				       cmd, strerror(err));
	if (WIFSIGNALED(st))
		return set_cause_errno(cause, ECHILD,
				       "exec_%s=%s: killed by signal %d (%s); its output is "
				       "in %s.%s.txt",
				       mode, cmd, WTERMSIG(st), strsignal(WTERMSIG(st)), job->name,
				       mode);
	if (WEXITSTATUS(st))
		return set_cause_errno(cause, ECHILD,
				       "exec_%s=%s: exit status %d; its output is in %s.%s.txt",
				       mode, cmd, WEXITSTATUS(st), job->name, mode);
	return 0;
}
