/* SPDX-License-Identifier: MIT */
/*
 * iogauge crash's writer, run in a child the parent kills.  Not the run's
 * worker loop: the kill must find each write either acknowledged or not,
 * with the acknowledgement on its way to the witness the moment the mode
 * calls the write done (after pwrite, after the sync that covers it, or
 * when it enters the user-space buffer), and one write at a time, in
 * order, is what makes that moment exact.  The loop allocates nothing and
 * takes no lock; it stops only on an error or its death.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "crash/crash.h"
#include "crash/wire.h"
#include "util/runclock.h"
#include "verify/verify.h"
#include "workload/rand.h"

/* The most acknowledgements in one pipe write: at most PIPE_BUF bytes, so
 * that each write reaches the witness whole or not at all. */
#define ACKS_PER_SEND (4096 / sizeof(struct crash_ack))
/* The longest a remote witness may take to take the connection, or to
 * take or answer a line (s): a silent one stops the writer, named. */
#define WITNESS_TIMEOUT_S 5
/* Writes a window holds at most: a longer one is closed early. */
#define WINDOW_CAP 65536

struct pending {
	uint64_t off, gen;
	uint64_t t0; /* ns: when its write started */
};

struct writer {
	const struct crash_mode *m;
	struct crash_figures *fig;
	struct crash_hists *hists;
	int fd, ack_fd;
	bool remote; /* ack_fd is a remote witness's socket: lines, answered */
	struct crash_ack out[ACKS_PER_SEND];
	unsigned nr_out;
	char txt[ACKS_PER_SEND * 44 + 24]; /* a batch's lines, for a remote witness */
};

static int fail(struct writer *w, const char *what, int err, uint64_t off, uint64_t len)
{
	w->fig->err = err;
	snprintf(w->fig->what, sizeof(w->fig->what), "%s", what);
	w->fig->err_off = off;
	w->fig->err_len = len;
	return -err;
}

static void note(uint64_t ns, uint64_t *sum, uint64_t *max)
{
	*sum += ns;
	if (ns > *max)
		*max = ns;
}

/* One line from the remote witness into @buf (@cap bytes, without its
 * newline): 0, or -errno (-ECONNRESET: it hung up; -ETIMEDOUT: it said
 * nothing for WITNESS_TIMEOUT_S). */
static int read_line(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t got;

	while (n + 1 < cap) {
		got = read(fd, buf + n, 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return -ETIMEDOUT; /* SO_RCVTIMEO */
		if (got <= 0)
			return got < 0 ? -errno : -ECONNRESET;
		if (buf[n] == '\n') {
			buf[n] = '\0';
			return 0;
		}
		n++;
	}
	return -EPROTO;
}

/* The batch as lines, then "s N"; the witness answers "k N" once its log
 * holds them, synced. */
static int send_remote(struct writer *w)
{
	char want[24], got[WIRE_LINE_MAX];
	size_t n = 0, k;
	unsigned i;
	int ret;

	for (i = 0; i < w->nr_out; i++)
		n += wire_format_ack(w->txt + n, w->out[i].off, w->out[i].gen);
	n += wire_format_count(w->txt + n, 's', w->nr_out);
	k = wire_format_count(want, 'k', w->nr_out);
	want[k - 1] = '\0';
	ret = util_write_all(w->ack_fd, w->txt, n);
	if (ret == -EAGAIN)
		ret = -ETIMEDOUT; /* SO_SNDTIMEO */
	if (!ret)
		ret = read_line(w->ack_fd, got, sizeof(got));
	if (!ret && strcmp(got, want)) {
		snprintf(w->fig->note, sizeof(w->fig->note), "%.150s", got);
		ret = -EPROTO;
	}
	return ret;
}

/* Sends the acknowledgements gathered: each reaches the witness before
 * the writer goes on. */
static int send_acks(struct writer *w)
{
	size_t len = w->nr_out * sizeof(struct crash_ack);
	int ret = w->remote ? send_remote(w) : util_write_all(w->ack_fd, w->out, len);

	w->nr_out = 0;
	return ret ? fail(w, w->remote ? "witness" : "ack pipe", -ret, 0, 0) : 0;
}

/* connect(2), given up after WITNESS_TIMEOUT_S: a host that drops the
 * connection must not hold the writer until its kill.  0 or -errno. */
static int connect_within(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct pollfd pf = { .fd = fd, .events = POLLOUT };
	int flags = fcntl(fd, F_GETFL), err = 0, n;
	socklen_t el = sizeof(err);

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK))
		return -errno;
	if (connect(fd, sa, len) && errno != EINPROGRESS)
		return -errno;
	do
		n = poll(&pf, 1, WITNESS_TIMEOUT_S * 1000);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		return -ETIMEDOUT;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el))
		return -errno;
	if (err)
		return -err;
	return fcntl(fd, F_SETFL, flags) ? -errno : 0;
}

