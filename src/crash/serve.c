/* SPDX-License-Identifier: MIT */
/*
 * iogauge witness: the remote witness, for a power cut of the machine
 * under test.  It listens where --listen says (nowhere else), takes one
 * writer at a time, accepts only the run it was started for, and answers
 * each batch of acknowledgements once its log holds them, synced; the
 * log is the one iogauge crash --check reads.  A peer that sends anything
 * else gets "no REASON" and is hung up on; the witness goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "crash/crash.h"
#include "crash/wire.h"
#include "util/runclock.h"

/* A peer that says nothing for this long is hung up on (ns). */
#define IDLE_NS (30ull * 1000000000ull)
/* A writer says hello as it connects; one peer is served at a time, so a
 * silent or trickling one must not hold the next writer for IDLE_NS. */
#define HELLO_NS (2ull * 1000000000ull)

static const char usage[] =
	"usage: iogauge witness --listen=ADDR:PORT --run=RUN --log=LOG\n"
	"\n"
	"Records the acknowledgements of an iogauge crash writer on another machine\n"
	"(its job's witness=HOST:PORT/RUN) into LOG, synced before each answer, for\n"
	"iogauge crash --check --witness=LOG after that machine's power was cut.\n"
	"  --listen=ADDR:PORT  the address and port to listen on (a numeric address;\n"
	"                      port 0: any free one, printed)\n"
	"  --run=RUN           the run id (1 to 6 hex digits) it accepts\n"
	"  --log=LOG           the log to write (created; a log of the same run is\n"
	"                      gone on with, another emptied)\n"
	"Stops on SIGINT or SIGTERM.  See iogauge-crash(1).\n";

static atomic_int stop;

static void on_signal(int sig)
{
	stop = sig;
}

struct peer {
	int fd;
	char rx[WIRE_LINE_MAX];
	size_t have;
	char name[96];
};

/* The next line from @p (its newline cut): 1, 0 at its end, -EPROTO for a
 * line too long, -ETIMEDOUT when it takes over @wait_ns or a stop came. */
static int next_line(struct peer *p, char **line, uint64_t wait_ns)
{
	uint64_t idle_from = run_now();
	struct pollfd pf = { .fd = p->fd, .events = POLLIN };
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(p->rx, '\n', p->have);
		if (nl) {
			*nl = '\0';
			*line = p->rx;
			return 1;
		}
		if (p->have == sizeof(p->rx))
			return -EPROTO;
		if (stop || run_now() - idle_from > wait_ns)
			return -ETIMEDOUT;
		if (poll(&pf, 1, 200) <= 0)
			continue;
		n = read(p->fd, p->rx + p->have, sizeof(p->rx) - p->have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		p->have += (size_t)n;
	}
}

/* Drops the line @next_line gave: the bytes after it move up. */
static void line_done(struct peer *p, const char *line)
{
	size_t used = strlen(line) + 1;

	memmove(p->rx, p->rx + used, p->have - used);
	p->have -= used;
}

static void say(struct peer *p, const char *text)
{
	(void)util_write_all(p->fd, text, strlen(text));
}

static void refuse(struct peer *p, const char *why)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "no %s\n", why);
	say(p, buf);
	fprintf(stderr, "iogauge witness: %s: refused: %s\n", p->name, why);
}

struct witness {
	uint64_t run;
	const char *log_path;
	struct crash_log log;
	bool open;
	struct wire_hello first; /* the run's file, bs, size, verify */
	unsigned rounds;
	/* past every generation a writer of the run may have stamped: the
	 * highest sent, or handed out as a start, its log's included */
	uint64_t max_gen;
};

/* One writer, from its hello to its end.  0, or -errno when the log
 * cannot be written (the witness stops: it cannot keep its word). */
