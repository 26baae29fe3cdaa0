/* SPDX-License-Identifier: MIT */
/* Loop devices for the tests, through losetup(8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testloop.h"

bool testloop_attach(const char *backing, bool partscan, char *dev, size_t n)
{
	char cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "losetup -f --show %s'%s' 2>/dev/null", partscan ? "-P " : "",
		 backing);
	f = popen(cmd, "r");
	if (!f || !fgets(dev, (int)n, f)) {
		if (f)
			pclose(f);
		dev[0] = '\0';
		return false;
	}
	pclose(f);
	dev[strcspn(dev, "\n")] = '\0';
	return dev[0] != '\0';
}

void testloop_detach(char *dev)
{
	char cmd[128];

	if (!dev[0])
		return;
	snprintf(cmd, sizeof(cmd), "losetup -d '%s'", dev);
	if (system(cmd))
		fprintf(stderr, "could not detach %s\n", dev);
	dev[0] = '\0';
}