/* Connects to the remote witness and says hello: the socket, or -errno
 * (the witness's refusal in fig->note); *gen0: the generation to go on
 * from, as the witness said. */
static int remote_connect(struct writer *w, uint64_t run_id, uint64_t *gen0)
{
	const struct crash_mode *m = w->m;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV }, *ai, *a;
	struct wire_hello h;
	char line[WIRE_LINE_MAX];
	struct timeval tv = { .tv_sec = WITNESS_TIMEOUT_S };
	size_t n;
	int fd = -1, one = 1, ret;

	ret = getaddrinfo(m->witness_host, m->witness_port, &hints, &ai);
	if (ret) {
		snprintf(w->fig->note, sizeof(w->fig->note), "%s", gai_strerror(ret));
		return fail(w, "witness", EHOSTUNREACH, 0, 0);
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		ret = -connect_within(fd, a->ai_addr, a->ai_addrlen);
		if (!ret)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		return fail(w, "witness", ret ? ret : ECONNREFUSED, 0, 0);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	/* A witness that stops reading or answering fails the writer. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	crash_mode_hello(m, run_id, &h);
	n = wire_format_hello(&h, line, sizeof(line));
	ret = n ? util_write_all(fd, line, n) : -EINVAL;
	if (ret == -EAGAIN)
		ret = -ETIMEDOUT; /* SO_SNDTIMEO */
	if (!ret)
		ret = read_line(fd, line, sizeof(line));
	if (!ret && (strncmp(line, "ok ", 3) || !(*gen0 = strtoull(line + 3, NULL, 10)))) {
		snprintf(w->fig->note, sizeof(w->fig->note), "%.150s", line);
		ret = -ECONNREFUSED;
	}
	if (ret) {
		close(fd);
		return fail(w, "witness", -ret, 0, 0);
	}
	return fd;
}

static int ack(struct writer *w, uint64_t off, uint64_t gen, uint64_t t0, uint64_t now)
{
	w->out[w->nr_out].off = off;
	w->out[w->nr_out].gen = gen;
	w->nr_out++;
	w->fig->acks++;
	note(now - t0, &w->fig->ack_wait_ns, &w->fig->ack_wait_max_ns);
	hist_record(&w->hists->wait, now - t0);
	w->fig->t_end = now;
	return w->nr_out == ACKS_PER_SEND ? send_acks(w) : 0;
}

static int write_at(struct writer *w, const void *p, uint64_t len, uint64_t off)
{
	uint64_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pwrite(w->fd, (const char *)p + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail(w, "pwrite", n < 0 ? errno : ENOSPC, off + done, len - done);
		done += (uint64_t)n;
	}
	return 0;
}

static int sync_file(struct writer *w)
{
	uint64_t t0 = run_now();
	int ret = w->m->datasync ? fdatasync(w->fd) : fsync(w->fd);

	if (ret)
		return fail(w, w->m->datasync ? "fdatasync" : "fsync", errno, 0, 0);
	uint64_t ns = run_now() - t0;

	w->fig->syncs++;
	note(ns, &w->fig->sync_ns, &w->fig->sync_max_ns);
	hist_record(&w->hists->sync, ns);
	return 0;
}

/* splitmix64: the workload's mixer over a counter stepped by its gamma. */
static uint64_t next_rand(uint64_t *s)
{
	return rng_mix(*s += 0x9e3779b97f4a7c15ull);
}

