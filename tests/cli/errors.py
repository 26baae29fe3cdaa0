#!/usr/bin/env python3
# Every error in one pass: job files (sections, includes), command-line
# options, --name jobs and --set, with unknown options, refused fio
# options, bad values and conflicts between options mixed.  Each must be
# reported once, in reading order, as FILE:LINE (or the flag), with exit
# status 2, nothing on stdout and nothing written; a run and --parse-only
# print the same.  fio's exec.fio is checked against an oracle built from
# iogauge's own lists (--help-options, --list-engines), so the count follows
# the engines and options this build has.
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import os
import re
import shutil
import subprocess
import tempfile

from clitest import capture, check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
EXAMPLES = "/usr/share/doc/fio/examples"


def run(args, cwd):
    return capture([BIN] + args, cwd, timeout=None)  # valgrind runs it too


def errors_of(err):
    """The error lines of stderr, without the program's name; warnings
    are left out."""
    return [line[len("iogauge: "):] for line in err.splitlines()
            if line.startswith("iogauge: ") and not line.startswith("iogauge: warning")
            and ": warning: " not in line]


def refused_same(args, cwd, want, what):
    """A run and --parse-only of @args: both exit 2, print @want (a list of
    regular expressions, one per error line, in order) and nothing on
    stdout, and leave @cwd as it was."""
    before = sorted(os.listdir(cwd))
    rc, out, err = run(args, cwd)
    rc2, out2, err2 = run(["--parse-only"] + args, cwd)
    got = errors_of(err)
    ok = (rc == 2 and not out and len(got) == len(want) and
          all(re.fullmatch(w, g) for w, g in zip(want, got)))
    check(ok, "%s: exit %d, %d errors (want %d):\n  %s" %
          (what, rc, len(got), len(want), "\n  ".join(got)))
    check(rc2 == 2 and not out2 and errors_of(err2) == got,
          "%s: --parse-only printed another list (exit %d):\n  %s" %
          (what, rc2, "\n  ".join(errors_of(err2))))
    check(sorted(os.listdir(cwd)) == before,
          "%s: files changed: %r -> %r" % (what, before, sorted(os.listdir(cwd))))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def mixed(tmp):
    """Two files, an include, options before --name, a --name job and --set."""
    write(os.path.join(tmp, "one.fio"),
          "[global]\n"                           # 1
          "filename=data\n"                      # 2
          "bs=4q\n"                              # 3  bad value
          "size=1m\n"                            # 4
          "[a]\n"                                # 5
          "rw=read\n"                            # 6
          "frobnicate=1\n"                       # 7  unknown
          "include one.inc\n"                    # 8
          "[b]\n"                                # 9
          "rw=write\n"                           # 10
          "rwmixread=70\n"                       # 11
          "rwmixwrite=70\n"                      # 12 conflict, unchecked: [global] bs is bad
          "ioengine=rdma\n")                     # 13 refused engine
    write(os.path.join(tmp, "one.inc"),
          "iodepth=abc\n"                        # 1 bad value
          "hostname=foo\n")                      # 2 refused option
    write(os.path.join(tmp, "two.fio"),
          "[c]\n"                                # 1
          "filename=data2\n"                     # 2
          "size=4k\n"                            # 3
          "bs=8k\n"                              # 4 conflict: bs above size
          "[d]\n"                                # 5
          "filename=data3\n"                     # 6
          "size=1m\n"                            # 7
          "iodepth=2\n"                          # 8
          "iodepth_batch_submit=4\n"             # 9 conflict
          "skip_bad=1\n")                        # 10 refused
    # The include's errors name its own file and line.
    want = [
        r"one\.fio:3: bs: '4q': unknown size suffix 'q'.*",
        r"one\.fio:7: unknown option 'frobnicate'.*",
        r"\./one\.inc:1: iodepth: 'abc' is not a number",
        r"\./one\.inc:2: 'hostname' is an option of fio's net, .*, which iogauge does not build",
        r"one\.fio:13: ioengine: 'rdma' is fio's engine for RDMA networks, which iogauge does not build.*",
        r"two\.fio:4: \[c\] block size 8192 is larger than the size of 4096 bytes",
        r"two\.fio:9: \[d\] iodepth_batch_submit=4 is above iodepth=2",
        r"two\.fio:10: 'skip_bad' is an option of fio's mtd engine .*",
        r"unknown option '--bogus-flag'.*",
        r"--norandommap=maybe: .*",
        r"--thinktime=zz: .*",
        r"--set frob=1: unknown option .frob.*",
    ]
    refused_same(["one.fio", "two.fio", "--bogus-flag", "--name=e", "--norandommap=maybe",
                  "--filename=data4", "--size=1m", "--thinktime=zz",
                  "--set", "frob=1"], tmp, want, "files, include, --name and --set")


