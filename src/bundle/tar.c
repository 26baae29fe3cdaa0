/* SPDX-License-Identifier: MIT */
/*
 * The bundle's container: a POSIX ustar archive of regular files built in
 * memory, gzip'ed by zlib on the way to disk, and one member read back
 * (iogauge compare reads a bundle's report).  No folders, links or long
 * names: a bundle has none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bundle/bundle.h"

#define TAR_BLOCK 512

/* @v in octal, @w - 1 digits and a NUL, as ustar's numeric fields. */
static void tar_octal(char *field, size_t w, unsigned long long v)
{
	snprintf(field, w, "%0*llo", (int)(w - 1), v);
}

void bundle_tar_add(struct bundle_tar *t, const char *name, const void *p, size_t len)
{
	unsigned char h[TAR_BLOCK] = { 0 };
	unsigned sum = 0, i;
	static const char zeros[TAR_BLOCK];

	memcpy(h, name, strnlen(name, 99));
	tar_octal((char *)h + 100, 8, 0644);
	tar_octal((char *)h + 108, 8, 0);
	tar_octal((char *)h + 116, 8, 0);
	tar_octal((char *)h + 124, 12, len);
	tar_octal((char *)h + 136, 12, t->mtime);
	memset(h + 148, ' ', 8); /* the checksum counts its own field as spaces */
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
	strbuf_add(&t->data, (const char *)h, TAR_BLOCK);
	strbuf_add(&t->data, p, len);
	if (len % TAR_BLOCK)
		strbuf_add(&t->data, zeros, TAR_BLOCK - len % TAR_BLOCK);
}

int bundle_tar_write_gz(struct bundle_tar *t, const char *path, char **cause)
{
	static const char zeros[2 * TAR_BLOCK];
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	gzFile gz;
	int err = 0, zerr;
	size_t off, n;

	strbuf_add(&t->data, zeros, sizeof(zeros)); /* the end: two empty blocks */
	gz = gzopen(tmp, "wb9");
	if (!gz) {
		err = errno ? errno : ENOMEM;
		set_cause_errno(cause, err, "--bundle %s: %s", tmp, strerror(err));
		free(tmp);
		return -err;
	}
	for (off = 0; off < t->data.len && !err; off += n) {
		n = t->data.len - off < (1u << 20) ? t->data.len - off : (1u << 20);
		if (gzwrite(gz, t->data.buf + off, (unsigned)n) != (int)n) {
			const char *msg = gzerror(gz, &zerr);

			err = zerr == Z_ERRNO ? (errno ? errno : EIO) : EIO;
			set_cause_errno(cause, err, "--bundle %s: offset %zu, size %zu: %s", tmp,
					off, n, zerr == Z_ERRNO ? strerror(err) : msg);
		}
	}
	errno = 0;
	if (gzclose(gz) != Z_OK && !err) {
		err = errno ? errno : EIO;
		set_cause_errno(cause, err, "--bundle %s: %s", tmp, strerror(err));
	}
	if (!err && rename(tmp, path)) {
		err = errno;
		set_cause_errno(cause, err, "--bundle %s: %s", path, strerror(err));
	}
	if (err)
		unlink(tmp);
	free(tmp);
	return err ? -err : 0;
}

int bundle_tar_read_member(const char *path, const char *name, struct strbuf *out, char **cause)
{
	unsigned char h[TAR_BLOCK];
	gzFile gz = gzopen(path, "rb");
	unsigned long long size;
	char *buf, *end;
	int n, ret = -ENOENT;

	if (!gz)
		return set_cause_errno(cause, errno ? errno : ENOMEM, "%s: %s", path,
				       strerror(errno ? errno : ENOMEM));
	while ((n = gzread(gz, h, TAR_BLOCK)) == TAR_BLOCK && h[0]) {
		if (memcmp(h + 257, "ustar", 5)) {
			ret = set_cause(cause, "%s: not a bundle (no tar header)", path);
			break;
		}
		size = strtoull((const char *)h + 124, &end, 8);
		if (end == (const char *)h + 124 || size > (1ull << 30)) {
			ret = set_cause(cause, "%s: a tar header with a bad size", path);
			break;
		}
		buf = xmalloc(size + TAR_BLOCK);
		n = gzread(gz, buf, (unsigned)((size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK));
		if (n < 0 || (unsigned long long)n < size) {
			free(buf);
			ret = set_cause(cause, "%s: cut short", path);
			break;
		}
		if (!strncmp((const char *)h, name, 100)) {
			strbuf_add(out, buf, size);
			free(buf);
			ret = 0;
			break;
		}
		free(buf);
	}
	if (ret == -ENOENT && n >= 0 && n != TAR_BLOCK && n != 0)
		ret = set_cause(cause, "%s: not a bundle (not a tar.gz)", path);
	else if (ret == -ENOENT)
		set_cause_errno(cause, ENOENT, "%s: the bundle has no %s", path, name);
	gzclose(gz);
	return ret;
}