/* The loop: each write's block, then what the mode does before the ack. */
static int write_loop(struct writer *w, struct job *stamp, uint8_t *buf, uint8_t *ubuf,
		      struct pending *pend, unsigned cap, uint64_t run_id, uint64_t gen)
{
	const struct crash_mode *m = w->m;
	uint64_t nblocks = m->size / m->bs, blk = 0, rng = m->job->randseed;
	uint64_t ufill = 0, uoff = 0, off, t0, t1;
	unsigned n = 0, i;
	int ret;

	for (;;) {
		off = (m->random ? next_rand(&rng) % nblocks : blk++ % nblocks) * m->bs;
		gen++;
		verify_stamp(stamp, buf, m->bs, off, run_id << CRASH_GEN_BITS | gen);
		t0 = run_now();
		if (ubuf) {
			/* A runtime's file object: written out when the next
			 * block does not follow on or fit. */
			if (ufill && (off != uoff + ufill || ufill + m->bs > m->ack_buffer)) {
				ret = write_at(w, ubuf, ufill, uoff);
				if (ret)
					return ret;
				ufill = 0;
			}
			if (!ufill)
				uoff = off;
			memcpy(ubuf + ufill, buf, m->bs);
			ufill += m->bs;
			w->fig->writes++;
			t1 = run_now();
			note(t1 - t0, &w->fig->write_ns, &w->fig->write_max_ns);
			ret = ack(w, off, gen, t0, t1);
			if (!ret)
				ret = send_acks(w);
			if (ret)
				return ret;
			continue;
		}
		ret = write_at(w, buf, m->bs, off);
		if (ret)
			return ret;
		w->fig->writes++;
		t1 = run_now();
		note(t1 - t0, &w->fig->write_ns, &w->fig->write_max_ns);
		if (!pend) {
			ret = ack(w, off, gen, t0, t1);
			if (!ret)
				ret = send_acks(w);
			if (ret)
				return ret;
			continue;
		}
		pend[n].off = off;
		pend[n].gen = gen;
		pend[n].t0 = t0;
		n++;
		if (m->sync_every ? n < m->sync_every : n < cap && t1 - pend[0].t0 < m->window)
			continue;
		ret = sync_file(w);
		t1 = run_now();
		for (i = 0; i < n && !ret; i++)
			ret = ack(w, pend[i].off, pend[i].gen, pend[i].t0, t1);
		if (!ret)
			ret = send_acks(w);
		if (ret)
			return ret;
		n = 0;
	}
}

int crash_writer(const struct crash_mode *m, uint64_t run_id, uint64_t gen0, int ack_fd,
		 struct crash_figures *fig, struct crash_hists *hists)
{
	struct writer w = { .m = m, .fig = fig, .hists = hists, .fd = -1, .ack_fd = ack_fd };
	unsigned cap = m->sync_every ? m->sync_every : m->window ? WINDOW_CAP : 0;
	struct job *stamp = xcalloc(1, sizeof(*stamp));
	struct pending *pend = cap ? xcalloc(cap, sizeof(*pend)) : NULL;
	void *buf = NULL, *ubuf = NULL;
	int ret;

	stamp->verify = m->verify;
	if (posix_memalign(&buf, 4096, m->bs) ||
	    (m->ack_buffer && posix_memalign(&ubuf, 4096, m->ack_buffer))) {
		ret = fail(&w, "malloc", ENOMEM, 0, m->ack_buffer ? m->ack_buffer : m->bs);
		goto out;
	}
	if (m->witness_host) {
		uint64_t next = 0;

		ret = remote_connect(&w, run_id, &next);
		if (next > gen0)
			gen0 = next; /* past every generation the run sent before */
		if (ret < 0)
			goto out;
		w.ack_fd = ret;
		w.remote = true;
		fig->witnessed = true;
	}
	w.fd = open(m->path, O_WRONLY | O_CREAT | O_CLOEXEC | m->oflags, 0644);
	if (w.fd < 0) {
		ret = fail(&w, "open", errno, 0, 0);
		goto out;
	}
	fig->t_start = run_now();
	ret = write_loop(&w, stamp, buf, ubuf, pend, cap, run_id, gen0);
out:
	if (w.fd >= 0)
		close(w.fd);
	if (w.remote)
		close(w.ack_fd);
	free(buf);
	free(ubuf);
	free(pend);
	free(stamp);
	return ret;
}
