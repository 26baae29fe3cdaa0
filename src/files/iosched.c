/* SPDX-License-Identifier: MIT */
/*
 * ioscheduler= (see iosched.h).  sysfs's scheduler file lists what the
 * queue offers with the selected one in brackets: "[none] mq-deadline";
 * a queue without a choice shows "none" alone, and fio then goes on, as
 * here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "files/iosched.h"
#include "util/util.h"

/* The scheduler file of the disk under @f, in @out; 0, or 1 when it has
 * none (not a block device, or a queue sysfs does not show). */
static int sched_path(const struct run_file *f, char *out, size_t len)
{
	struct stat st;
	dev_t dev;

	if (f->fd < 0 || fstat(f->fd, &st) < 0)
		return 1;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	/* A partition's queue is its disk's, one folder up. */
	snprintf(out, len, "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (access(out, F_OK) == 0)
		snprintf(out, len, "/sys/dev/block/%u:%u/../queue/scheduler", major(dev),
			 minor(dev));
	else
		snprintf(out, len, "/sys/dev/block/%u:%u/queue/scheduler", major(dev), minor(dev));
	return access(out, F_OK) == 0 ? 0 : 1;
}

/* The scheduler file's line, without its newline: 0 or -errno. */
static int sched_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	n = (ssize_t)strcspn(buf, "\n");
	while (n > 0 && buf[n - 1] == ' ') /* the kernel ends the list with one */
		n--;
	buf[n] = '\0';
	return 0;
}

/* Whether @name is a word of the list @line, and whether it is selected. */
static bool offered(const char *line, const char *name, bool *selected)
{
	size_t n = strlen(name);
	const char *p;

	for (p = line; (p = strstr(p, name)); p += n) {
		bool open = p > line && p[-1] == '[';
		bool start = p == line || p[-1] == ' ' || open;
		char end = p[n];

		if (start && (end == '\0' || end == ' ' || (open && end == ']'))) {
			*selected = open && end == ']';
			return true;
		}
	}
	return false;
}

int iosched_prepare(struct iosched_set *s, const struct run_files *fs, const char *want,
		    char **cause)
{
	char path[PATH_MAX], line[256];
	unsigned i, k;
	int ret;

	for (i = 0; i < fs->n; i++) {
		bool sel;
		char *b, *e;

		if (sched_path(&fs->v[i], path, sizeof(path)))
			continue;
		ret = sched_read(path, line, sizeof(line));
		if (ret)
			return set_cause_errno(cause, -ret, "ioscheduler=%s: %s: %s", want, path,
					       strerror(-ret));
		if (strcmp(line, "none") && !offered(line, want, &sel))
			return set_cause(cause, "ioscheduler=%s: the disk under %s offers: %s (%s)",
					 want, fs->v[i].path, line, path);
		for (k = 0; k < s->n && strcmp(s->v[k].path, path); k++)
			;
		if (k < s->n)
			continue;
		b = strchr(line, '[');
		e = b ? strchr(b, ']') : NULL;
		if (!b || !e)
			continue; /* no choice: nothing to put back */
		*e = '\0';
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		s->v[s->n].path = xstrdup(path);
		s->v[s->n].name = xstrdup(b + 1);
		s->n++;
	}
	return 0;
}

static int sched_write(const char *path, const char *name)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, name, strlen(name));
	err = errno;
	close(fd);
	return n < 0 ? -err : 0;
}

int iosched_apply(const struct run_files *fs, const char *want, char **cause)
{
	char path[PATH_MAX], line[256];
	unsigned i;
	bool sel = false;
	int ret;

	for (i = 0; i < fs->n; i++) {
		if (sched_path(&fs->v[i], path, sizeof(path)))
			continue;
		ret = sched_write(path, want);
		if (!ret)
			ret = sched_read(path, line, sizeof(line));
		if (ret)
			return set_cause_errno(cause, -ret, "ioscheduler=%s: %s: %s", want, path,
					       strerror(-ret));
		if (strcmp(line, "none") && (!offered(line, want, &sel) || !sel))
			return set_cause_errno(cause, EIO, "ioscheduler=%s: %s still shows \"%s\"",
					       want, path, line);
	}
	return 0;
}

void iosched_restore(struct iosched_set *s)
{
	unsigned i;

	for (i = 0; i < s->n; i++) {
		(void)sched_write(s->v[i].path, s->v[i].name); /* best effort, at the end */
		free(s->v[i].path);
		free(s->v[i].name);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}
