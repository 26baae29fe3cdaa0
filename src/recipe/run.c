/* SPDX-License-Identifier: MIT */
/*
 * iogauge recipe NAME [flags...]: runs a recipe by name, as iogauge would
 * run its file, with --summary, in a folder of its own made under the
 * current folder (or under --set directory=DIR), on the filesystem to be
 * measured, and removed with everything the run left in it.  With --set
 * filename=, the recipe runs on what the user named and no folder is made.
 * Before the run, whether that filesystem takes O_DIRECT is tried: a
 * recipe with "fallback: buffered" then runs buffered, and says so.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "recipe/recipe.h"
#include "version/version.h"

static const char usage[] =
	"usage: iogauge recipe NAME [iogauge flags...] [--set KEY=VALUE...]\n"
	"\n"
	"Runs recipe NAME (iogauge recipes lists them) in a folder it makes under the\n"
	"current one and removes at the end; --set directory=DIR makes it under DIR,\n"
	"--set filename=FILE_OR_DEVICE runs on that instead.  The report ends with a\n"
	"one-line summary.  See iogauge-recipe(1).\n";

/* statfs's f_type of the filesystems people measure on, for the notes. */
static const char *fs_name(long type)
{
	static const struct {
		long magic;
		const char *name;
	} fs[] = {
		{ 0xEF53, "ext4" },	 { 0x58465342, "xfs" },	      { 0x9123683E, "btrfs" },
		{ 0x01021994, "tmpfs" }, { 0x794c7630, "overlayfs" }, { 0x6969, "nfs" },
		{ 0x2fc12fc1, "zfs" },	 { 0xF2F52010, "f2fs" },      { 0x4d44, "vfat" },
		{ 0x65735546, "fuse" },	 { 0xFF534D42, "cifs" },      { 0x858458f6, "ramfs" },
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(fs); i++)
		if (fs[i].magic == type)
			return fs[i].name;
	return "this filesystem";
}

/* Whether @dir's filesystem takes O_DIRECT: 1 yes, 0 refused (EINVAL),
 * -errno when the probe file cannot be made at all. */
static int direct_probe(const char *dir)
{
	char *path = xasprintf("%s/.iogauge-direct-probe", dir);
	int fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_DIRECT, 0600), err = errno;

	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	free(path);
	if (fd >= 0)
		return 1;
	return err == EINVAL ? 0 : -err;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* The value of "--set KEY=..." at argv[i] (or "--set=KEY=...", or for
 * directory the command-line default "--directory=..."), or NULL; *@words:
 * how many words it took. */
static const char *set_value(int argc, char **argv, int i, const char *key, int *words)
{
	const char *a = argv[i];
	size_t n = strlen(key);

	*words = 1;
	if (!strncmp(a, "--set=", 6))
		a += 6;
	else if (!strcmp(a, "--set") && i + 1 < argc)
		a = argv[i + 1], *words = 2;
	else if (!strncmp(a, "--", 2) && !strcmp(key, "directory"))
		a += 2; /* a job file's filename= beats --filename=, not a --set */
	else
		return NULL;
	return !strncmp(a, key, n) && a[n] == '=' ? a + n + 1 : NULL;
}

/* The words added to the command line (argv's strings are writable). */
static char arg0[] = "iogauge", arg_summary[] = "--summary", arg_crash[] = "crash",
	    arg_set[] = "--set", arg_direct0[] = "direct=0";

static bool dry_flag(const char *a)
{
	return !strcmp(a, "--parse-only") || !strcmp(a, "--showcmd") || !strcmp(a, "--help") ||
	       !strncmp(a, "--cmdhelp", 9) || !strcmp(a, "--help-options");
}

