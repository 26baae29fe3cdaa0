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
# section (a cap that is a function rewrites each such line's value where
# it stands instead: startdelay 4 -> 50ms).  The data goes to a scratch
# tmpfs (a plain temporary folder when not root), and an example written
# for a block device gets a loop device over a file on that tmpfs (a plain
# file when not root).  EXAMPLES says per example what was capped and why;
# "name@variant" runs the example name.fio with other caps.
#
# Each tool's run of an example is a task, SLOTS at a time, each slot with
# its own folder and loop device; the examples whose check compares a rate
# (ALONE) run afterwards, one run at a time.
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
#     only the directions, and both did I/O;
#   - "race": exitall ends every job when the first one ends, and which
#     one that is is a race in both tools: the directions of all jobs
#     together, and both exit 0 (with verify_fatal: no block read back
#     wrong);
#   - "refused:OPT": both tools refuse the job before any I/O, naming OPT
#     (iogauge: exit 2 at its file:line);
#   - "size+rate": "size" and "rate" both;
#   - and for SAME_FILES, the files both leave are the same.
#
# NOT_YET lists the in-scope examples iogauge does not run yet, with the
# option or engine it lacks.  The test fails when one of them starts to
# pass (take it off the list) or when an example off the list fails.
#
# Environment (set by CTest): IOGAUGE_BIN.  Skips (77) without fio or
# without the examples.
import concurrent.futures
import json
import math
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which(os.environ.get("FIO", "fio"))
EXAMPLES_DIR = os.environ.get("FIO_EXAMPLES", "/usr/share/doc/fio/examples")
DEV = "@DEV@"  # in a cap: the loop device (or plain file) made by the test
SECTION_NAME = "@SECTION@"  # in a cap: the name of the section it is put in
DIR = "@DIR@"  # in a cap: the scratch folder
MIB = 1 << 20
DEV_BYTES = 16 * MIB

