/* SPDX-License-Identifier: MIT */
/*
 * The bundle's machine description: CPU, memory, kernel, and for each
 * place the jobs' files are, its filesystem, mount options and the block
 * device under it (model, firmware, scheduler, rotational, size), read
 * from /proc and /sys.  "key: value" lines; "unknown" where the system
 * does not say.  Reads no file under test.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bundle/bundle.h"
#include "jobfile/job.h"

/* The first line of @path, trimmed, or "unknown". */
static void first_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t len;

	if (!f || !fgets(buf, (int)n, f))
		snprintf(buf, n, "unknown");
	buf[strcspn(buf, "\n")] = '\0';
	for (len = strlen(buf); len && buf[len - 1] == ' '; len--)
		buf[len - 1] = '\0';
	if (f)
		fclose(f);
	if (!buf[0])
		snprintf(buf, n, "unknown");
}

/* The value of the first "@key<tabs>: value" line of a /proc file. */
static void proc_value(const char *path, const char *key, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t k = strlen(key);

	snprintf(buf, n, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, k) || !strchr(line + k, ':'))
			continue;
		if (line[k] != ' ' && line[k] != '\t' && line[k] != ':')
			continue;
		snprintf(buf, n, "%s",
			 strchr(line + k, ':') + 1 + strspn(strchr(line + k, ':') + 1, " \t"));
		buf[strcspn(buf, "\n")] = '\0';
		break;
	}
	if (f)
		fclose(f);
}

/* The mount whose device is @dev (mountinfo's major:minor): mount point,
 * filesystem type, source and options. */
static void mount_of(dev_t dev, struct strbuf *sb)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], want[32], *f4, *f5, *f6, *sep, *type, *src, *super, *save;
	bool found = false;

	snprintf(want, sizeof(want), "%u:%u", major(dev), minor(dev));
	while (f && !found && fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint options [optional...] - type source super */
		save = NULL;
		if (!strtok_r(line, " ", &save) || !strtok_r(NULL, " ", &save))
			continue;
		f4 = strtok_r(NULL, " ", &save);
		if (!f4 || strcmp(f4, want) || !strtok_r(NULL, " ", &save))
			continue;
		f5 = strtok_r(NULL, " ", &save);
		f6 = strtok_r(NULL, " ", &save);
		while ((sep = strtok_r(NULL, " ", &save)) && strcmp(sep, "-"))
			;
		type = strtok_r(NULL, " ", &save);
		src = strtok_r(NULL, " ", &save);
		super = strtok_r(NULL, " \n", &save);
		if (!f5 || !f6 || !type || !src)
			continue;
		strbuf_addf(sb, "  mount point: %s\n  filesystem: %s\n  source: %s\n", f5, type,
			    src);
		strbuf_addf(sb, "  mount options: %s%s%s\n", f6, super ? "," : "",
			    super ? super : "");
		found = true;
	}
	if (f)
		fclose(f);
	if (!found)
		strbuf_addf(sb, "  filesystem: unknown (no mount of device %s)\n", want);
}

/* Attribute @attr of the /sys folder @dir (its first line), or "unknown". */
static void sys_attr(const char *dir, const char *attr, char *v, size_t n)
{
	char *path = xasprintf("%s/%s", dir, attr);

	first_line(path, v, n);
	free(path);
}

