/* SPDX-License-Identifier: MIT */
/*
 * noring ERRNO PROGRAM [ARGS...]: runs PROGRAM with io_uring_setup(2)
 * failing with ERRNO (EPERM or ENOSYS), through a seccomp filter as a
 * container policy would install it.  For the CLI tests of iogauge's
 * message when io_uring is unavailable.  Exit 77 (skip) when the filter
 * cannot be installed.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned err;

	if (argc < 3 || (strcmp(argv[1], "EPERM") && strcmp(argv[1], "ENOSYS"))) {
		fprintf(stderr, "usage: noring EPERM|ENOSYS PROGRAM [ARGS...]\n");
		return 2;
	}
	err = !strcmp(argv[1], "EPERM") ? EPERM : ENOSYS;
	/* The syscall number is 425 on every architecture (the unified table). */
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("noring: seccomp");
		return 77;
	}
	execvp(argv[2], argv + 2);
	perror("noring: exec");
	return 127;
}
