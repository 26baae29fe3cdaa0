/* SPDX-License-Identifier: MIT */
/*
 * A job clone's files: names from filename or filename_format, sizes, the
 * layout (for a job that reads, created or extended with non-zero data, never
 * left sparse; for one that only writes, its blocks reserved as fio's; never
 * shortened), open flags (O_DIRECT, O_SYNC, O_DSYNC), O_DIRECT alignment,
 * and the page cache dropped or warmed.  Does no measured I/O.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "files/devsafe.h"
#include "engines/engine.h"
#include "files/files.h"
#include "jobfile/options.h"
#include "mpi/mpi.h"
#include "plan/plan.h"
#include "util/runclock.h"
#include "workload/rand.h"

#define LAYOUT_CHUNK (1u << 20)

/* A layout's or pre_read's progress line, and its stop. */
struct files_pass {
	const struct files_watch *fw; /* may be NULL */
	struct run_layout l;
	uint64_t next; /* ns: when the next line is due */
	bool shown;    /* a line went out: the last one is owed */
};

static void pass_begin(struct files_pass *ps, const struct files_watch *fw, const char *what,
		       const char *path, uint64_t total)
{
	memset(ps, 0, sizeof(*ps));
	ps->fw = fw;
	ps->l.what = what;
	ps->l.path = path;
	ps->l.total = total;
	/* Nothing for one that ends within a line's time. */
	ps->next = fw && fw->layout ? run_now() + fw->every : UINT64_MAX;
}

/* @done bytes of the pass are done: a line when one is due, and the last
 * one at the end if any was shown.  True when the pass is to stop. */
static bool pass_at(struct files_pass *ps, uint64_t done)
{
	const struct files_watch *w = ps->fw;

	if (w && w->layout) {
		bool last = done == ps->l.total;
		uint64_t now = last ? 0 : run_now();

		if (last ? ps->shown : now >= ps->next) {
			ps->l.done = done;
			w->layout(&ps->l, w->arg);
			ps->shown = true;
			ps->next = last ? UINT64_MAX : now + w->every;
		}
	}
	return ps->fw && ps->fw->stop && atomic_load_explicit(ps->fw->stop, memory_order_relaxed);
}

/* $jobname, $jobnum and $filenum replaced, as fio's filename_format;
 * iogauge's $rank, $nranks and $hostname too. */
static char *format_name(const struct job *job, unsigned clone, unsigned filenum)
{
	struct strbuf sb = { 0 };
	const char *p = job->filename_format;

	while (*p) {
		if (!strncmp(p, "$jobname", 8)) {
			strbuf_addf(&sb, "%s", job->name);
			p += 8;
		} else if (!strncmp(p, "$jobnum", 7)) {
			strbuf_addf(&sb, "%u", clone);
			p += 7;
		} else if (!strncmp(p, "$filenum", 8)) {
			strbuf_addf(&sb, "%u", filenum);
			p += 8;
		} else if (!strncmp(p, "$rank", 5)) { /* MPI (mpi/mpi.h); 0 without */
			strbuf_addf(&sb, "%u", mpi_rank());
			p += 5;
		} else if (!strncmp(p, "$nranks", 7)) {
			strbuf_addf(&sb, "%u", mpi_size());
			p += 7;
		} else if (!strncmp(p, "$hostname", 9)) {
			strbuf_addf(&sb, "%s", mpi_host());
			p += 9;
		} else {
			strbuf_addc(&sb, *p++);
		}
	}
	if (job->directory.n) {
		char *name = strbuf_detach(&sb);

		strbuf_addf(&sb, "%s/%s", job->directory.v[clone % job->directory.n], name);
		free(name);
	}
	return strbuf_detach(&sb);
}

/* Appends non-zero bytes to @f's @fd from @from up to *@end; a stop (@fw)
 * ends it with -EINTR.  With @f->fill, ENOSPC or EDQUOT ends it too, not
 * as an error: *@end is then where it stopped (fill_device). */
