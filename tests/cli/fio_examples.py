#!/usr/bin/env python3
# fio 3.33's own example job files (/usr/share/doc/fio/examples, Debian's
# fio-examples package), run by fio and by iogauge on the same capped copy,
# compared per job.
#
# In scope are the 42 examples that fio 3.33 accepts (fio --parse-only) and
# that need nothing but the local machine: no network, cluster, GPU,
# persistent-memory, SCSI/NVMe passthrough or zoned-device engine
# (OUT_OF_SCOPE says why each other one is left out).  Each runs from one
# rewritten copy that both tools read: a line setting a capped option is
# commented out and the cap is put at the end of [global] and of every job
# section.  The data goes to a scratch tmpfs (a plain temporary folder when
# not root), and an example written for a block device gets a loop device
# over a file on that tmpfs (a plain file when not root).  EXAMPLES says
# per example what was capped and why.
#
# Per job (the JSON's job entries, in order) the comparison is:
#   - the job names, and the directions that ran (read, write, trim);
#   - "size": the job ends when its region is done, so total_ios and
#     io_bytes must be equal per direction ("total": equal summed over the
#     directions, when a random mix splits them by chance; "bytes~N":
#     io_bytes summed within N, when random block sizes without a random
#     map let each clone's last I/O pass its size by a block at most);
#   - "rate": a rate decides, so the IOPS must be within 15% ("poisson":
#     within four standard deviations of the two Poisson counts);
#   - "time": the CPU and the page cache decide (tmpfs is no device), so
#     only the directions, and both did I/O.
#
# NOT_YET lists the in-scope examples iogauge does not run yet, with the
# option or engine it lacks.  The test fails when one of them starts to
# pass (take it off the list) or when an example off the list fails.
#
# Environment (set by CTest): IOGAUGE_BIN.  Skips (77) without fio or
# without the examples.
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which(os.environ.get("FIO", "fio"))
EXAMPLES_DIR = os.environ.get("FIO_EXAMPLES", "/usr/share/doc/fio/examples")
DEV = "@DEV@"  # in a cap: the loop device (or plain file) made by the test
DIR = "@DIR@"  # in a cap: the scratch folder
MIB = 1 << 20
DEV_BYTES = 16 * MIB