def numa_nodes():
    try:
        return len([n for n in os.listdir("/sys/devices/system/node") if re.match(r"node\d+$", n)])
    except OSError:
        return 1


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
    "fio-rand-RW": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
                    "size 10G -> 16m, runtime 900 -> 0.5 s (time_based)"),
    "fio-rand-read": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
                      "size 10G -> 16m, runtime 900 -> 0.5 s (time_based)"),
    "fio-rand-write": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
                       "size 10G -> 16m, runtime 900 -> 0.5 s (time_based)"),
    "fio-seq-RW": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
                   "size 10G -> 16m, runtime 900 -> 0.5 s (time_based)"),
    "fio-seq-read": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
                     "size 10G -> 16m, runtime 900 -> 0.5 s (time_based)"),
    "fio-seq-write": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
                      "size 10G -> 16m, runtime 900 -> 0.5 s (time_based)"),
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
    # Each job's offsets in order (write_iolog) must be the same: the flow
    # lets them through in the same order within a job.  How the two jobs
    # interleave, and so the IOPS, is the scheduler's: a held job spins
    # (flow_sleep=0), in fio and iogauge alike.
    "butterfly": ({"filename": DEV, "size": "4m", "runtime": "20",
                   "write_iolog": "iolog." + SECTION_NAME}, "size",
        "/tmp/testfile -> a 16 MiB loop device, size 4m (both size-bound; fio's flow spin "
        "leaves its loop device ~2000 IOPS); runtime -> 20 s as a cap; each job's iolog "
        "offsets compared"),
    "cmdprio-bssplit": ({"filename": DEV, "runtime": "500ms"}, "time",
        "/dev/sda -> a 16 MiB loop device, runtime 0.5 s (no size: device-bound by time)"),
    "cmdprio-percentage": ({"filename": DEV, "runtime": "20"}, "size",
        "device -> a 16 MiB loop device; runtime 20 s as a cap"),
    "falloc": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
        "directory=/scratch -> scratch; size 100M -> 16m, runtime 10 -> 0.5 s (its first phases are time_based)"),
    "filedelete-ioengine": ({"directory": DIR, "nrfiles": "200"}, "size",
        "nrfiles 200 kept (as a cap); files in scratch"),
    "filestat-ioengine": ({"directory": DIR, "nrfiles": "200"}, "size",
        "nrfiles 200 kept (as a cap); files in scratch"),
    "flow": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
        "/tmp/testfile -> scratch, size 100g -> 16m, runtime 30 -> 0.5 s (time_based)"),
    "ftruncate": ({"directory": DIR, "size": "16m", "runtime": "500ms"}, "time",
        "directory=/scratch -> scratch; size 100M+4k -> 16m, runtime 10 -> 0.5 s (time_based)"),
    "cpuio": ({"runtime": "500ms"}, "time", "runtime -> 0.5 s (time_based burners; no data)"),
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
    # rate=1250 is bytes/s in both tools (the comment's 1024kb/s is 1000
    # times off): at that rate 32m takes 7 hours a client.
    "1mbs_clients": ({"directory": DIR, "size": "1m", "rate": lambda v: v + "k",
                      "ratemin": lambda v: v + "k",
                      "startdelay": lambda v: "%dms" % (int(v) * 25 // 2)}, "size+rate",
        "tmp -> scratch; rate/ratemin 1250/1024 -> 1250k/1024k (bytes/s, as the comment "
        "means), size 32m -> 1m (0.8 s a client), startdelay 0..124 s -> 0..1.55 s"),
    # fio's loops restart no sequential position when io_size ends a loop
    # early: the second loop writes the next blocks, so each clone's
    # footprint is loops x io_size/16k x 128k (512k), offset_increment's
    # step; 30 clones x 512k + 120k fit the 16 MiB device.
    "cross-stripe-verify": ({"filename": DEV, "offset_increment": "512k", "io_size": "32k"},
                            "size",
        "/dev/nvme0n1 -> a 16 MiB loop device; offset_increment 124g -> 512k, io_size 120g "
        "-> 32k (2 writes of 16k, 112k apart, a loop; verified one by one)"),
    # fio 3.33 trims a regular file with BLKDISCARD, which fails (ENOTTY),
    # so raicer is a symbolic link to the loop device (SETUP), where both
    # tools discard.  fio's libaio counts a read past the end of a file
    # being written as an I/O of 0 bytes, iogauge fails it: the verifier's
    # file is laid out first.
    "enospc-pressure": ({"directory": DIR, "filesize": "16m", "size": "16m", "runtime": "500ms",
                         "create_on_open": "0"}, "race",
        "directory -> scratch, filesize 128G/size 999G -> 16m, runtime 100 -> 0.5 s; raicer a "
        "link to a 16 MiB loop device (fio 3.33 cannot trim a regular file); create_on_open "
        "-> 0"),
    "exec": ({"runtime": "1", "program": lambda v: "/bin/echo" if "turbostat" in v else v,
              "numjobs": lambda v: "2"}, "time",
        "/usr/sbin/turbostat (absent) -> /bin/echo with the same arguments (its .stdout "
        "compared); runtime 30/10 -> 1 s (time_based); cpuio numjobs 12 -> 2 (a burner a "
        "core here)"),
    "exitwhat": ({"filename": DEV, "filesize": "16m",
                  "number_ios": lambda v: str(int(v) // 4)}, "size",
        "/tmp/test -> a 16 MiB loop device, filesize 1G -> 16m; number_ios 1000 -> 250 "
        "(slow1/slow2 think 2 ms an I/O; rate=300 is bytes/s: one I/O each way a fast clone)"),
    "numa": ({"filename": DEV, "size": "16m"}, "size" if numa_nodes() >= 2 else
             "refused:numa_cpu_nodes",
        "/dev/sdb1 -> a 16 MiB loop device, size 512m -> 16m; with one NUMA node both refuse "
        "job2's nodes 0-1"),
    "numa@node0": ({"filename": DEV, "size": "16m", "numa_cpu_nodes": lambda v: "0",
                    "numa_mem_policy": lambda v: v.split(":")[0] + ":0"}, "size",
        "as numa, each job's nodes -> 0 (bind:0, interleave:0): it runs on one node"),
    "steadystate": ({"runtime": "500ms"}, "time",
        "/dev/null and /dev/zero kept (character devices: size=128m is theirs); runtime "
        "5m -> 0.5 s (time_based; ss_ramp is then not reached)"),
}

# In scope, not run by iogauge yet: name -> what it lacks (and which area
# is building it).  Each is still tried; one that passes fails the test.
NOT_YET = {}
# Caps for the NOT_YET examples, so that when one starts to run it runs
# small; their check is "run" (both exit 0 and the directions agree) until
# the example moves to EXAMPLES with a check of its own.
NOT_YET_CAPS = {}

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
# Files an example leaves that must be the same after both tools.
SAME_FILES = {"exec": ("monitoring_noop.stdout", "monitoring_noop.stderr",
                       "monitoring_qsort.stdout", "monitoring_qsort.stderr"),
              "butterfly": ("iolog.forward", "iolog.backward")}
# What an example needs in the scratch folder before each run: name ->
# function(folder, device).
SETUP = {"enospc-pressure": lambda data, dev: os.symlink(dev, os.path.join(data, "raicer"))}
# Checks whose figures a busy machine would change: those examples run
# alone, the others SLOTS at a time.
ALONE = ("rate", "poisson", "size+rate")
SLOTS = 2

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
    reads, so it must be read once per job).  A cap that is a function
    instead rewrites each line's value in place (old value -> new), and
    adds nothing where the example does not set it."""
    keys, scale = set(), {}
    for k, v in caps.items():
        for a in ALIASES.get(k, (k,)):
            if callable(v):
                scale[a] = v
            else:
                keys.add(a)
    with open(src) as f:
        lines = f.read().splitlines()
    out, sections = [], []
    for line in lines:
        m = SECTION.match(line)
        if m:
            sections.append((m.group(1), len(out)))
        s = line.strip()
        key = re.split(r"[=\s]", s, 1)[0].strip().lower() if s else ""
        if not m and s and s[0] not in ";#" and key in keys:
            line = "; capped: " + line
        elif not m and s and s[0] not in ";#" and key in scale and "=" in s:
            line = "; capped: %s\n%s=%s" % (s, key, scale[key](s.split("=", 1)[1].strip()))
        out.append(line)
    # Insert from the last section up, so earlier positions stay right.
    ends = [pos for _, pos in sections[1:]] + [len(out)]
    for (name, _), end in reversed(list(zip(sections, ends))):
        glob = name.lower().startswith("global")
        add = ["%s=%s" % (k, v.replace(SECTION_NAME, name)) for k, v in caps.items()
               if not callable(v) and not (glob and k == "filename")]
        while end > 0 and (not out[end - 1].strip() or out[end - 1].strip()[0] in ";#") and \
                not out[end - 1].startswith("; capped:"):
            end -= 1
        out[end:end] = add
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


def run(tool, job, cwd, timeout):
    """(exit status, JSON document or None, stderr) of @tool on @job; for
    a failed run, its stderr and then its stdout (fio prints some errors
    there).  A run past @timeout is killed with its whole process group
    (fio's jobs are processes of their own)."""
    p = subprocess.Popen([tool, "--output-format=json", job], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return -1, None, "timed out after %d s" % timeout
    doc = None
    if p.returncode == 0:
        # fio may print notes before the JSON document.
        start = out.find("{")
        try:
            doc = json.loads(out[start:]) if start >= 0 else None
        except ValueError:
            doc = None
    else:
        err += out
    return p.returncode, doc, err


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
    if kind == "race":
        fd = sorted({d for _, f in fe for d in DIRS if f.get(d, (0,))[0] > 0})
        idr = sorted({d for _, i in ie for d in DIRS if i.get(d, (0,))[0] > 0})
        return [] if fd == idr else ["directions of all jobs: fio %s, iogauge %s" % (fd, idr)]
    for (job, f), (_, i) in zip(fe, ie):
        fd = sorted(d for d in DIRS if f.get(d, (0,))[0] > 0)
        idr = sorted(d for d in DIRS if i.get(d, (0,))[0] > 0)
        if fd != idr:
            bad.append("[%s] directions: fio %s, iogauge %s" % (job, fd, idr))
            continue
        if not fd:
            bad.append("[%s] no I/O in either tool" % job)
        if kind in ("size", "size+rate"):
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
        if kind in ("rate", "poisson", "size+rate"):
            for d in fd:
                a, b = f[d][2], i[d][2]
                if kind != "poisson":
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


def setup_scratch(slots):
    """([(folder, device path)] per slot, cleanup) for the runs: a tmpfs and
    per slot a folder and a loop device over a file on it when root, else
    temporary folders and plain files.  A slot is what one run uses."""
    tmp = tempfile.mkdtemp(prefix="fio_examples.")
    undo = [lambda: shutil.rmtree(tmp, ignore_errors=True)]
    mounted = False
    if os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=768m", "tmpfs",
                                             tmp]).returncode == 0:
        mounted = True
        undo.insert(0, lambda: subprocess.run(["umount", tmp]))
    res = []
    for n in range(slots):
        img = os.path.join(tmp, "dev%d.img" % n)
        with open(img, "wb") as f:
            f.truncate(DEV_BYTES)
        dev = img
        if mounted:
            p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
            if p.returncode == 0:
                dev = p.stdout.strip()
                undo.insert(0, lambda d=dev: subprocess.run(["losetup", "-d", d]))
        data = os.path.join(tmp, "data%d" % n)
        os.mkdir(data)
        res.append((data, dev))

    def cleanup():
        for u in undo:
            u()
    return res, cleanup


def one_tool(name, tool, caps, slot, jobs, timeout):
    """Runs example @name (its file: the part before any "@") with @tool
    in @slot, from no files: (exit status, JSON or None, error text,
    {file: contents} of the SAME_FILES it left, seconds)."""
    data, dev = slot
    src = os.path.join(EXAMPLES_DIR, name.split("@")[0] + ".fio")

    def here(v):
        return v.replace(DIR, data).replace(DEV, dev)
    caps = {k: (lambda old, f=v: here(f(old))) if callable(v) else here(v)
            for k, v in caps.items()}
    if tool == FIO:
        caps = dict(caps, **FIO_ONLY.get(name, {}))
    job = os.path.join(jobs, "%s.%s.%s.fio" % (name, os.path.basename(tool), os.path.basename(data)))
    capped(src, job, caps)
    for f in os.listdir(data):
        p = os.path.join(data, f)
        shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
    if name in SETUP:
        SETUP[name](data, dev)
    t0 = time.monotonic()
    rc, doc, err = run(tool, job, data, timeout)
    secs = time.monotonic() - t0
    files = {}
    for f in SAME_FILES.get(name, ()):
        try:
            with open(os.path.join(data, f)) as fp:
                files[f] = fp.read()
        except OSError as e:
            files[f] = "(%s)" % e.strerror
        if f.startswith("iolog."):
            # An iolog: its I/Os (action, offset, length), not its times.
            files[f] = [tuple(w[2:5]) for w in (line.split() for line in files[f].splitlines())
                        if len(w) == 5 and w[2] in ("read", "write", "trim")]
    return rc, doc, err, files, secs


def judge(name, kind, fres, ires):
    """(passed, what happened) from both tools' runs of example @name."""
    (frc, fdoc, ferr, ffiles, _), (irc, idoc, ierr, ifiles, _) = fres, ires
    if kind.startswith("refused:"):
        # Both refuse the job before any I/O; iogauge as bad input, at
        # the option's file:line.
        opt = kind.split(":", 1)[1]
        bad = []
        if frc in (0, -1) or opt not in ferr:
            bad.append("fio exit %d, not a refusal naming %s: %s" % (frc, opt, ferr.strip()[-300:]))
        if irc != 2 or not re.search(r"\.fio:\d+: .*%s=" % re.escape(opt), ierr):
            bad.append("iogauge exit %d, not 2 with file:line and %s=: %s" %
                       (irc, opt, ierr.strip()[-300:]))
        text = "fio exit %d: %s | iogauge exit %d: %s" % (
            frc, " ".join(l for l in ferr.splitlines() if opt in l)[:200],
            irc, " ".join(l for l in ierr.splitlines() if opt in l)[:200])
        return not bad, "; ".join(bad) + (" -- " if bad else "") + text
    if irc != 0 or idoc is None:
        return False, "iogauge exit %d: %s" % (irc, ierr.strip()[-300:])
    if frc != 0 or fdoc is None:
        return False, "fio exit %d: %s" % (frc, ferr.strip()[-300:])
    bad = compare(name, kind, fdoc, idoc)
    for f in SAME_FILES.get(name, ()):
        if ffiles[f] != ifiles[f]:
            bad.append("%s: fio left %r, iogauge %r" % (f, ffiles[f][:12], ifiles[f][:12]))
    text = "fio: %s | iogauge: %s" % (summary(fdoc), summary(idoc))
    return not bad, "; ".join(bad) + (" -- " if bad else "") + text


def main():
    if not FIO or not os.path.isdir(EXAMPLES_DIR):
        print("SKIP: fio or %s missing" % EXAMPLES_DIR)
        sys.exit(77)
    only = sys.argv[1:]
    present = {f[:-4] for f in os.listdir(EXAMPLES_DIR) if f.endswith(".fio")}
    base = {n.split("@")[0] for n in EXAMPLES}
    listed = base | set(NOT_YET) | set(OUT_OF_SCOPE) | FIO_REFUSES
    check(base.isdisjoint(NOT_YET) and set(NOT_YET) == set(NOT_YET_CAPS),
          "EXAMPLES, NOT_YET and NOT_YET_CAPS disagree")
    check(present == listed, "examples not sorted into a list: %s; listed but absent: %s" %
          (sorted(present - listed), sorted(listed - present)))
    check(len(base) + len(NOT_YET) == 42, "in scope: %d, not 42" % (len(base) + len(NOT_YET)))
    # name -> (caps, check, why, timeout); a not-yet one is capped to run in
    # seconds: 30 s is a hang, not a run.
    todo = {n: e + (120,) for n, e in EXAMPLES.items()}
    todo.update({n: (NOT_YET_CAPS[n], "run", None, 30) for n in NOT_YET})
    names = sorted(n for n in todo if not only or n in only or n.split("@")[0] in only)
    slots, cleanup = setup_scratch(SLOTS)
    jobs = tempfile.mkdtemp(prefix="fio_examples_jobs.")
    res = {}
    t0 = time.monotonic()
    try:
        # Where only counts and directions are compared, the runs share the
        # machine: each tool's run of an example is a task, SLOTS at a time.
        # Where a rate is compared, each run has the machine to itself.
        free = queue.Queue()
        for sl in slots:
            free.put(sl)

        def task(name, tool):
            sl = free.get()
            try:
                caps, _, _, timeout = todo[name]
                res[name, tool] = one_tool(name, tool, caps, sl, jobs, timeout)
            finally:
                free.put(sl)
        # The ones that run for a time first, so that no long one is left
        # to run alone at the end.
        shared = sorted((n for n in names if todo[n][1] not in ALONE),
                        key=lambda n: (todo[n][1] != "time", n))
        with concurrent.futures.ThreadPoolExecutor(SLOTS) as pool:
            for f in [pool.submit(task, n, t) for n in shared for t in (BIN, FIO)]:
                f.result()
        for n in names:
            if todo[n][1] in ALONE:
                for t in (BIN, FIO):
                    task(n, t)
    finally:
        shutil.rmtree(jobs, ignore_errors=True)
        cleanup()
    for name in names:
        caps, kind, why, _ = todo[name]
        ok, what = judge(name, kind, res[name, FIO], res[name, BIN])
        secs = "fio %.1f s, iogauge %.1f s" % (res[name, FIO][4], res[name, BIN][4])
        if why is not None:
            print("%-28s %s  [%s; %s] (%s)" % (name, "ok  " if ok else "FAIL", kind, why, secs))
            print("    " + what)
            check(ok, "%s: %s" % (name, what))
        else:
            print("%-28s %s  [not yet: %s]" % (name, "PASSES" if ok else "no", NOT_YET[name]))
            if ok:
                print("    " + what)
            check(not ok, "%s runs now: move it from NOT_YET to EXAMPLES with its caps" % name)
    print("%d examples in %.1f s, %d runs at a time where no rate is compared" %
          (len(names), time.monotonic() - t0, SLOTS))
    finish("fio_examples")


if __name__ == "__main__":
    main()
