/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's storage facts: for each place the jobs' files are, its
 * mount (/proc/self/mountinfo: filesystem, source, options) and the block
 * device under it, from /sys/dev/block: model, firmware, rotational,
 * scheduler, queue depth, block sizes; then, for a stacked device (dm, md),
 * the devices it is built on (slaves/), down to the disks.  Read after the
 * run: a file the run removed is looked up by its folder.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <dirent.h>

#include "engines/engine.h"
#include "report/html/html.h"

/* The first line of a sysfs file, or NULL. */
static char *sys_read(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), line[256];
	FILE *f = fopen(path, "r");
	char *v = NULL;

	free(path);
	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		/* sysfs pads SCSI models with spaces. */
		while (*line && line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = '\0';
		v = xstrdup(line);
	}
	fclose(f);
	return v;
}

/* The scheduler in use: the bracketed one of "none [mq-deadline] kyber". */
static char *scheduler_of(const char *dir)
{
	char *all = sys_read(dir, "queue/scheduler"), *a, *b, *v;

	if (!all)
		return NULL;
	a = strchr(all, '[');
	b = a ? strchr(a, ']') : NULL;
	v = a && b ? xstrndup(a + 1, (size_t)(b - a - 1)) : xstrdup(all);
	free(all);
	return v;
}

/* One device's row; @depth: how far below the file's device it is. */
static void device_row(struct strbuf *sb, const char *dir, const char *name, unsigned depth)
{
	static const char *const files[] = {
		"device/model", "device/firmware_rev",	    "queue/rotational",		NULL,
		NULL,		"queue/logical_block_size", "queue/physical_block_size"
	};
	char *v[ARRAY_SIZE(files)], *size = sys_read(dir, "size"), *dm = sys_read(dir, "dm/name");
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(files); i++)
		v[i] = files[i] ? sys_read(dir, files[i]) : NULL;
	if (!v[0]) /* virtio and others: the vendor id alone */
		v[0] = sys_read(dir, "device/vendor");
	if (!v[1]) /* SCSI: rev */
		v[1] = sys_read(dir, "device/rev");
	v[3] = scheduler_of(dir);
	/* SCSI's device queue depth where there is one, else the block layer's. */
	v[4] = sys_read(dir, "device/queue_depth");
	if (!v[4]) {
		char *nr = sys_read(dir, "queue/nr_requests");

		v[4] = nr ? xasprintf("%s (nr_requests)", nr) : NULL;
		free(nr);
	}
	strbuf_adds(sb, "<tr class=\"device\" data-dev=\"");
	html_text(sb, name);
	strbuf_addf(sb, "\"><td class=\"name\">%*s", (int)depth * 2, "");
	html_textf(sb, "%s/dev/%s%s%s%s", depth ? "\u2514 " : "", name, dm ? " (" : "",
		   dm ? dm : "", dm ? ")" : "");
	strbuf_adds(sb, "</td><td>");
	if (size)
		html_textf(sb, "%.2f GiB", (double)strtoull(size, NULL, 10) * 512 / 1073741824.0);
	strbuf_adds(sb, "</td>");
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		strbuf_adds(sb, "<td>");
		if (i == 2 && v[i])
			html_text(sb, !strcmp(v[i], "1") ? "yes" : "no");
		else
			html_text(sb, v[i] ? v[i] : "-");
		strbuf_adds(sb, "</td>");
		free(v[i]);
	}
	strbuf_adds(sb, "</tr>\n");
	free(size);
	free(dm);
}

/* @dir's row, then those of the devices in its slaves/, each below it. */
static void device_rows(struct strbuf *sb, const char *dir, unsigned depth)
{
	char *slaves = xasprintf("%s/slaves", dir), *real = realpath(dir, NULL);
	const char *name = real ? strrchr(real, '/') + 1 : dir;
	struct dirent *de;
	DIR *d;

	device_row(sb, real ? real : dir, name, depth);
	d = depth < 8 ? opendir(slaves) : NULL;
	while (d && (de = readdir(d))) {
		char *sub;

		if (de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", slaves, de->d_name);
		device_rows(sb, sub, depth + 1);
		free(sub);
	}
	if (d)
		closedir(d);
	free(slaves);
	free(real);
}

/* The sysfs folder of the whole device that holds block device @dev (a
 * partition's parent, its name then in *@part, or NULL), or NULL when
 * sysfs has none (tmpfs, overlay, btrfs's anonymous device numbers). */
static char *disk_dir(dev_t dev, char **part)
{
	char *link = xasprintf("/sys/dev/block/%u:%u", major(dev), minor(dev));
	char *real = realpath(link, NULL), *file, *slash;

	*part = NULL;
	free(link);
	if (!real)
		return NULL;
	file = xasprintf("%s/partition", real);
	if (!access(file, F_OK) && (slash = strrchr(real, '/'))) {
		*part = xstrdup(slash + 1);
		*slash = '\0';
	}
	free(file);
	return real;
}

/* mountinfo's octal escapes (\040 for a space) decoded in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

struct mount {
	char *point, *fstype, *source, *opts, *super_opts;
};

/* The mount of the filesystem with device @dev whose mount point is the
 * longest prefix of @path (an absolute path). */
static bool mount_of(dev_t dev, const char *path, struct mount *m)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t best = 0, cap = 0;
	bool found = false;

	/* Whole lines (an overlay's can pass 4 KiB); options past the
	 * buffers below are cut, not misread. */
	while (f && getline(&line, &cap, f) > 0) {
		char point[PATH_MAX], mopts[1024], fstype[128], source[PATH_MAX], sopts[2048];
		unsigned maj, min;
		char *dash = strstr(line, " - ");
		size_t len;

		if (!dash ||
		    sscanf(line, "%*u %*u %u:%u %*s %4095s %1023s", &maj, &min, point, mopts) != 4)
			continue;
		if (sscanf(dash + 3, "%127s %4095s %2047s", fstype, source, sopts) != 3)
			continue;
		unescape(point);
		unescape(source);
		len = strlen(point);
		if (makedev(maj, min) != dev || strncmp(path, point, len) ||
		    (len > 1 && path[len] && path[len] != '/') || len < best)
			continue;
		best = len;
		free(m->point), free(m->fstype), free(m->source), free(m->opts);
		free(m->super_opts);
		m->point = xstrdup(point);
		m->fstype = xstrdup(fstype);
		m->source = xstrdup(source);
		m->opts = xstrdup(mopts);
		m->super_opts = xstrdup(sopts);
		found = true;
	}
	if (f)
		fclose(f);
	free(line);
	return found;
}