# name: (caps, check, why).  Caps replace the example's own lines; every
# example also runs in the scratch folder (its cwd), where relative names
# and logs land.
EXAMPLES = {
    "aio-read": ({"directory": DIR, "size": "16m"}, "size",
                 "directory=/data1 -> scratch; size 512m -> 16m per job (four files)"),
    "backwards-read": ({"directory": DIR, "size": "16m"}, "size",
                       "file '128m' in scratch; size 128m -> 16m"),
    "basic-verify": ({"filename": DEV}, "size",
                     "/dev/XXX -> a 16 MiB loop device"),
    "fio-rand-RW": ({"directory": DIR, "size": "16m", "runtime": "1"}, "time",
                    "size 10G -> 16m, runtime 900 -> 1 s (time_based)"),
    "fio-rand-read": ({"directory": DIR, "size": "16m", "runtime": "1"}, "time",
                      "size 10G -> 16m, runtime 900 -> 1 s (time_based)"),
    "fio-rand-write": ({"directory": DIR, "size": "16m", "runtime": "1"}, "time",
                       "size 10G -> 16m, runtime 900 -> 1 s (time_based)"),
    "fio-seq-RW": ({"directory": DIR, "size": "16m", "runtime": "1"}, "time",
                   "size 10G -> 16m, runtime 900 -> 1 s (time_based)"),
    "fio-seq-read": ({"directory": DIR, "size": "16m", "runtime": "1"}, "time",
                     "size 10G -> 16m, runtime 900 -> 1 s (time_based)"),
    "fio-seq-write": ({"directory": DIR, "size": "16m", "runtime": "1"}, "time",
                      "size 10G -> 16m, runtime 900 -> 1 s (time_based)"),
    "fixed-rate-submission": ({"directory": DIR, "filename": "frs.dat", "size": "16m",
                               "runtime": "2"}, "rate",
                              "file in scratch; size 128m -> 16m, runtime 2 s "
                              "(1000 IOPS would take 32 s)"),
    "fsx": ({"directory": DIR, "loops": "20"}, "total",
            "loops 500000 -> 20 (256k each); rwmix splits by chance"),
    "iometer-file-access-server": ({"directory": DIR, "size": "16m"}, "bytes~0",
                                   "size 4g -> 16m; bssplit and rwmix split by chance"),
    # Four clones, each may pass its 16 MiB by one block of up to 64k.
    "jesd219": ({"filename": DEV}, "bytes~262144",
                "/dev/nvme0n1 -> a 16 MiB loop device; bssplit and rwmix split by chance"),
    "null": ({"size": "1g"}, "size", "size 100g -> 1g (null engine: no data)"),
    "poisson-rate-submission": ({"directory": DIR, "filename": "prs.dat", "size": "16m",
                                 "runtime": "3"}, "poisson",
                                "file in scratch; size 128m -> 16m, runtime 3 s"),
    "ssd-steadystate": ({"filename": DEV}, "size",
                        "/dev/fioa -> a 16 MiB loop device (both phases size-bound)"),
    "ssd-test": ({"directory": DIR, "size": "16m"}, "size",
                 "directory -> scratch; size 10g -> 16m (the 60 s runtime is then no bound)"),
    "tiobench-example": ({"directory": DIR, "size": "8m"}, "size",
                         "size 512m -> 8m per clone (16 files)"),
    "waitfor": ({"directory": DIR, "filename": "waitfor.dat", "filesize": "8m"}, "size",
                "/tmp/data -> scratch; filesize 128m -> 8m (the 10 s runtimes are then no bound)"),
    "zipf": ({"size": "256m"}, "size", "size 1280m -> 256m (null engine)"),
    "butterfly": ({"filename": DEV, "size": "4m", "runtime": "20"}, "size",
        "/tmp/testfile -> a 16 MiB loop device, size 4m (both size-bound; fio's flow spin "
        "leaves its loop device ~2000 IOPS); runtime -> 20 s as a cap"),
    "cmdprio-bssplit": ({"filename": DEV, "runtime": "2"}, "time",
        "/dev/sda -> a 16 MiB loop device, runtime 2 s (no size: device-bound by time)"),
    "cmdprio-percentage": ({"filename": DEV, "runtime": "20"}, "size",
        "device -> a 16 MiB loop device; runtime 20 s as a cap"),
    "falloc": ({"directory": DIR, "size": "16m"}, "time",
        "directory=/scratch -> scratch; size 100M -> 16m, runtime 10 -> 2 s (its first phases are time_based)"),
    "filedelete-ioengine": ({"directory": DIR, "nrfiles": "200"}, "size",
        "nrfiles 200 kept (as a cap); files in scratch"),
    "filestat-ioengine": ({"directory": DIR, "nrfiles": "200"}, "size",
        "nrfiles 200 kept (as a cap); files in scratch"),
    "flow": ({"directory": DIR, "size": "16m", "runtime": "2"}, "time",
        "/tmp/testfile -> scratch, size 100g -> 16m, runtime 30 -> 2 s (time_based)"),
    "ftruncate": ({"directory": DIR, "size": "16m"}, "time",
        "directory=/scratch -> scratch; size 100M+4k -> 16m, runtime 10 -> 2 s (time_based)"),
    "cpuio": ({"runtime": "1"}, "time", "runtime -> 1 s (time_based burners; no data)"),
    "filecreate-ioengine": ({"directory": DIR, "nrfiles": "200"}, "size",
                            "nrfiles 31250 -> 200 per job (16 jobs, 4k files in scratch)"),
    "surface-scan": ({"filename": DEV}, "size",
        "datafile.tmp -> a 16 MiB loop device (fill_device: its size bounds the write)"),
    "dedupe-global": ({"filename": DEV, "size": "16m"}, "time",
        "filename -> a 16 MiB loop device, size 100m -> 16m; dedupe data by chance"),
    "disk-zone-profile": ({"filename": DEV, "runtime": "2"}, "time",
        "/dev/sdb -> a 16 MiB loop device, runtime -> 2 s as a cap"),
    "latency-profile": ({"filename": DEV, "runtime": "20"}, "size",
        "/dev/sda -> a 16 MiB loop device (size-bound), runtime -> 20 s as a cap"),
    "rand-zones": ({"directory": DIR, "size": "16m", "runtime": "20"}, "size",
        "file in scratch, size -> 16m (size-bound), runtime -> 20 s as a cap"),
}

