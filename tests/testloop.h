/* SPDX-License-Identifier: MIT */
/* Loop devices for the tests that need a real block device (root only). */
#ifndef IOGAUGE_TESTLOOP_H
#define IOGAUGE_TESTLOOP_H

#include <stdbool.h>
#include <stddef.h>

/* Attaches @backing to a free loop device (with @partscan, losetup -P)
 * and puts its path in @dev; false, with @dev empty, when losetup
 * cannot. */
bool testloop_attach(const char *backing, bool partscan, char *dev, size_t n);
/* Detaches @dev when it names one, and empties it. */
void testloop_detach(char *dev);

#endif