/* Where a job's files are: filename's entries (in directory when it is
 * relative), else its directories, else the working folder. */
static void job_places(const struct job *job, struct str_list *out)
{
	unsigned i;

	for (i = 0; i < job->filename.n; i++) {
		const char *f = job->filename.v[i];

		if (f[0] != '/' && job->directory.n)
			str_list_push(out, xasprintf("%s/%s", job->directory.v[0], f));
		else
			str_list_push(out, xstrdup(f));
	}
	for (i = 0; !job->filename.n && i < job->directory.n; i++)
		str_list_push(out, xstrdup(job->directory.v[i]));
	if (!job->filename.n && !job->directory.n)
		str_list_push(out, xstrdup("."));
}

/* The path itself, or when it is gone, its nearest folder that is there. */
static char *existing(const char *path, struct stat *st)
{
	char *p = xstrdup(path), *slash;

	while (stat(p, st)) {
		if (!strcmp(p, ".") || !strcmp(p, "/")) {
			memset(st, 0, sizeof(*st));
			break;
		}
		slash = strrchr(p, '/');
		if (!slash) {
			free(p);
			p = xstrdup(".");
		} else {
			slash[slash == p] = '\0';
		}
	}
	return p;
}

static void place(struct strbuf *sb, const char *path)
{
	struct mount m = { 0 };
	struct stat st;
	char *at = existing(path, &st), *abs = realpath(at, NULL), *dir, *part;
	struct stat src;
	bool blk = S_ISBLK(st.st_mode), mounted;
	dev_t dev = blk ? st.st_rdev : st.st_dev;

	mounted = !blk && abs && mount_of(dev, abs, &m);
	strbuf_adds(sb, "<h3>");
	html_text(sb, path);
	strbuf_adds(sb, "</h3>\n<div class=\"scroll\"><table class=\"kv place\" data-path=\"");
	html_text(sb, path);
	strbuf_adds(sb, "\">\n");
	if (strcmp(at, path))
		html_kv(sb, "looked up at", abs ? abs : at); /* the file is not there (any more) */
	html_kv(sb, "kind", blk ? "block device" : S_ISDIR(st.st_mode) ? "folder" : "file");
	if (mounted) {
		char *s = xasprintf("%s on %s", m.source, m.point);

		html_kv(sb, "filesystem", m.fstype);
		html_kv(sb, "mounted", s);
		html_kv(sb, "mount options", m.opts);
		html_kv(sb, "filesystem options", m.super_opts);
		free(s);
	}
	/* btrfs and others number their filesystems apart from the device:
	 * the device is the mount's source. */
	dir = disk_dir(dev, &part);
	if (!dir && mounted && !strncmp(m.source, "/dev/", 5) && !stat(m.source, &src) &&
	    S_ISBLK(src.st_mode)) {
		dev = src.st_rdev;
		dir = disk_dir(dev, &part);
	}
	if (part) {
		char *s = xasprintf("/dev/%s", part);

		html_kv(sb, "partition", s);
		free(s);
	}
	strbuf_adds(sb, "</table></div>\n");
	if (dir) {
		strbuf_adds(sb,
			    "<div class=\"scroll\"><table class=\"num devices\"><tr><th>device"
			    "</th><th>size</th><th>model</th><th>firmware</th><th>rotational</th>"
			    "<th>scheduler</th><th>queue depth</th><th>logical block</th>"
			    "<th>physical block</th></tr>\n");
		device_rows(sb, dir, 0);
		strbuf_adds(sb, "</table></div>\n");
	} else {
		strbuf_addf(sb, "<p>No block device under it (device %u:%u).</p>\n", major(dev),
			    minor(dev));
	}
	free(dir);
	free(part);
	free(abs);
	free(at);
	free(m.point), free(m.fstype), free(m.source), free(m.opts), free(m.super_opts);
}

void html_storage(struct strbuf *sb, const struct run *run)
{
	struct str_list places = { 0 };
	unsigned i, j;
	bool any = false;

	for (i = 0; i < run->nr; i++) {
		const struct run_result *r = &run->results[i];
		const struct engine_ops *eng = r->engine ? engine_find(r->engine) : NULL;

		/* Once per job, not per clone; an engine with no files has none. */
		if ((i && run->results[i - 1].job == r->job) ||
		    (eng && (eng->flags & ENGINE_F_NOFILES)))
			continue;
		job_places(r->job, &places);
	}
	for (i = 0; i < places.n; i++) {
		for (j = 0; j < i && strcmp(places.v[i], places.v[j]); j++)
			;
		if (j < i)
			continue;
		place(sb, places.v[i]);
		any = true;
	}
	if (!any)
		strbuf_adds(sb, "<p>The jobs use no file (their engines move no bytes).</p>\n");
	str_list_clear(&places);
}