# In scope, not run by iogauge yet: name -> what it lacks (and which area
# is building it).  Each is still tried; one that passes fails the test.
NOT_YET = {
    "1mbs_clients": "iogauge reads it now; its 32 jobs start up to 124 s apart (startdelay), in fio too: needs a startdelay cap",
    "cross-stripe-verify": "iogauge reads it now; its offsets need a cap this test lacks",
    "enospc-pressure": "iogauge reads it now; it fills the scratch tmpfs: needs a filesize cap",
    "exec": "runs /usr/sbin/turbostat, which this machine lacks (fio fails the same way)",
    "exitwhat": "iogauge reads it now; its 1g size needs a cap for the 16 MiB device",
    "numa": "its job2 binds to nodes 0-1; this machine has one node, and both tools refuse it",
    "steadystate": "filename=/dev/null and /dev/zero: iogauge refuses character devices",
}
# Caps for the NOT_YET examples, so that when one starts to run it runs
# small; their check is "run" (both exit 0 and the directions agree) until
# the example moves to EXAMPLES with a check of its own.
NOT_YET_CAPS = {
    "1mbs_clients": {"directory": DIR, "size": "16m", "runtime": "2"},
    "cross-stripe-verify": {"filename": DEV},
    "enospc-pressure": {"directory": DIR, "size": "16m", "runtime": "2"},
    "exec": {"runtime": "2"},
    "exitwhat": {"filename": DEV, "runtime": "2"},
    "numa": {"directory": DIR, "size": "16m", "runtime": "2"},
    "steadystate": {"filename": DEV, "runtime": "2"},
}

# fio accepts these, but they need more than this machine: name -> why.
OUT_OF_SCOPE = {
    "cpp_null": "an external C++ engine built separately",
    "dev-dax": "persistent memory (dev-dax engine)",
    "e4defrag": "e4defrag engine: ext4's EXT4_IOC_MOVE_EXT, on no area's list",
    "e4defrag2": "e4defrag engine: ext4's EXT4_IOC_MOVE_EXT, on no area's list",
    "gfapi": "GlusterFS cluster",
    "ime": "DDN IME",
    "libhdfs": "HDFS cluster",
    "libiscsi": "network (iSCSI)",
    "libpmem": "persistent memory",
    "libzbc-rand-write": "zoned device (libzbc)",
    "libzbc-seq-read": "zoned device (libzbc)",
    "mtd": "an MTD flash device",
    "nbd": "network (NBD)",
    "netio": "network engine",
    "netio_multicast": "network engine",
    "pmemblk": "persistent memory",
    "rados": "Ceph cluster",
    "rbd": "Ceph cluster",
    "sg_verify-fail": "SCSI passthrough (sg)",
    "sg_verify": "SCSI passthrough (sg)",
    "sg_write_same_ndob": "SCSI passthrough (sg)",
    "uring-cmd-ng": "NVMe passthrough (io_uring_cmd)",
    "uring-cmd-zoned": "NVMe passthrough, zoned",
    "zbd-rand-write": "zoned block device",
    "zbd-seq-read": "zoned block device",
}
# fio 3.33 itself refuses these (fio --parse-only fails): left out.
FIO_REFUSES = {"dfs", "gpudirect-rdmaio-client", "gpudirect-rdmaio-server", "http-s3-crypto",
               "http-s3-storage-class", "http-s3", "http-swift", "http-webdav", "libcufile-cufile",
               "libcufile-posix", "librpma_apm-client", "librpma_apm-server",
               "librpma_gpspm-client", "librpma_gpspm-server", "nfs", "rdmaio-client",
               "rdmaio-server", "xnvme-compare", "xnvme-zoned"}

# fio alone: with io_submit_mode=offload and iodepth=32 fio 3.33 can hang
# as it starts its submission threads (a race in its workqueue_init, fixed
# after 3.33); inline submits from the job's thread, as iogauge does for
# offload.
FIO_ONLY = {"poisson-rate-submission": {"io_submit_mode": "inline"},
            "fixed-rate-submission": {"io_submit_mode": "inline"}}
ALIASES = {"runtime": ("runtime", "timeout")}
SECTION = re.compile(r"\s*\[([^\]]+)\]")