/* The block device @dev (its whole disk for a partition) as /sys tells it. */
static void block_of(dev_t dev, struct strbuf *sb)
{
	char path[64], disk[PATH_MAX], v[256], *part;
	struct stat st;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(path, disk)) {
		strbuf_addf(sb, "  block device: none (%u:%u)\n", major(dev), minor(dev));
		return;
	}
	part = xasprintf("%s/partition", disk);
	if (!stat(part, &st) && strrchr(disk, '/'))
		*strrchr(disk, '/') = '\0';
	free(part);
	strbuf_addf(sb, "  block device: %s\n", strrchr(disk, '/') ? strrchr(disk, '/') + 1 : disk);
	sys_attr(disk, "device/model", v, sizeof(v));
	strbuf_addf(sb, "  model: %s\n", v);
	sys_attr(disk, "device/firmware_rev", v, sizeof(v));
	if (!strcmp(v, "unknown"))
		sys_attr(disk, "device/rev", v, sizeof(v));
	strbuf_addf(sb, "  firmware: %s\n", v);
	sys_attr(disk, "queue/scheduler", v, sizeof(v));
	strbuf_addf(sb, "  scheduler: %s\n", v);
	sys_attr(disk, "queue/rotational", v, sizeof(v));
	strbuf_addf(sb, "  rotational: %s\n", v);
	sys_attr(disk, "size", v, sizeof(v));
	strbuf_addf(sb, "  size (512-byte sectors): %s\n", v);
}

/* One place a job's files are: a block device, a file, or (the file is
 * gone: unlink=1) the folder it was in. */
static void target(const char *path, struct strbuf *sb)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct stat st;
	bool file = !stat(path, &st);

	if (!file) {
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		else
			strcpy(dir, ".");
	}
	strbuf_addf(sb, "target: %s\n", path);
	if (!file && stat(dir, &st)) {
		strbuf_addf(sb, "  unknown: neither it nor its folder %s is there\n", dir);
	} else if (S_ISBLK(st.st_mode)) {
		strbuf_adds(sb, "  kind: block device\n");
		block_of(st.st_rdev, sb);
	} else {
		strbuf_addf(sb, "  kind: %s\n",
			    !file		  ? "file (removed; its folder's)"
			    : S_ISDIR(st.st_mode) ? "folder"
			    : S_ISCHR(st.st_mode) ? "character device"
						  : "file");
		mount_of(st.st_dev, sb);
		block_of(st.st_dev, sb);
	}
	free(dir);
}

void bundle_machine(const struct job *const *jobs, unsigned nr, struct strbuf *sb)
{
	struct str_list seen = { 0 };
	struct utsname u;
	char v[256];
	unsigned i, k, j;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char cwd[PATH_MAX];

	proc_value("/proc/cpuinfo", "model name", v, sizeof(v));
	strbuf_addf(sb, "cpu: %s\ncpus online: %ld\n", v, cpus);
	proc_value("/proc/meminfo", "MemTotal", v, sizeof(v));
	strbuf_addf(sb, "memory: %s\n", v);
	if (!uname(&u))
		strbuf_addf(sb, "kernel: %s %s %s\nhost: %s\n", u.sysname, u.release, u.machine,
			    u.nodename);
	first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", v,
		   sizeof(v));
	strbuf_addf(sb, "clocksource: %s\n", v);
	strbuf_addf(sb, "folder: %s\n", getcwd(cwd, sizeof(cwd)) ? cwd : "unknown");
	for (i = 0; i < nr; i++) {
		const struct job *jb = jobs[i];
		const char *dir = jb->directory.n ? jb->directory.v[0] : NULL;

		for (k = 0; k < jb->filename.n; k++) {
			const char *f = jb->filename.v[k];
			char *path = f[0] == '/' || !dir ? xstrdup(f) : xasprintf("%s/%s", dir, f);

			for (j = 0; j < seen.n && strcmp(seen.v[j], path); j++)
				;
			if (j < seen.n) {
				free(path);
				continue;
			}
			target(path, sb);
			str_list_push(&seen, path);
		}
		if (!jb->filename.n) {
			/* filename_format's names: the folder they go in. */
			char *path = xstrdup(dir ? dir : ".");

			for (j = 0; j < seen.n && strcmp(seen.v[j], path); j++)
				;
			if (j == seen.n) {
				target(path, sb);
				str_list_push(&seen, path);
			} else {
				free(path);
			}
		}
	}
	str_list_clear(&seen);
}