static int serve_peer(struct witness *w, struct peer *p)
{
	struct wire_hello h;
	const char *why = NULL;
	uint64_t a, b, pending = 0, total = 0;
	size_t mark;
	char *line, *cause = NULL, reply[48];
	int ret;

	ret = next_line(p, &line, HELLO_NS);
	if (ret <= 0) {
		refuse(p, ret < 0 ? "no hello (a line too long, or silence)" : "no hello");
		return 0;
	}
	if (wire_parse_hello(line, &h, &why)) {
		refuse(p, why);
		return 0;
	}
	line_done(p, line);
	if (h.run != w->run) {
		refuse(p, "another run than the one this witness was started for");
		return 0;
	}
	/* A log of a region the checker refuses would be useless after the cut. */
	if (!crash_region_checkable(h.bs, h.size, h.verify)) {
		refuse(p, "a bs, size or verify the checker cannot check");
		return 0;
	}
	if (w->open && (h.bs != w->first.bs || h.size != w->first.size ||
			strcmp(h.file, w->first.file) || strcmp(h.verify, w->first.verify))) {
		refuse(p, "another file, bs, size or verify than this run's");
		return 0;
	}
	if (!w->open) {
		if (crash_log_open(&w->log, w->log_path, &h, true, &cause))
			goto log_failed;
		w->open = true;
		w->first = h;
	}
	if (crash_log_round(&w->log, ++w->rounds, &cause))
		goto log_failed;
	/* Never a start handed out before: a writer that sent nothing still
	 * stamped blocks from it. */
	w->max_gen += CRASH_LOG_GEN_MARGIN;
	snprintf(reply, sizeof(reply), "ok %llu\n", (unsigned long long)w->max_gen);
	say(p, reply);
	fprintf(stderr, "iogauge witness: %s: run %llx, round %u, mode %s, file %s\n", p->name,
		(unsigned long long)h.run, w->rounds, h.mode, h.file);
	mark = w->log.pend.len;
	while ((ret = next_line(p, &line, IDLE_NS)) > 0) {
		enum wire_kind k = wire_parse_line(line, &a, &b);

		line_done(p, line);
		if (k == WIRE_ACK && !(a % h.bs) && a < h.size && b && b <= CRASH_GEN_MASK) {
			struct crash_ack ack = { .off = a, .gen = b };

			crash_log_ack(&w->log, &ack);
			pending++;
			if (b > w->max_gen)
				w->max_gen = b;
			continue;
		}
		if (k != WIRE_SYNC || a != pending) {
			refuse(p, k == WIRE_SYNC ? "a batch of another count"
						 : "not an acknowledgement of this file");
			break;
		}
		/* Synced before the answer: an answered batch is on record. */
		if (crash_log_sync(&w->log, &cause))
			goto log_failed;
		total += pending;
		pending = 0;
		mark = w->log.pend.len;
		(void)util_write_all(p->fd, reply, wire_format_count(reply, 'k', a));
	}
	/* A batch never answered was never acknowledged. */
	w->log.pend.len = mark;
	if (crash_log_flush(&w->log, true, w->rounds, total, &cause))
		goto log_failed;
	fprintf(stderr, "iogauge witness: %s: round %u ended, %llu acknowledgements\n", p->name,
		w->rounds, (unsigned long long)total);
	return 0;
log_failed:
	refuse(p, "the witness cannot write its log");
	fprintf(stderr, "iogauge witness: %s\n", cause);
	free(cause);
	return -EIO;
}

/* ADDR:PORT, ADDR numeric (IPv4, or IPv6 in brackets).  A listening
 * socket, or -1 with the reason printed. */