def capped(src, dst, caps):
    """Writes the example @src to @dst with each line that sets a key of
    @caps commented out and the caps added at the end of every section
    (filename only in job sections: fio adds one file per filename= it
    reads, so it must be read once per job)."""
    keys = set()
    for k in caps:
        keys.update(ALIASES.get(k, (k,)))
    with open(src) as f:
        lines = f.read().splitlines()
    out, sections = [], []
    for line in lines:
        m = SECTION.match(line)
        if m:
            sections.append((m.group(1), len(out)))
        s = line.strip()
        if not m and s and s[0] not in ";#" and \
                re.split(r"[=\s]", s, 1)[0].strip().lower() in keys:
            line = "; capped: " + line
        out.append(line)
    # Insert from the last section up, so earlier positions stay right.
    ends = [pos for _, pos in sections[1:]] + [len(out)]
    for (name, _), end in reversed(list(zip(sections, ends))):
        glob = name.lower().startswith("global")
        add = ["%s=%s" % (k, v) for k, v in caps.items() if not (glob and k == "filename")]
        while end > 0 and (not out[end - 1].strip() or out[end - 1].strip()[0] in ";#") and \
                not out[end - 1].startswith("; capped:"):
            end -= 1
        out[end:end] = add
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


def run(tool, job, cwd, timeout):
    """(exit status, JSON document or None, stderr) of @tool on @job.  A
    run past @timeout is killed with its whole process group (fio's jobs
    are processes of their own)."""
    p = subprocess.Popen([tool, "--output-format=json", job], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return -1, None, "timed out after %d s" % timeout
    p.stdout, p.stderr = out, err
    doc = None
    if p.returncode == 0:
        # fio may print notes before the JSON document.
        start = p.stdout.find("{")
        try:
            doc = json.loads(p.stdout[start:]) if start >= 0 else None
        except ValueError:
            doc = None
    return p.returncode, doc, p.stderr


DIRS = ("read", "write", "trim")


def entries(doc):
    """[(jobname, {direction: (total_ios, io_bytes, iops)})] per job entry."""
    res = []
    for j in doc.get("jobs", []):
        res.append((j.get("jobname"),
                    {d: (j[d]["total_ios"], j[d]["io_bytes"], j[d]["iops"]) for d in DIRS
                     if d in j}))
    return res


def compare(name, kind, fdoc, idoc):
    """[mismatch text] between fio's and iogauge's JSON for one example."""
    bad = []
    fe, ie = entries(fdoc), entries(idoc)
    if [n for n, _ in fe] != [n for n, _ in ie]:
        return ["job entries: fio %s, iogauge %s" % ([n for n, _ in fe], [n for n, _ in ie])]
    for (job, f), (_, i) in zip(fe, ie):
        fd = sorted(d for d in DIRS if f.get(d, (0,))[0] > 0)
        idr = sorted(d for d in DIRS if i.get(d, (0,))[0] > 0)
        if fd != idr:
            bad.append("[%s] directions: fio %s, iogauge %s" % (job, fd, idr))
            continue
        if not fd:
            bad.append("[%s] no I/O in either tool" % job)
        if kind == "size":
            for d in fd:
                if f[d][:2] != i[d][:2]:
                    bad.append("[%s] %s total_ios/io_bytes: fio %d/%d, iogauge %d/%d" %
                               ((job, d) + f[d][:2] + i[d][:2]))
        elif kind == "total" or kind.startswith("bytes~"):
            ft = [sum(f[d][k] for d in fd) for k in (0, 1)]
            it = [sum(i[d][k] for d in fd) for k in (0, 1)]
            if kind == "total" and ft != it:
                bad.append("[%s] total_ios/io_bytes over %s: fio %d/%d, iogauge %d/%d" %
                           (job, fd, ft[0], ft[1], it[0], it[1]))
            # Random block sizes: the I/Os differ, the bytes (nearly) not.
            if kind != "total" and abs(ft[1] - it[1]) > int(kind[6:]):
                bad.append("[%s] io_bytes over %s: fio %d, iogauge %d (more than %s apart)" %
                           (job, fd, ft[1], it[1], kind[6:]))
        elif kind in ("rate", "poisson"):
            for d in fd:
                a, b = f[d][2], i[d][2]
                if kind == "rate":
                    ok = abs(a - b) <= 0.15 * max(a, b)
                else:
                    ca, cb = f[d][0], i[d][0]
                    ok = abs(ca - cb) <= 4 * math.sqrt(ca + cb) and abs(a - b) <= 0.5 * max(a, b)
                if not ok:
                    bad.append("[%s] %s IOPS: fio %.1f, iogauge %.1f" % (job, d, a, b))
    return bad


def summary(doc):
    return "; ".join("%s %s" % (n, " ".join("%s=%d/%d/%.0f" % ((d[0],) + v) for d, v in e.items()
                                            if v[0]))
                     for n, e in entries(doc))


def setup_scratch():
    """(folder, device path, cleanup) for the runs: a tmpfs and a loop device
    over a file on it when root, else a temporary folder and a plain file."""
    tmp = tempfile.mkdtemp(prefix="fio_examples.")
    undo = [lambda: shutil.rmtree(tmp, ignore_errors=True)]
    mounted = False
    if os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=768m", "tmpfs",
                                             tmp]).returncode == 0:
        mounted = True
        undo.insert(0, lambda: subprocess.run(["umount", tmp]))
    img = os.path.join(tmp, "dev.img")
    with open(img, "wb") as f:
        f.truncate(DEV_BYTES)
    dev = img
    if mounted:
        p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
        if p.returncode == 0:
            dev = p.stdout.strip()
            undo.insert(0, lambda: subprocess.run(["losetup", "-d", dev]))
    data = os.path.join(tmp, "data")
    os.mkdir(data)

    def cleanup():
        for u in undo:
            u()
    return data, dev, cleanup


