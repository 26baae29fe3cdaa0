/* SPDX-License-Identifier: MIT */
/* lockfile's locks (see filelock.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "files/filelock.h"
#include "util/util.h"

int filelocks_init(struct filelocks *s, unsigned cap, char **cause)
{
	memset(s, 0, sizeof(*s));
	if (!cap)
		return 0;
	/* Shared: clones in processes take the same locks. */
	s->v = mmap(NULL, cap * sizeof(*s->v), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (s->v == MAP_FAILED) {
		s->v = NULL;
		return set_cause_errno(cause, errno, "lockfile: cannot map %u locks: %s", cap,
				       strerror(errno));
	}
	s->paths = xcalloc(cap, sizeof(*s->paths));
	s->cap = cap;
	return 0;
}

struct files_lock *filelocks_get(struct filelocks *s, const char *path)
{
	pthread_mutexattr_t ma;
	pthread_rwlockattr_t ra;
	struct files_lock *l;
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->paths[i], path))
			return &s->v[i];
	if (s->n == s->cap)
		return NULL;
	l = &s->v[s->n];
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&l->mu, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setpshared(&ra, PTHREAD_PROCESS_SHARED);
	pthread_rwlock_init(&l->rw, &ra);
	pthread_rwlockattr_destroy(&ra);
	s->paths[s->n++] = xstrdup(path);
	return l;
}

void filelocks_free(struct filelocks *s)
{
	unsigned i;

	for (i = 0; i < s->n; i++) {
		pthread_mutex_destroy(&s->v[i].mu);
		pthread_rwlock_destroy(&s->v[i].rw);
		free(s->paths[i]);
	}
	if (s->v)
		munmap(s->v, s->cap * sizeof(*s->v));
	free(s->paths);
	memset(s, 0, sizeof(*s));
}
