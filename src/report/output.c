/* SPDX-License-Identifier: MIT */
/*
 * The report's destination: standard output, or --output's file written
 * under a temporary name and renamed into place, so that a run that fails
 * (or is killed) leaves the file the user had.  A device or a FIFO cannot
 * be renamed over: it is written in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/output.h"
#include "util/util.h"

/* "DIR/.NAME.iogauge-XXXXXX" for @target "DIR/NAME", for mkostemp. */
static char *temp_beside(const char *target)
{
	const char *slash = strrchr(target, '/');

	if (!slash)
		return xasprintf(".%s.iogauge-XXXXXX", target);
	return xasprintf("%.*s/.%s.iogauge-XXXXXX", (int)(slash - target), target, slash + 1);
}

/* The temporary takes the mode the file has, or would have had if made. */
static void take_mode(int fd, const struct stat *old)
{
	mode_t mask;

	if (old) {
		(void)fchmod(fd, old->st_mode & 07777);
		/* Root replacing a user's file keeps its owner; failing that, the
		 * report is still written, root's. */
		if (geteuid() == 0 && fchown(fd, old->st_uid, old->st_gid) < 0)
			errno = 0;
		return;
	}
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
}

int output_open(struct output *o, const char *path, char **cause)
{
	struct stat st;
	bool exists;
	int flags, err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = path;
	if (!path) {
		/* main.c opens a closed 1 read-only: a report there would be lost. */
		flags = fcntl(STDOUT_FILENO, F_GETFL);
		if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
			return set_cause(cause,
					 "standard output is closed or read-only, and the report "
					 "goes there; use --output=FILE");
		return 0;
	}
	exists = !stat(path, &st);
	if (exists && S_ISDIR(st.st_mode))
		return set_cause(cause, "--output=%s: %s", path, strerror(EISDIR));
	if (exists && !S_ISREG(st.st_mode)) {
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0)
			return set_cause(cause, "--output=%s: %s", path, strerror(errno));
		return 0;
	}
	if (!*path || path[strlen(path) - 1] == '/')
		return set_cause(cause, "--output=%s: %s", path, strerror(*path ? EISDIR : ENOENT));
	if (exists && access(path, W_OK))
		return set_cause(cause, "--output=%s: %s", path, strerror(errno));
	/* A symlink stays: the file it leads to is replaced. */
	o->target = exists ? realpath(path, NULL) : NULL;
	if (!o->target)
		o->target = xstrdup(path);
	o->tmp = temp_beside(o->target);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd >= 0) {
		take_mode(o->fd, exists ? &st : NULL);
		return 0;
	}
	err = errno;
	free(o->tmp);
	o->tmp = NULL;
	/* A file we may write in a folder we may not: truncated and written
	 * in place, still only once the report is there. */
	if (exists && (err == EACCES || err == EPERM)) {
		o->fd = open(o->target, O_WRONLY | O_CLOEXEC);
		if (o->fd >= 0) {
			o->truncate = true;
			return 0;
		}
	}
	output_abandon(o);
	return set_cause(cause, "--output=%s: %s%s", path,
			 exists ? "cannot create a temporary file beside it: " : "", strerror(err));
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* @len bytes of @buf to standard output, flushed.  0, or -errno with
 * *cause set. */
static int stdout_write(const char *buf, size_t len, char **cause)
{
	int err = 0;

	errno = 0;
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout))
		err = errno ? errno : EIO;
	if (err)
		return set_cause_errno(cause, err, "standard output: %s", strerror(err));
	return 0;
}

int output_commit(struct output *o, const char *buf, size_t len, char **cause)
{
	int err = 0;

	if (!o->path)
		return stdout_write(buf, len, cause);
	if (o->truncate && ftruncate(o->fd, 0))
		err = errno;
	if (!err)
		err = write_all(o->fd, buf, len);
	/* Flushed before the rename: a crash leaves the old file or the new. */
	if (!err && o->tmp && fsync(o->fd) && errno != EINVAL)
		err = errno;
	if (close(o->fd) && !err)
		err = errno;
	o->fd = -1;
	if (!err && o->tmp && rename(o->tmp, o->target))
		err = errno;
	if (!err) {
		free(o->tmp);
		o->tmp = NULL;
	}
	output_abandon(o);
	if (err)
		return set_cause_errno(cause, err, "--output=%s: the report is not written: %s",
				       o->path, strerror(err));
	return 0;
}

int output_append(struct output *o, const char *buf, size_t len, char **cause)
{
	int err = 0;

	if (!o->path)
		return stdout_write(buf, len, cause);
	if (o->fd < 0)
		return set_cause_errno(cause, EBADF, "--output=%s: %s", o->path, strerror(EBADF));
	if (o->truncate && ftruncate(o->fd, 0))
		err = errno;
	o->truncate = false;
	if (!err)
		err = write_all(o->fd, buf, len);
	if (!err && o->tmp && rename(o->tmp, o->target))
		err = errno;
	if (!err && o->tmp) {
		free(o->tmp);
		o->tmp = NULL;
	}
	if (err)
		return set_cause_errno(cause, err,
				       "--output=%s: a status report is not written: %s", o->path,
				       strerror(err));
	return 0;
}

void output_abandon(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
}

bool output_is_input(const char *path, const char *in)
{
	struct stat a, b;

	return path && in && !stat(path, &a) && !stat(in, &b) && S_ISREG(a.st_mode) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
