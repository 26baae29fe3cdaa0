#!/usr/bin/env python3
# mpi.py's checks again with two hosts: two network namespaces on this
# machine, each with a host name of its own (a UTS namespace), ranks 0-1
# in one and 2-3 in the other.  mpirun starts Open MPI's daemon in each
# through an rsh agent that enters the namespace (instead of ssh), and
# the ranks talk over Open MPI's TCP transport on a veth link between the
# two namespaces (the daemons reach mpirun over a veth link each).  The
# checks: totals 4 x one rank's and the summed histogram, a row per host
# (2 ranks each), entries named with their namespace's host, a missing
# folder of rank 2 named with its host, bad input told once; every output
# format's row per host (mpi_formats.py); a rank on the other host
# stopped (its heartbeat stops) and killed, named.  Root only
# (network namespaces); skipped (77) otherwise or without ip(8) and
# unshare(1).  The namespaces are removed at the end, whatever happened.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_MPI (1: built with MPI).
import os
import shutil
import subprocess
import sys
import tempfile

import mpi as m
import mpi_faults as mf
import mpi_formats
from clitest import check, finish

AGENT = """#!/bin/sh
# Open MPI's plm_rsh_agent: "agent HOST COMMAND" runs COMMAND in network
# namespace HOST, with HOST as its host name.
host=$1
shift
exec ip netns exec "$host" unshare --uts sh -c "hostname $host && $*"
"""


def sh(cmd):
    subprocess.run(cmd, shell=True, check=True, capture_output=True)


def make_hosts(a, b, net):
    """Namespaces @a and @b: veth to this namespace each (for the
    daemons), and one between them (10.@net.3.0/24, for the ranks)."""
    sh("ip netns add %s && ip netns add %s" % (a, b))
    for i, ns in ((1, a), (2, b)):
        sh("ip link add %s0 type veth peer name %s1" % (ns, ns))
        sh("ip link set %s1 netns %s" % (ns, ns))
        sh("ip addr add 10.%d.%d.1/24 dev %s0 && ip link set %s0 up" % (net, i, ns, ns))
        sh("ip netns exec %s sh -c 'ip link set lo up && ip addr add 10.%d.%d.2/24 dev %s1 "
           "&& ip link set %s1 up'" % (ns, net, i, ns, ns))
    sh("ip netns exec %s ip link add %sx type veth peer name %sx" % (a, a, b))
    sh("ip netns exec %s ip link set %sx netns %s" % (a, b, b))
    for i, ns in ((1, a), (2, b)):
        sh("ip netns exec %s sh -c 'ip addr add 10.%d.3.%d/24 dev %sx && ip link set %sx up'" %
           (ns, net, i, ns, ns))


def main():
    if os.environ.get("IOGAUGE_MPI") != "1" or not shutil.which("mpirun"):
        print("mpi_hosts: built without MPI")
        sys.exit(77)
    if os.getuid() != 0 or not shutil.which("ip") or not shutil.which("unshare"):
        print("mpi_hosts: needs root, ip(8) and unshare(1) for two network namespaces")
        sys.exit(77)
    tag = "iog%d" % (os.getpid() % 100000)
    a, b = tag + "a", tag + "b"
    net = 200 + os.getpid() % 50
    tmp = tempfile.mkdtemp(prefix="iogauge-mpihosts-")
    try:
        make_hosts(a, b, net)
        agent = os.path.join(tmp, "agent")
        with open(agent, "w") as f:
            f.write(AGENT)
        os.chmod(agent, 0o755)
        m.LAUNCH = ["--host", "%s:2,%s:2" % (a, b), "--mca", "plm_rsh_agent", agent,
                    "--mca", "plm_rsh_no_tree_spawn", "1", "--mca", "btl", "tcp,self",
                    "--mca", "btl_tcp_if_include", "10.%d.3.0/24" % net,
                    "--mca", "oob_tcp_if_include", "10.%d.0.0/16" % net]
        m.HOSTS = [a, a, b, b]
        # The checks that hosts change (mpi.py has the rest): entries and
        # rows by host, over TCP; a failed rank named with its host.
        for r in range(m.NP):
            os.mkdir(os.path.join(tmp, "d%d" % r))
        m.text_rows(["--name=w", "--ioengine=psync", "--rw=randwrite", "--size=512k", "--bs=4k",
                     "--filename_format=%s/d$rank/f.$hostname" % tmp, "--unlink=1"])
        m.rank_fails(tmp)
        # Every format's host rows, one per namespace (mpi_formats.py).
        mpi_formats.LAUNCH, mpi_formats.HOSTS = m.LAUNCH, m.HOSTS
        mpi_formats.formats(tmp)
        # A rank on the other host stopped, then killed (mpi_faults.py).
        mf.LAUNCH, mf.HOSTS = m.LAUNCH, m.HOSTS
        mf.stopped_and_killed(tmp)
    finally:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    finish("mpi_hosts")


if __name__ == "__main__":
    main()
