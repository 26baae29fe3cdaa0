/* SPDX-License-Identifier: MIT */
/* The HTML report's machine facts: uname, /proc/cpuinfo, /proc/meminfo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "report/html/html.h"

/* The value of the first "@key<spaces>: value" line of @path, or NULL. */
static char *proc_field(const char *path, const char *key)
{
	size_t klen = strlen(key);
	char line[512], *v = NULL, *p;
	FILE *f = fopen(path, "r");

	while (f && !v && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) ||
		    (line[klen] != ':' && line[klen] != ' ' && line[klen] != '\t'))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = '\0';
		v = xstrdup(p);
	}
	if (f)
		fclose(f);
	return v;
}

void html_host(struct strbuf *sb)
{
	struct utsname u;
	char *cpu = proc_field("/proc/cpuinfo", "model name"), *mem, *s;
	long online = sysconf(_SC_NPROCESSORS_ONLN), conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long long kib = 0;
	bool named = !uname(&u);

	/* Not every architecture says "model name" (arm64: none). */
	if (!cpu)
		cpu = proc_field("/proc/cpuinfo", "Model");
	mem = proc_field("/proc/meminfo", "MemTotal");
	if (mem)
		kib = strtoull(mem, NULL, 10);
	strbuf_adds(sb, "<div class=\"scroll\"><table class=\"kv\" id=\"host-table\">\n");
	html_kv(sb, "host", named ? u.nodename : NULL);
	html_kv(sb, "CPU", cpu);
	s = online == conf ? xasprintf("%ld", online)
			   : xasprintf("%ld online of %ld", online, conf);
	html_kv(sb, "CPUs", s);
	free(s);
	s = kib ? xasprintf("%.1f GiB (%llu KiB)", (double)kib / 1048576.0, kib) : NULL;
	html_kv(sb, "memory", s);
	free(s);
	s = named ? xasprintf("%s %s %s (%s)", u.sysname, u.release, u.version, u.machine) : NULL;
	html_kv(sb, "kernel", s);
	free(s);
	strbuf_adds(sb, "</table></div>\n");
	free(cpu);
	free(mem);
}