int recipe_main(int argc, char **argv, int (*run)(int argc, char **argv))
{
	const char *base = ".", *v;
	char *dir, *cause = NULL, *path = NULL, *tmp = NULL, *dir_set = NULL;
	char **args = xcalloc((size_t)argc + 8, sizeof(*args));
	bool own_file = false, dry = false, user_direct = false;
	struct recipe r = { 0 };
	struct statfs sfs;
	int i, k, words, nargs = 0, status, probe = 1, dir_at = -1, dir_words = 0;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		free(args);
		return argc < 2 ? 2 : 0;
	}
	dir = version_recipe_dir(&cause);
	path = dir ? xasprintf("%s/%s.ini", dir, argv[1]) : NULL;
	if (!dir ||
	    (access(path, R_OK) && (cause = xasprintf("no recipe '%s' in %s (iogauge "
						      "recipes lists them)",
						      argv[1], dir))) ||
	    recipe_read(path, argv[1], &r, &cause)) {
		fprintf(stderr, "iogauge recipe: %s\n", cause);
		status = 2;
		goto out;
	}
	args[nargs++] = arg0;
	if (r.field[RECIPE_COMMAND])
		args[nargs++] = arg_crash; /* its own report: no --summary */
	else
		args[nargs++] = arg_summary;
	for (i = 2; i < argc; i += words) {
		words = 1;
		dry |= dry_flag(argv[i]);
		if (set_value(argc, argv, i, "filename", &words))
			own_file = true;
		if (set_value(argc, argv, i, "direct", &words) ||
		    set_value(argc, argv, i, "buffered", &words))
			user_direct = true;
		if ((v = set_value(argc, argv, i, "directory", &words))) {
			base = v;
			dir_at = i;
			dir_words = words;
			continue; /* its folder of its own is made under it */
		}
		for (k = 0; k < words; k++)
			args[nargs++] = argv[i + k];
	}
	/* With filename= no folder is made: directory= is the job's own. */
	for (k = 0; (own_file || dry) && dir_at >= 0 && k < dir_words; k++)
		args[nargs++] = argv[dir_at + k];
	if (!dry && !own_file) {
		tmp = xasprintf("%s/iogauge-recipe-XXXXXX", base);
		if (!mkdtemp(tmp)) {
			int err = errno;

			fprintf(stderr, "iogauge recipe: %s: cannot make a folder there (%s)%s\n",
				base, strerror(err),
				strcmp(base, ".") ? " (--set directory=)" : "");
			free(tmp);
			tmp = NULL;
			status = err == ENOENT || err == ENOTDIR || err == EACCES ? 2 : 1;
			goto out;
		}
		probe = direct_probe(tmp);
		fprintf(stderr, "iogauge recipe: %s: its files go in %s (%s), removed at the end\n",
			argv[1], tmp, statfs(tmp, &sfs) ? "?" : fs_name((long)sfs.f_type));
		if (!probe && r.field[RECIPE_FALLBACK] && !user_direct) {
			fprintf(stderr,
				"iogauge recipe: %s: %s refuses O_DIRECT, so this runs buffered: "
				"the page cache (memory) serves part of it, not the storage alone; "
				"--set directory=DIR on a disk's filesystem measures the disk\n",
				argv[1],
				statfs(tmp, &sfs) ? "the filesystem" : fs_name((long)sfs.f_type));
			args[nargs++] = arg_set;
			args[nargs++] = arg_direct0;
		} else if (!probe) {
			fprintf(stderr,
				"iogauge recipe: %s: %s refuses O_DIRECT: a job with direct=1 fails "
				"here (--set direct=0 runs it buffered)\n",
				argv[1],
				statfs(tmp, &sfs) ? "the filesystem" : fs_name((long)sfs.f_type));
		} else if (!r.field[RECIPE_FALLBACK] || user_direct) {
			/* nothing to say: the recipe runs as written */
		} else {
			fprintf(stderr,
				"iogauge recipe: %s: direct I/O (O_DIRECT): the storage, "
				"not the page cache\n",
				argv[1]);
		}
		dir_set = xasprintf("directory=%s", tmp);
		args[nargs++] = arg_set;
		args[nargs++] = dir_set;
	}
	args[nargs++] = path;
	args[nargs] = NULL;
	fflush(stderr);
	status = run(nargs, args);
	if (tmp && nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS)) {
		fprintf(stderr, "iogauge recipe: %s: not removed whole: %s\n", tmp,
			strerror(errno));
		if (!status)
			status = 1;
	}
out:
	recipe_free(&r);
	free(cause);
	free(dir);
	free(path);
	free(tmp);
	free(dir_set);
	free(args);
	return status;
}