def global_once(tmp):
    """A bad value in [global] with two jobs: once; each job's conflict: its own."""
    write(os.path.join(tmp, "g.fio"),
          "[global]\nfilename=data\nsize=1m\nruntime=bogus\n"
          "[a]\nrw=read\n[b]\nrw=write\n")
    refused_same(["g.fio"], tmp, [r"g\.fio:4: runtime: .*"], "bad [global] value, two jobs")
    write(os.path.join(tmp, "g2.fio"),
          "[global]\nfilename=data\nsize=4k\nbs=8k\n[a]\nrw=read\n[b]\nrw=write\n")
    refused_same(["g2.fio"], tmp,
                 [r"g2\.fio:4: \[a\] block size 8192 is larger than the size of 4096 bytes",
                  r"g2\.fio:4: \[b\] block size 8192 is larger than the size of 4096 bytes"],
                 "[global] conflict, two jobs")


def cap(tmp):
    """300 unknown options: the first 100, then a count."""
    write(os.path.join(tmp, "many.fio"),
          "[j]\nfilename=data\nsize=1m\nwrite_lat_log=lat\n" +
          "".join("zzzzzzzz%d=1\n" % i for i in range(300)))
    want = [r"many\.fio:%d: unknown option 'zzzzzzzz%d'.*" % (i + 5, i) for i in range(100)]
    want.append(r"and 200 more errors")
    # Nor a report (--output) nor a log is written.
    refused_same(["many.fio", "--output=report.txt"], tmp, want, "300 unknown options")


def exec_example(tmp):
    """fio's exec.fio: every line whose option or engine this build lacks,
    in order; the lines iogauge takes are not reported."""
    path = os.path.join(EXAMPLES, "exec.fio")
    if not os.path.exists(path):
        return
    opts = set()
    for line in run(["--help-options"], tmp)[1].splitlines():
        if line and not line.startswith(" "):
            opts.update(line.split()[0].split("|"))
    engines = {line.split()[0] for line in run(["--list-engines"], tmp)[1].splitlines() if line}
    want = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#")[0].split(";")[0].strip()
            if not line or line.startswith("["):
                continue
            key, _, val = line.partition("=")
            key, val = key.strip(), val.strip()
            if key not in opts or (key == "ioengine" and val not in engines):
                want.append(n)
    rc, out, err = run(["--parse-only", path], tmp)
    got = [int(m.group(1)) for m in
           (re.match(re.escape(path) + r":(\d+): ", e) for e in errors_of(err)) if m]
    check(got == want and len(got) == len(errors_of(err)) and rc == (2 if want else 0),
          "exec.fio: exit %d, lines %r (want %r)" % (rc, got, want))
    print("exec.fio: %d errors in one pass" % len(got))


def planned(tmp):
    """Sizes and regions checked before anything is opened: each job's
    refusal at once; --parse-only prints them as warnings and exits 0."""
    write(os.path.join(tmp, "plan.fio"),
          "[a]\nfilename=data\nsize=1m\noffset=9000p\n"            # 1-4
          "[b]\nfilename=data\nsize=1m\n"                          # 5-7
          "[c]\nfilename=data\noffset=1m\noffset_increment=5000p\nnumjobs=3\nsize=1m\n"
          "[d]\nfilename=data\nbs=3g\nsize=4g\n")                 # 14-17
    want = [r"plan\.fio:4: \[a\] the I/O region .* the largest file offset",
            r"plan\.fio:11: \[c\] the I/O region of the last clone .* the largest file offset",
            r"plan\.fio:16: \[d\] a block size of 3221225472 bytes .*"]
    before = sorted(os.listdir(tmp))
    rc, out, err = run(["plan.fio"], tmp)
    got = errors_of(err)
    check(rc == 2 and not out and len(got) == len(want) and
          all(re.fullmatch(w, g) for w, g in zip(want, got)) and sorted(os.listdir(tmp)) == before,
          "plan errors: exit %d:\n  %s" % (rc, "\n  ".join(got)))
    rc, out, err = run(["--parse-only", "plan.fio"], tmp)
    warns = [line[len("iogauge: warning: "):] for line in err.splitlines()
             if line.startswith("iogauge: warning: ")]
    check(rc == 0 and out.count("[") >= 4 and warns == got,
          "plan errors, --parse-only: exit %d, warnings:\n  %s" % (rc, "\n  ".join(warns)))