static int extend(const struct run_file *f, int fd, uint64_t from, uint64_t *end,
		  const struct files_watch *fw, char **cause)
{
	uint64_t to = *end;
	const char *path = f->path;
	/* No more bytes drawn than the file takes: a run of many small files
	 * (filestat's 200 of 4k a job) would draw a MiB for each. */
	size_t chunk = to - from < LAYOUT_CHUNK ? (size_t)(to - from + 7) / 8 * 8 : LAYOUT_CHUNK;
	char *buf = xmalloc(chunk);
	struct files_pass ps;
	struct rng rng;
	uint64_t at;
	size_t i;
	int ret = 0;

	rng_seed(&rng, 0x10ad);
	for (i = 0; i < chunk; i += 8) {
		uint64_t v = rng_next(&rng) | 0x0101010101010101ull;

		memcpy(buf + i, &v, 8);
	}
	pass_begin(&ps, fw, "laying out", path, to - from);
	for (at = from; at < to && !ret;) {
		size_t n = to - at < chunk ? (size_t)(to - at) : chunk;
		ssize_t w;

		if (pass_at(&ps, at - from)) {
			set_cause(cause,
				  "%s: laying out the file: interrupted at offset %llu of %llu "
				  "bytes; %s",
				  path, (unsigned long long)at, (unsigned long long)to,
				  f->created ? "the file, created by this run, is removed"
					     : "the file keeps what was written");
			ret = -EINTR;
			break;
		}
		w = pwrite(fd, buf, n, (off_t)at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && f->fill && (errno == ENOSPC || errno == EDQUOT)) {
			*end = to = at;
			break;
		}
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			*cause = xasprintf("%s: laying out the file: offset %llu, size %zu: %s",
					   path, (unsigned long long)at, n, strerror(-ret));
			break;
		}
		at += (uint64_t)w;
	}
	if (!ret)
		pass_at(&ps, to - from);
	if (!ret && !f->nosync && fsync(fd) < 0) {
		ret = -errno;
		*cause = xasprintf("%s: fsync after layout: %s", path, strerror(errno));
	}
	free(buf);
	return ret;
}

static int file_size(int fd, const struct stat *st, uint64_t *size)
{
	if (S_ISBLK(st->st_mode))
		return ioctl(fd, BLKGETSIZE64, size) < 0 ? -errno : 0;
	*size = (uint64_t)st->st_size;
	return 0;
}

static bool is_chardev(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

int files_probe(const char *path, char *kind, uint64_t *size)
{
	struct stat st;
	int fd, ret;

	*kind = 0;
	*size = 0;
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	*kind = S_ISREG(st.st_mode)   ? 'f'
		: S_ISBLK(st.st_mode) ? 'b'
		: S_ISCHR(st.st_mode) ? 'c'
				      : 'o';
	if (*kind != 'b') {
		*size = *kind == 'f' ? (uint64_t)st.st_size : 0;
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = file_size(fd, &st, size);
	close(fd);
	return ret;
}

/*
 * A file a job only writes or trims (without overwrite=1), made or grown
 * to @need bytes as fio 3.33 makes it: no data written, the blocks from
 * @have reserved as fallocate= says (native: fallocate(2), its failure
 * ignored as fio ignores it; posix: posix_fallocate(3); keep: fallocate
 * with FALLOC_FL_KEEP_SIZE; truncate: ftruncate(2); none: nothing), so the
 * job's own writes allocate or convert the blocks, as fio's do.
 * 0, or -errno with *cause naming the file, offset, size and errno text.
 */
static int reserve(const struct run_file *f, int fd, uint64_t have, uint64_t need,
		   enum fallocate_mode mode, char **cause)
{
	const char *what = NULL;
	int err = 0;

	if (need <= have)
		return 0;
	switch (mode) {
	case FALLOC_NATIVE:
		(void)!fallocate(fd, 0, (off_t)have, (off_t)(need - have));
		break;
	case FALLOC_POSIX:
		err = posix_fallocate(fd, (off_t)have, (off_t)(need - have));
		what = "posix_fallocate";
		break;
	case FALLOC_KEEP:
		err = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)have, (off_t)(need - have)) ? errno
											    : 0;
		what = "fallocate(FALLOC_FL_KEEP_SIZE)";
		break;
	case FALLOC_TRUNCATE:
		err = ftruncate(fd, (off_t)need) ? errno : 0;
		what = "ftruncate";
		break;
	case FALLOC_NONE:
		break;
	}
	if (err)
		return set_cause_errno(
			cause, err, "%s: fallocate=%s: %s at offset %llu, size %llu: %s", f->path,
			opt_enum_name(OPT_FALLOCATE, (int)mode), what, (unsigned long long)have,
			(unsigned long long)(need - have), strerror(err));
	return 0;
}