static int listen_on(const char *spec)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV },
			*ai;
	const char *colon = strrchr(spec, ':'), *given = spec;
	char host[64], name[96], port[16];
	size_t hl;
	int fd, one = 1, ret;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (!colon || !colon[1] || strlen(colon + 1) >= sizeof(port))
		goto bad;
	hl = (size_t)(colon - spec);
	if (hl >= 2 && spec[0] == '[' && spec[hl - 1] == ']') {
		spec++;
		hl -= 2;
	}
	if (!hl || hl >= sizeof(host))
		goto bad;
	memcpy(host, spec, hl);
	host[hl] = '\0';
	snprintf(port, sizeof(port), "%s", colon + 1);
	/* getaddrinfo takes 99999 and listens on 99999 mod 65536. */
	if (strspn(port, "0123456789") != strlen(port) || strtoul(port, NULL, 10) > 65535) {
		fprintf(stderr, "iogauge witness: --listen=%s: the port is 0 to 65535\n", given);
		return -2;
	}
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret) {
		fprintf(stderr, "iogauge witness: --listen=%s: %s\n", given, gai_strerror(ret));
		return -2;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 8) ||
	    getsockname(fd, (struct sockaddr *)&ss, &sl)) {
		fprintf(stderr, "iogauge witness: --listen=%s: %s\n", given, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	if (getnameinfo((struct sockaddr *)&ss, sl, name, sizeof(name), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(name, sizeof(name), "?");
	printf("iogauge witness: listening on %s%s%s:%s\n", strchr(name, ':') ? "[" : "", name,
	       strchr(name, ':') ? "]" : "", port);
	fflush(stdout);
	return fd;
bad:
	fprintf(stderr, "iogauge witness: --listen=%s: ADDR:PORT, a numeric address\n", given);
	return -2;
}

int witness_main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct witness w = { 0 };
	const char *listen_spec = NULL, *v, *run = NULL;
	char *end = NULL, *cause = NULL;
	int i, lfd, ret, status = 0;
	bool created;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if ((v = util_flag_value(argv[i], "--listen"))) {
			listen_spec = v;
		} else if ((v = util_flag_value(argv[i], "--run"))) {
			run = v;
		} else if ((v = util_flag_value(argv[i], "--log"))) {
			w.log_path = v;
		} else {
			fprintf(stderr,
				"iogauge witness: %s: unknown option (iogauge witness --help)\n",
				argv[i]);
			return 2;
		}
	}
	if (!listen_spec || !run || !w.log_path) {
		fprintf(stderr, "iogauge witness: --listen, --run and --log are needed\n%s", usage);
		return 2;
	}
	w.run = strtoull(run, &end, 16);
	if (!*run || *end || !w.run || strlen(run) > 6) {
		fprintf(stderr, "iogauge witness: --run=%s: 1 to 6 hex digits, not 0\n", run);
		return 2;
	}
	/* A log it cannot write is bad input, said now, not at the first
	 * writer (created here; one of another run emptied when the first
	 * writer says hello; removed again if it cannot listen). */
	lfd = open(w.log_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	created = lfd >= 0;
	if (lfd < 0 && errno == EEXIST)
		lfd = open(w.log_path, O_WRONLY | O_CLOEXEC);
	if (lfd < 0) {
		fprintf(stderr, "iogauge witness: --log=%s: %s\n", w.log_path, strerror(errno));
		return 2;
	}
	close(lfd);
	/* A log of this run goes on: its writers' generations are never
	 * handed out again, so a block an earlier one left cannot pass for
	 * a newer write. */
	ret = crash_log_resume(&w.log, w.log_path, w.run, &w.first, &w.max_gen, &w.rounds, &cause);
	if (ret < 0) {
		fprintf(stderr, "iogauge witness: %s\n", cause);
		free(cause);
		return 1;
	}
	w.open = ret == 1;
	if (w.open)
		fprintf(stderr,
			"iogauge witness: --log=%s: a log of run %llx: going on after its "
			"round %u\n",
			w.log_path, (unsigned long long)w.run, w.rounds);
	lfd = listen_on(listen_spec);
	if (lfd < 0) {
		if (w.open)
			crash_log_close(&w.log);
		if (created)
			unlink(w.log_path);
		return lfd == -2 ? 2 : 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	while (!stop) {
		struct pollfd pf = { .fd = lfd, .events = POLLIN };
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		struct peer *p;
		char host[64], port[16];
		int fd;

		if (poll(&pf, 1, 200) <= 0)
			continue;
		fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		p = xcalloc(1, sizeof(*p));
		p->fd = fd;
		if (getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), port, sizeof(port),
				NI_NUMERICHOST | NI_NUMERICSERV))
			snprintf(p->name, sizeof(p->name), "a peer");
		else
			snprintf(p->name, sizeof(p->name), "%s port %s", host, port);
		if (serve_peer(&w, p))
			status = 1;
		close(fd);
		free(p);
		if (status)
			break;
	}
	close(lfd);
	if (w.open)
		crash_log_close(&w.log);
	return status;
}
