/* SPDX-License-Identifier: MIT */
/*
 * cgroup= (see cgroup.h).  The hierarchy is the first line of
 * /proc/mounts that is a cgroup v1 mount with blkio, or a cgroup2 mount,
 * as fio finds it; a thread joins by writing its id to "tasks" (v1) or
 * "cgroup.procs" (v2, where the whole process moves).
 */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/cgroup.h"
#include "util/util.h"

/* The hierarchy's folder (owned) and whether it is cgroup2; 0 or -errno. */
static int find_mount(char **dir, bool *v2, char **cause)
{
	FILE *f = setmntent("/proc/mounts", "re");
	struct mntent ent, *e = NULL;
	char buf[4096];

	if (!f)
		return set_cause_errno(cause, errno, "cgroup: /proc/mounts: %s", strerror(errno));
	while ((e = getmntent_r(f, &ent, buf, sizeof(buf))))
		if ((!strcmp(e->mnt_type, "cgroup") && hasmntopt(e, "blkio")) ||
		    !strcmp(e->mnt_type, "cgroup2"))
			break;
	if (e) {
		*dir = xstrdup(e->mnt_dir);
		*v2 = !strcmp(e->mnt_type, "cgroup2");
	}
	endmntent(f);
	if (!e)
		return set_cause_errno(
			cause, ENOENT,
			"cgroup: no cgroup v1 blkio or cgroup2 mount in /proc/mounts");
	return 0;
}

static int write_num(const char *dir, const char *file, unsigned long v, const char *opt,
		     char **cause)
{
	char *path = xasprintf("%s/%s", dir, file);
	char num[24];
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	snprintf(num, sizeof(num), "%lu", v);
	if (fd < 0 || write(fd, num, strlen(num)) < 0)
		ret = set_cause_errno(cause, errno, "%s: %s: %s", opt, path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(path);
	return ret;
}

int cgroup_prepare(struct cgroup_made *m, const struct job *job, char **cause)
{
	char *mnt = NULL, *dir;
	bool v2;
	int ret = find_mount(&mnt, &v2, cause);

	if (ret)
		return ret;
	dir = xasprintf("%s/%s", mnt, job->cgroup);
	free(mnt);
	if (mkdir(dir, 0755) == 0) {
		m->path = xrealloc(m->path, (m->n + 1) * sizeof(*m->path));
		m->keep = xrealloc(m->keep, (m->n + 1) * sizeof(*m->keep));
		m->path[m->n] = xstrdup(dir);
		m->keep[m->n++] = job->cgroup_nodelete;
	} else if (errno != EEXIST) {
		ret = set_cause_errno(cause, errno, "cgroup=%s: mkdir %s: %s", job->cgroup, dir,
				      strerror(errno));
	}
	if (!ret && job->cgroup_weight) {
		if (v2)
			ret = set_cause(
				cause,
				"cgroup_weight=%u: %s is cgroup2, which has no blkio.weight "
				"(fio refuses it too)",
				job->cgroup_weight, dir);
		else
			ret = write_num(dir, "blkio.weight", job->cgroup_weight, "cgroup_weight",
					cause);
	}
	free(dir);
	return ret;
}

int cgroup_move(const struct job *job, bool into, char **cause)
{
	char *mnt = NULL, *dir;
	bool v2;
	int ret = find_mount(&mnt, &v2, cause);

	if (ret)
		return ret;
	dir = into ? xasprintf("%s/%s", mnt, job->cgroup) : xstrdup(mnt);
	ret = write_num(dir, v2 ? "cgroup.procs" : "tasks",
			v2 ? (unsigned long)getpid() : (unsigned long)syscall(SYS_gettid),
			into ? "cgroup" : "cgroup (leaving)", cause);
	free(dir);
	free(mnt);
	return ret;
}

void cgroup_remove(struct cgroup_made *m)
{
	unsigned i;

	for (i = 0; i < m->n; i++) {
		if (!m->keep[i])
			(void)rmdir(m->path[i]); /* fio's too: no word when it is busy */
		free(m->path[i]);
	}
	free(m->path);
	free(m->keep);
	memset(m, 0, sizeof(*m));
}