/*
 * Creates or extends @f->path to @need bytes (regular files only).  A file
 * already large enough is only looked at, so a read job needs no write
 * permission on it.  With @noextend (the engine's name: it cannot grow a
 * file), an existing file too short is an error instead.  With @rewrite
 * (fio's overwrite=1), a file too short is truncated and laid out whole.
 * Without @data (a job that does not read, without overwrite=1), a file
 * too short gets no data, only its blocks reserved (reserve()).
 */
static int layout(struct run_file *f, uint64_t need, const char *noextend, bool rewrite, bool data,
		  enum fallocate_mode falloc, bool read_only, const struct files_watch *fw,
		  char **cause)
{
	struct stat st;
	uint64_t have = 0;
	int fd, ret = 0;

	bool found = stat(f->path, &st) == 0;

	if (found && S_ISREG(st.st_mode) && (uint64_t)st.st_size >= need) {
		f->size = (uint64_t)st.st_size;
		return 0;
	}
	if (found && S_ISDIR(st.st_mode))
		return set_cause(cause,
				 "%s: is a directory: filename= names a file or a device "
				 "(directory= is the folder a job's files go in)",
				 f->path);
	if (read_only && !(found && S_ISBLK(st.st_mode)))
		return set_cause(cause,
				 "%s: --readonly: the file %s; lay it out first, or run without "
				 "--readonly",
				 f->path,
				 found ? "is shorter than the job's region and would be extended"
				       : "does not exist and would be created");
	if (found && S_ISREG(st.st_mode) && noextend)
		return set_cause(cause,
				 "%s: ioengine=%s cannot extend the file from %llu to %llu bytes; "
				 "lay it out with another engine first, or lower size=",
				 f->path, noextend, (unsigned long long)st.st_size,
				 (unsigned long long)need);
	fd = open(f->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		f->created = true;
	else if (errno == EEXIST)
		fd = open(f->path, found && S_ISBLK(st.st_mode) ? O_RDONLY | O_CLOEXEC
				   : rewrite			? O_RDWR | O_TRUNC | O_CLOEXEC
								: O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || file_size(fd, &st, &have) < 0) {
		ret = -errno;
		*cause = xasprintf("%s: %s", f->path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		ret = set_cause(cause, "%s: not a regular file or block device", f->path);
	else if (S_ISBLK(st.st_mode) && have < need)
		ret = set_cause(cause, "%s: the device has %llu bytes, the job needs %llu", f->path,
				(unsigned long long)have, (unsigned long long)need);
	else if (have < need && !data && S_ISREG(st.st_mode))
		ret = reserve(f, fd, have, need, falloc, cause);
	else if (have < need)
		ret = extend(f, fd, have, &need, fw, cause);
	f->size = have > need ? have : need;
	close(fd);
	return ret;
}

/* fill_device: the bytes @path (@have now) could grow to: what its
 * filesystem has free, counting the blocks kept for root (as fio's
 * fill_device_size), plus a block of @bs, so that ENOSPC, not the region's
 * end, ends the writes; PLAN_REGION_MAX when it cannot be asked. */
static uint64_t fill_room(const char *path, uint64_t have, uint64_t bs)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
	struct statvfs sv;
	uint64_t room = PLAN_REGION_MAX;

	if (statvfs(dir ? dir : ".", &sv) == 0 &&
	    (uint64_t)sv.f_bfree < (PLAN_REGION_MAX - have) / 2 / (sv.f_frsize ? sv.f_frsize : 1))
		room = (have + (uint64_t)sv.f_bfree * sv.f_frsize) / bs * bs + 2 * bs;
	free(dir);
	return room < PLAN_REGION_MAX ? room : PLAN_REGION_MAX;
}

/* Checks O_DIRECT on an open file: the filesystem takes it, and every block
 * size and the region start are multiples of its offset alignment. */
static int check_direct(const struct job *job, struct run_file *f, size_t *mem_align, char **cause)
{
	struct statx stx;
	uint64_t align;
	unsigned d, i;

	/*
	 * A filesystem that refuses O_DIRECT fails the open with EINVAL.  One
	 * that takes it may still not report its alignment (tmpfs, which took
	 * O_DIRECT in Linux 6.6): then 512 bytes, the smallest sector, and
	 * page-aligned buffers.
	 */
	align = 512;
	if (statx(f->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align) {
		align = stx.stx_dio_offset_align;
		if (stx.stx_dio_mem_align > *mem_align)
			*mem_align = stx.stx_dio_mem_align;
	}
	for (d = 0; d < DDIR_TRIM; d++) {
		/* Block sizes, and what else moves an offset: blockalign, rw's gap. */
		uint64_t sizes[4 + JOB_MAX_BSSPLIT] = {
			job->bs[d], job->bsrange_min[d], job->blockalign[d],
			job->rw_seq_add < 0 ? (uint64_t)-job->rw_seq_add : (uint64_t)job->rw_seq_add
		};
		unsigned n = 4;

		for (i = 0; i < job->nr_bssplit[d]; i++)
			sizes[n++] = job->bssplit[d][i].bs;
		for (i = 0; i < n; i++)
			if (sizes[i] % align)
				return set_cause(
					cause,
					"%s: direct=1 needs block sizes, blockalign and "
					"rw's gap in multiples of %llu bytes here; %llu is not",
					f->path, (unsigned long long)align,
					(unsigned long long)sizes[i]);
	}
	if (f->start % align)
		return set_cause(cause, "%s: direct=1 needs the offset in multiples of %llu bytes",
				 f->path, (unsigned long long)align);
	return 0;
}

/* Reads the region once, through the page cache, so that it sits there
 * (pre_read).  A descriptor of its own: the job's may be O_DIRECT.  A stop
 * (@fw) ends it with -EINTR. */
static int warm(struct run_file *f, const struct files_watch *fw, char **cause)
{
	char *buf = xmalloc(LAYOUT_CHUNK);
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	uint64_t at = f->start;
	struct files_pass ps;
	ssize_t r = 0;
	int ret = 0;

	pass_begin(&ps, fw, "pre-reading", f->path, f->len);
	while (fd >= 0 && at < f->start + f->len) {
		if (pass_at(&ps, at - f->start)) {
			close(fd);
			free(buf);
			set_cause(cause, "%s: pre_read: interrupted at offset %llu", f->path,
				  (unsigned long long)at);
			return -EINTR;
		}
		r = pread(fd, buf, LAYOUT_CHUNK, (off_t)at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		at += (uint64_t)r;
	}
	if (fd < 0 || r < 0) {
		ret = -errno;
		*cause = xasprintf("%s: pre_read: offset %llu: %s", f->path, (unsigned long long)at,
				   strerror(errno));
	} else if (r == 0 && at < f->start + f->len) {
		ret = set_cause(cause, "%s: pre_read: end of file at offset %llu", f->path,
				(unsigned long long)at);
	} else {
		pass_at(&ps, f->len);
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/* write_hint: on the inode (F_SET_RW_HINT), with direct=1 too, where fio
 * asks F_SET_FILE_RW_HINT, which kernels since 5.18 refuse. */
static int set_write_hint(const struct job *job, const struct run_file *f, char **cause)
{
	uint64_t hint = (uint64_t)job->write_hint; /* RWH_WRITE_LIFE_NONE.. */

	if (fcntl(f->fd, F_SET_RW_HINT, &hint) < 0)
		return set_cause_errno(cause, errno,
				       "%s: write_hint: fcntl(F_SET_RW_HINT, %llu): %s", f->path,
				       (unsigned long long)hint, strerror(errno));
	return 0;
}

/*
 * A character device (/dev/zero, /dev/null): as fio's, it has no size of
 * its own; the job's filesize, or its size divided among its files, is
 * taken for it, and the region is what of that lies past the offset.
 * Nothing is laid out or pre-read, and a block device's checks do not
 * apply.  @len is plan_region's.
 */
static int open_chardev(const struct job_plan *jp, unsigned clone, struct run_file *f, uint64_t len,
			int flags, size_t *mem_align, char **cause)
{
	const struct job *job = jp->job;
	uint64_t size = job->filesize_min ? f->start + len : jp->len;

	f->chardev = true;
	if (!job->filesize_min && !jp->len)
		return set_cause(cause,
				 "%s: a character device has no size of its own: give size= or "
				 "filesize= in bytes",
				 f->path);
	f->size = size;
	f->len = size > f->start ? size - f->start : 0;
	if (plan_region_in_file(jp, clone, size, &f->start, &f->len))
		return set_cause(cause,
				 "%s: the I/O region starts at offset %llu, at or past the %llu "
				 "bytes the job gives the character device (size= or filesize=)",
				 f->path, (unsigned long long)f->start, (unsigned long long)size);
	f->fd = open(f->path, flags);
	if (f->fd < 0) {
		if (errno == EINVAL && job->direct)
			return set_cause(cause, "%s: direct=1, but the device refuses O_DIRECT",
					 f->path);
		return set_cause_errno(cause, errno, "%s: %s", f->path, strerror(errno));
	}
	if (job->write_hint) {
		int ret = set_write_hint(job, f, cause);

		if (ret)
			return ret;
	}
	return job->direct ? check_direct(job, f, mem_align, cause) : 0;
}

/* As fio 3.33's setup_files: the folders of @path that do not exist yet
 * are made (0700), each in turn from the first.  0, or -errno with
 * @cause naming the folder that could not be made. */
static int make_folders(const char *path, char **cause)
{
	char *p = xstrdup(path), *slash;
	struct stat st;
	int ret = 0;

	for (slash = strchr(p + 1, '/'); slash && !ret; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (stat(p, &st) < 0 &&
		    (errno != ENOENT || (mkdir(p, 0700) < 0 && errno != EEXIST))) {
			ret = -errno;
			*cause =
				xasprintf("%s: making its folder %s: %s", path, p, strerror(errno));
		}
		*slash = '/';
	}
	free(p);
	return ret;
}

/* fio 3.33 refuses a directory= that is not a folder (as it parses the
 * option, exit 1): the folders made are only those of the file's name. */
static int check_directory(const struct job *job, char **cause)
{
	struct stat st;
	unsigned i;

	for (i = 0; i < job->directory.n; i++) {
		int err = stat(job->directory.v[i], &st) < 0 ? errno
			  : S_ISDIR(st.st_mode)		     ? 0
							     : ENOTDIR;

		if (err) {
			*cause = xasprintf("directory=%s: %s (it is not made: only the folders "
					   "in a file's name are)",
					   job->directory.v[i], strerror(err));
			return -err;
		}
	}
	return 0;
}

int files_open(const struct job_plan *jp, unsigned clone, unsigned engine_flags,
	       const struct files_watch *fw, struct run_files *fs, char **cause)
{
	const struct job *job = jp->job;
	unsigned i, n = jp->nfiles;
	bool modifies = job_modifies(job) || (engine_flags & ENGINE_F_MODIFIES);
	int flags = O_CLOEXEC | (modifies ? O_RDWR : O_RDONLY);
	int ret = 0;

	if (job->read_only && modifies)
		return set_cause(cause,
				 "[%s] ioengine=%s changes its files even when it reads, and "
				 "--readonly refuses every job that changes them",
				 job->name, job->ioengine->name);

	if (job->direct)
		flags |= O_DIRECT;
	if (job->sync == SYNC_SYNC)
		flags |= O_SYNC;
	else if (job->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
	memset(fs, 0, sizeof(*fs));
	fs->oflags = flags;
	fs->lazy = job->openfiles && job->openfiles < n && !(engine_flags & ENGINE_F_NOFILES);
	/* Once for the job's files, not once a file. */
	if (!(engine_flags & ENGINE_F_NOFILES) && !job->read_only &&
	    (ret = check_directory(job, cause)))
		return ret;
	fs->v = xcalloc(n, sizeof(*fs->v));
	fs->mem_align = (size_t)sysconf(_SC_PAGESIZE);
	for (i = 0; i < n && !ret; i++) {
		struct run_file *f = &fs->v[i];
		uint64_t len;

		/* openfiles: each is looked at and closed again; the run opens
		 * it when the workload first uses it. */
		if (fs->lazy && i && fs->v[i - 1].fd >= 0) {
			close(fs->v[i - 1].fd);
			fs->v[i - 1].fd = -1;
		}
		fs->n++;
		f->fd = -1;
		if (!job->filename.n)
			f->path = format_name(job, clone, i);
		else if (job->directory.n && job->filename.v[i][0] != '/')
			/* fio: a relative filename lives in directory. */
			f->path = xasprintf("%s/%s", job->directory.v[clone % job->directory.n],
					    job->filename.v[i]);
		else
			f->path = xstrdup(job->filename.v[i]);
		plan_region(jp, clone, i, &f->start, &len);
		f->nosync = !job->create_fsync;
		if (!(engine_flags & ENGINE_F_NOFILES) && !job->read_only) {
			ret = make_folders(f->path, cause);
			if (ret)
				break;
		}
		if (!(engine_flags & ENGINE_F_NOFILES) &&
		    (!job->allow_file_create || job->file_append)) {
			char kind;
			uint64_t have;

			ret = files_probe(f->path, &kind, &have);
			if (!ret && !kind && !job->allow_file_create)
				ret = -ENOENT; /* exit 1, as fio's: not a bad job file */
			if (ret) {
				*cause = xasprintf("%s: %s%s", f->path, strerror(-ret),
						   ret == -ENOENT ? " (allow_file_create=0 forbids "
								    "creating it)"
								  : "");
				break;
			}
			/* As fio's file_append: the region starts at the end of a
			 * regular file (offset is not used). */
			if (job->file_append && kind == 'f')
				f->start = have;
		}
		if (engine_flags & ENGINE_F_NOFILES) {
			/* Nothing is laid out or opened: the region is all there is
			 * (check_job saw that it is given in bytes, or that the
			 * engine makes each file a block). */
			if (!len && (engine_flags & ENGINE_F_BLOCKFILE))
				len = jp->bs_min;
			f->size = f->start + len;
			f->len = len;
			continue;
		}
		if (is_chardev(f->path)) {
			ret = open_chardev(jp, clone, f, len, flags, &fs->mem_align, cause);
			if (ret)
				break;
			continue;
		}
		if (job->fill_device && !len) {
			char kind;
			uint64_t have;

			/* fill_device without a size: a file (not a device) takes
			 * all the room there is, as fio's. */
			if (files_probe(f->path, &kind, &have) == 0 && (!kind || kind == 'f')) {
				f->fill = true;
				len = fill_room(f->path, have, jp->bs_max) - f->start;
			}
		}
		if (f->fill && !job_does(job, DDIR_READ) && !job->read_only) {
			/* Written until ENOSPC: nothing to lay out first. */
			f->fd = open(f->path, flags | O_CREAT | O_EXCL, 0644);
			f->created = f->fd >= 0;
			if (f->fd < 0 && errno == EEXIST)
				f->fd = open(f->path, flags);
			if (f->fd < 0) {
				ret = -errno;
				*cause = xasprintf("%s: %s", f->path, strerror(errno));
				break;
			}
			f->size = f->start + len;
			f->len = len;
			if (job->direct)
				ret = check_direct(job, f, &fs->mem_align, cause);
			if (ret)
				break;
			continue;
		}
		if (f->fill)
			len = 0; /* laid out until full, then used as it is */
		if (!len && !f->fill && access(f->path, F_OK) < 0) {
			ret = set_cause(cause,
					"%s: the file does not exist and the job gives no size in "
					"bytes to lay it out (a percentage needs an existing file; "
					"set size= or filesize=)",
					f->path);
			break;
		}
		if (job->create_on_open && len && !job->read_only && access(f->path, F_OK) < 0 &&
		    errno == ENOENT) {
			/* As fio's create_on_open: not laid out; the job's open
			 * makes it, empty (mode 0600, as fio's), and its writes
			 * fill it. */
			f->size = f->start + len;
			f->len = len;
			f->fd = open(f->path, flags | O_CREAT | O_EXCL, 0600);
			if (f->fd < 0) {
				ret = -errno;
				*cause = xasprintf("%s: create_on_open: %s", f->path,
						   strerror(errno));
				break;
			}
			f->created = true;
			if (job->direct)
				ret = check_direct(job, f, &fs->mem_align, cause);
			if (ret)
				break;
			continue;
		}
		/* No size: the file is used as it is, never extended. */
		ret = layout(f,
			     len       ? f->start + len
			     : f->fill ? PLAN_REGION_MAX
				       : 0,
			     (engine_flags & ENGINE_F_NOEXTEND) ? job->ioengine->name : NULL,
			     job->overwrite && !job->file_append &&
				     (job_does(job, DDIR_READ) || job_does(job, DDIR_WRITE)),
			     /* As fio's extend_file: data for a job that reads, or
			      * writes with overwrite=1. */
			     job_does(job, DDIR_READ) || (job->overwrite && !job->file_append &&
							  job_does(job, DDIR_WRITE)),
			     job->fallocate, job->read_only, fw, cause);
		if (ret)
			break;
		f->len = len;
		if (plan_region_in_file(jp, clone, f->size, &f->start, &f->len)) {
			ret = set_cause(cause,
					"%s: the I/O region (offset %llu, %llu bytes) does not "
					"fit in the file's %llu bytes",
					f->path, (unsigned long long)f->start,
					(unsigned long long)f->len, (unsigned long long)f->size);
			break;
		}
		f->fd = open(f->path, flags);
		if (f->fd < 0) {
			ret = -errno;
			if (errno == EINVAL && job->direct)
				*cause = xasprintf(
					"%s: direct=1, but the filesystem refuses O_DIRECT; "
					"use direct=0",
					f->path);
			else
				*cause = xasprintf("%s: %s", f->path, strerror(errno));
			break;
		}
		{
			struct stat st;

			f->blkdev = fstat(f->fd, &st) == 0 && S_ISBLK(st.st_mode);
			/* A device with something on it is not written unasked. */
			if (f->blkdev && modifies && !job->allow_mounted_write)
				ret = devsafe_check(f->path, st.st_rdev, cause);
		}
		if (!ret && job->write_hint)
			ret = set_write_hint(job, f, cause);
		if (ret)
			break;
		if (job->direct)
			ret = check_direct(job, f, &fs->mem_align, cause);
		if (!ret && job->pre_read)
			ret = warm(f, fw, cause);
	}
	if (!ret && fs->lazy && n && fs->v[n - 1].fd >= 0) {
		close(fs->v[n - 1].fd);
		fs->v[n - 1].fd = -1;
	}
	if (ret)
		files_close(fs, true);
	return ret;
}

int files_lazy_open(struct run_files *fs, unsigned i, const struct job *job, char **cause)
{
	struct run_file *f = &fs->v[i];
	int advice;

	f->fd = open(f->path, fs->oflags);
	if (f->fd < 0)
		return set_cause_errno(cause, errno, "%s: open: %s", f->path, strerror(errno));
	if (job->invalidate && !job->pre_read)
		posix_fadvise(f->fd, (off_t)f->start, (off_t)f->len, POSIX_FADV_DONTNEED);
	if (job->fadvise_hint != FADV_HINT_NONE) {
		advice = job->fadvise_hint == FADV_HINT_RANDOM ||
					 (job->fadvise_hint == FADV_HINT_WORKLOAD &&
					  job_is_random(job->rw))
				 ? POSIX_FADV_RANDOM
				 : POSIX_FADV_SEQUENTIAL;
		posix_fadvise(f->fd, (off_t)f->start, (off_t)f->len, advice);
	}
	return 0;
}

void files_lazy_close(struct run_files *fs, unsigned i, const struct job *job)
{
	struct run_file *f = &fs->v[i];

	if (f->fd < 0)
		return;
	if (job->fsync_on_close && job_does(job, DDIR_WRITE))
		(void)fsync(f->fd);
	close(f->fd);
	f->fd = -1;
}

int files_reloop(struct run_files *fs, bool writes, char **cause)
{
	unsigned i;

	for (i = 0; i < fs->n; i++) {
		struct run_file *f = &fs->v[i];

		if ((f->fd < 0 && !fs->lazy) || f->blkdev || f->chardev)
			continue;
		if (f->fd >= 0)
			close(f->fd);
		if (unlink(f->path) < 0 && errno != ENOENT) {
			f->fd = -1;
			return set_cause_errno(cause, errno, "%s: unlink_each_loop: %s", f->path,
					       strerror(errno));
		}
		f->fd = open(f->path, fs->oflags | (writes ? O_CREAT : 0), 0600);
		if (f->fd < 0)
			return set_cause_errno(cause, errno, "%s: unlink_each_loop: open: %s",
					       f->path, strerror(errno));
		f->created = true;
		if (fs->lazy) { /* made again; opened when the workload next uses it */
			close(f->fd);
			f->fd = -1;
		}
	}
	return 0;
}

void files_close(struct run_files *fs, bool unlink_created)
{
	unsigned i;

	for (i = 0; i < fs->n; i++) {
		if (fs->v[i].fd >= 0)
			close(fs->v[i].fd);
		if (unlink_created && fs->v[i].created)
			unlink(fs->v[i].path);
		free(fs->v[i].path);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}