def one(name, caps, kind, data, dev, jobs, timeout=120):
    """Runs example @name with both tools: (passed, what happened)."""
    src = os.path.join(EXAMPLES_DIR, name + ".fio")
    caps = {k: v.replace(DIR, data).replace(DEV, dev) for k, v in caps.items()}
    fio_job = os.path.join(jobs, name + ".fio.fio")
    iog_job = os.path.join(jobs, name + ".iogauge.fio")
    capped(src, iog_job, caps)
    capped(src, fio_job, dict(caps, **FIO_ONLY.get(name, {})))
    # Each tool starts from the same files: none.
    for f in os.listdir(data):
        p = os.path.join(data, f)
        shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)
    rc, idoc, ierr = run(BIN, iog_job, data, timeout)
    if rc != 0 or idoc is None:
        return False, "iogauge exit %d: %s" % (rc, ierr.strip()[-300:])
    for f in os.listdir(data):
        p = os.path.join(data, f)
        shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)
    rc, fdoc, ferr = run(FIO, fio_job, data, timeout)
    if rc != 0 or fdoc is None:
        return False, "fio exit %d: %s" % (rc, ferr.strip()[-300:])
    bad = compare(name, kind, fdoc, idoc)
    text = "fio: %s | iogauge: %s" % (summary(fdoc), summary(idoc))
    return not bad, "; ".join(bad) + (" -- " if bad else "") + text


def main():
    if not FIO or not os.path.isdir(EXAMPLES_DIR):
        print("SKIP: fio or %s missing" % EXAMPLES_DIR)
        sys.exit(77)
    only = sys.argv[1:]
    present = {f[:-4] for f in os.listdir(EXAMPLES_DIR) if f.endswith(".fio")}
    listed = set(EXAMPLES) | set(NOT_YET) | set(OUT_OF_SCOPE) | FIO_REFUSES
    check(set(EXAMPLES).isdisjoint(NOT_YET) and set(NOT_YET) == set(NOT_YET_CAPS),
          "EXAMPLES, NOT_YET and NOT_YET_CAPS disagree")
    check(present == listed, "examples not sorted into a list: %s; listed but absent: %s" %
          (sorted(present - listed), sorted(listed - present)))
    check(len(EXAMPLES) + len(NOT_YET) == 42, "in scope: %d, not 42" %
          (len(EXAMPLES) + len(NOT_YET)))
    data, dev, cleanup = setup_scratch()
    jobs = tempfile.mkdtemp(prefix="fio_examples_jobs.")
    try:
        for name in sorted(set(EXAMPLES) | set(NOT_YET)):
            if only and name not in only:
                continue
            if name in EXAMPLES:
                caps, kind, why = EXAMPLES[name]
                ok, what = one(name, caps, kind, data, dev, jobs)
                print("%-28s %s  [%s; %s]" % (name, "ok  " if ok else "FAIL", kind, why))
                print("    " + what)
                check(ok, "%s: %s" % (name, what))
            else:
                # Capped to run in seconds: 30 s is a hang, not a run.
                ok, what = one(name, NOT_YET_CAPS[name], "run", data, dev, jobs, 30)
                print("%-28s %s  [not yet: %s]" % (name, "PASSES" if ok else "no", NOT_YET[name]))
                if ok:
                    print("    " + what)
                check(not ok, "%s runs now: move it from NOT_YET to EXAMPLES with its caps" %
                      name)
    finally:
        shutil.rmtree(jobs, ignore_errors=True)
        cleanup()
    finish("fio_examples")


if __name__ == "__main__":
    main()