def sections(tmp):
    """--section: the errors of the job sections it leaves out are not
    reported, as fio does not read those; [global]'s and the kept ones' are."""
    write(os.path.join(tmp, "sec.fio"),
          "[a]\nfrob=1\nsize=1m\nrw=bogus\n[b]\nsize=1m\nfilename=sec\n")
    rc, out, err = run(["--parse-only", "--section=b", "sec.fio"], tmp)
    check(rc == 0 and "[b]" in out and not errors_of(err),
          "--section=b: exit %d, %r" % (rc, errors_of(err)))
    if shutil.which("fio"):
        p = subprocess.run(["fio", "--parse-only", "--section=b", "sec.fio"], cwd=tmp,
                           capture_output=True, text=True)
        check(p.returncode == 0, "fio --section=b: exit %d" % p.returncode)
    refused_same(["--section=a", "sec.fio"], tmp,
                 [r"sec\.fio:2: unknown option 'frob'.*", r"sec\.fio:4: rw: 'bogus' .*"],
                 "--section=a")
    write(os.path.join(tmp, "sec2.fio"),
          "[global]\nbogusg=1\n[a]\nfrob=1\n[b]\nsize=1m\nfilename=sec\nfrob2=1\n")
    refused_same(["--section=b", "sec2.fio"], tmp,
                 [r"sec2\.fio:2: unknown option 'bogusg'.*",
                  r"sec2\.fio:8: unknown option 'frob2'.*"], "--section=b, [global]")
    refused_same(["--section=x", "--section=b", "--section=y", "sec.fio"], tmp,
                 [r"--section=x: no job has that name", r"--section=y: no job has that name"],
                 "two --section names that match no job")


def readonly(tmp):
    """--readonly: every job that writes or trims is named, nothing created."""
    before = sorted(os.listdir(tmp))
    rc, out, err = run(["--readonly", "--name=a", "--rw=write", "--filename=ro", "--size=4k",
                        "--name=b", "--rw=read", "--filename=ro", "--size=4k",
                        "--name=c", "--rw=randtrim", "--filename=ro", "--size=4k"], tmp)
    got = errors_of(err)
    check(rc == 2 and not out and sorted(os.listdir(tmp)) == before and
          [g.split("]")[0] for g in got] == ["[a", "[c"],
          "--readonly: exit %d:\n  %s" % (rc, "\n  ".join(got)))


# fio 3.33's engines that iogauge does not build (network, cluster, GPU,
# persistent memory, passthrough, zoned devices, other systems, plugins),
# and options of engines missing from Debian's fio build.
NOT_BUILT_ENGINES = [
    "net", "netsplice", "rdma", "libhdfs", "http", "nfs", "rados", "rbd", "gfapi",
    "gfapi_async", "ime_psync", "ime_psyncv", "ime_aio", "dfs", "libcufile", "libpmem",
    "dev-dax", "pmemblk", "librpma_apm_client", "librpma_apm_server",
    "librpma_gpspm_client", "librpma_gpspm_server", "sg", "io_uring_cmd", "xnvme",
    "libzbc", "nbd", "libiscsi", "mtd", "windowsaio", "solarisaio", "e4defrag", "cpp_null",
    "external:/usr/lib/x.so", "/opt/engine.so",
]
NOT_BUILT_OPTIONS = [
    "http_verbose", "http_host", "https", "http_s3_key", "nfs_url", "gpu_dev_ids", "cuda_io",
    "pool", "cont", "object_class", "svcl", "chunk_size", "namenode", "hdfsdirectory",
    "hdfs_use_direct", "single_instance", "serverip", "direct_write_to_pmem",
    "busy_wait_polling", "initiator", "no_completion_thread", "xnvme_be", "xnvme_async",
    "xnvme_sync", "xnvme_admin", "xnvme_dev_nsid", "xnvme_iovec", "hostname", "port", "proto",
    "protocol", "verb", "bindname", "clustername", "rbdname", "readfua", "sg_write_mode",
    "cmd_type", "uri", "skip_bad", "donorname", "volume", "brick", "single-instance",
    "gpu_dev_id", "max_open_zones", "job_max_open_zones", "ignore_zone_limits", "read_beyond_wp",
    "zone_reset_threshold", "zone_reset_frequency", "zonecapacity",
]


def not_built(tmp):
    """Each engine refused by name, each option by its engine, all in one
    pass, with the same sentence."""
    lines = ["[j]", "filename=data", "size=1m"]
    want = []
    for e in NOT_BUILT_ENGINES:
        lines.append("ioengine=" + e)
        want.append(r"nb\.fio:%d: ioengine: '%s' is (fio's engine for .+|an external fio "
                    r"engine \(a shared library fio loads\)), which iogauge does not build "
                    r"\(valid: .*\)" % (len(lines), re.escape(e)))
    for o in NOT_BUILT_OPTIONS:
        lines.append(o + "=1")
        want.append(r"nb\.fio:%d: '%s' is an option of fio's .+ \(for .+\), which iogauge "
                    r"does not build" % (len(lines), re.escape(o)))
    write(os.path.join(tmp, "nb.fio"), "\n".join(lines) + "\n")
    refused_same(["nb.fio"], tmp, want, "engines and options iogauge does not build")


with tempfile.TemporaryDirectory() as tmp:
    mixed(tmp)
    global_once(tmp)
    cap(tmp)
    not_built(tmp)
    planned(tmp)
    readonly(tmp)
    sections(tmp)
    exec_example(tmp)
finish("errors")
