/* SPDX-License-Identifier: MIT */
/*
 * --version and the recipe folder: both describe this build, from what
 * CMake wrote at configure time (build_info.h) and the engine table.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_info.h"
#include "engines/engine.h"
#include "version/version.h"

/* Part @what into the "with" or the "without" list, comma-separated. */
static void version_part(struct strbuf *with, struct strbuf *without, bool built, const char *what)
{
	struct strbuf *sb = built ? with : without;

	strbuf_adds(sb, sb->len ? ", " : " ");
	strbuf_adds(sb, what);
}

/* The optional libraries, each built in or not (CMake's tri-states). */
static void version_parts(struct strbuf *sb)
{
	struct strbuf with = { 0 }, without = { 0 };
	bool uring = false, aio = false, numa = false, mpi = false;

#ifdef IOGAUGE_HAVE_LIBURING
	uring = true;
#endif
#ifdef IOGAUGE_HAVE_LIBAIO
	aio = true;
#endif
#ifdef IOGAUGE_HAVE_LIBNUMA
	numa = true;
#endif
#ifdef IOGAUGE_HAVE_MPI
	mpi = true; /* IOGAUGE_WITH_MPI's build: ranks under mpirun */
#endif
	version_part(&with, &without, uring,
		     uring ? "liburing " IOGAUGE_LIBURING_VERSION " (io_uring)"
			   : "liburing (io_uring)");
	version_part(&with, &without, aio, "libaio (libaio)");
	version_part(&with, &without, numa, "libnuma (numa_cpu_nodes, numa_mem_policy)");
	version_part(&with, &without, mpi, "MPI (ranks under mpirun)");
	if (with.len)
		strbuf_addf(sb, "built with:%s\n", with.buf);
	if (without.len)
		strbuf_addf(sb, "built without:%s\n", without.buf);
	strbuf_free(&with);
	strbuf_free(&without);
}

void version_text(struct strbuf *sb)
{
	const struct engine_ops *e;
	unsigned i;

	strbuf_addf(sb, "iogauge %s\n", IOGAUGE_VERSION);
	strbuf_addf(sb, "commit: %s\n", IOGAUGE_GIT_DESCRIBE);
	strbuf_adds(sb, "engines:");
	for (i = 0; (e = engine_at(i)); i++)
		strbuf_addf(sb, " %s", e->name);
	strbuf_addc(sb, '\n');
	version_parts(sb);
	strbuf_addf(sb, "build type: %s\n", *IOGAUGE_BUILD_TYPE ? IOGAUGE_BUILD_TYPE : "none");
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

char *version_recipe_dir(char **cause)
{
	const char *env = getenv("IOGAUGE_RECIPES");
	char exe[PATH_MAX], *slash, *dir;
	ssize_t n;

	if (env && *env) {
		if (is_dir(env))
			return xstrdup(env);
		set_cause(cause, "IOGAUGE_RECIPES=%s: not a folder", env);
		return NULL;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		dir = xasprintf("%s/%s", exe, IOGAUGE_DATADIR_REL);
		if (is_dir(dir))
			return dir;
		free(dir);
		/* The build folder's binary reads the source tree's recipes. */
		if (!strcmp(exe, IOGAUGE_BINARY_DIR) && is_dir(IOGAUGE_SOURCE_DIR "/jobs"))
			return xstrdup(IOGAUGE_SOURCE_DIR "/jobs");
	}
	set_cause(cause,
		  "no recipe folder: none installed beside this binary (%s/%s); "
		  "IOGAUGE_RECIPES=DIR names one",
		  n > 0 ? exe : "?", IOGAUGE_DATADIR_REL);
	return NULL;
}
