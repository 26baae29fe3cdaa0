#!/usr/bin/env python3
"""Same behaviour, for a refactor: bench/same.py OLD_IOGAUGE NEW_IOGAUGE.
Runs deterministic jobs with both binaries and compares what they did: I/O
counts and bytes per direction, the sha256 of every file written, and every
I/O's offset, size and direction (from the latency logs); and the lines of
--parse-only for fio's example job files.  What differs between two runs of
the old binary itself (buffer reuse order at depth) is left out.  Exits 1
when anything differs."""
import glob, hashlib, json, os, subprocess, sys, tempfile

A, B = sys.argv[1], sys.argv[2]
CASES = [
    "--rw=randwrite --bs=4k --size=4m",
    "--rw=write --bs=64k --size=8m --ioengine=libaio --iodepth=8 --direct=1",
    "--rw=randrw --rwmixread=30 --bs=4k --size=4m --ioengine=io_uring --iodepth=16",
    "--rw=randwrite --bsrange=4k-64k --size=8m --ioengine=sync",
    "--rw=randwrite --bssplit=4k/50:16k/30:64k/20 --size=8m",
    "--rw=randwrite --random_distribution=zipf:1.2 --bs=4k --size=4m --number_ios=800",
    "--rw=randwrite --random_distribution=zoned:50/10:50/90 --bs=4k --size=4m --number_ios=900",
    "--rw=write --bs=4k --size=2m --verify=crc32c --do_verify=1",
    "--rw=randwrite --bs=8k --size=4m --verify=md5 --verify_pattern=0x5a5a",
    "--rw=rw --bs=4k,64k --size=8m --ioengine=null",
    "--rw=randwrite --bs=4k --size=4m --nrfiles=4 --file_service_type=random",
    "--rw=randwrite --bs=4k --size=4m --offset=1m --numjobs=3 --group_reporting",
    "--rw=write --bs=4k --size=4m --ioengine=mmap",
    "--rw=randwrite --bs=4k --size=4m --percentage_random=40 --randseed=77",
    "--rw=randwrite:4 --bs=4k --size=4m --zero_buffers",
    "--rw=write --bs=16k --size=4m --buffer_compress_percentage=50 --refill_buffers",
    "--rw=randtrim --bs=64k --size=4m",
    "--rw=randread --bs=4k --size=4m --norandommap --randrepeat=1",
]

def run(binary, args, d):
    os.makedirs(d, exist_ok=True)
    p = subprocess.run([binary, "--name=c", f"--directory={d}", "--output-format=json",
                        f"--write_lat_log={d}/log", "--log_offset=1"] + args.split(),
                       capture_output=True, text=True, cwd=d)
    out = {"rc": p.returncode}
    if p.returncode:
        out["err"] = p.stderr.strip()
        return out
    j = json.loads(p.stdout)
    out["jobs"] = [(x["jobname"], [(x[k]["total_ios"], x[k]["io_bytes"]) for k in ("read", "write", "trim")])
                   for x in j["jobs"]]
    files = {}
    logs = []
    for f in sorted(os.listdir(d)):
        path = os.path.join(d, f)
        if f.startswith("log"):
            offs = sorted((l.split(",")[2].strip(), l.split(",")[3].strip(), l.split(",")[4].strip())
                          for l in open(path) if l.strip())
            logs.append((f, hashlib.sha256(repr(offs).encode()).hexdigest()[:16], len(offs)))
        else:
            files[f] = hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]
    out["files"], out["logs"] = files, logs
    return out

bad = 0
with tempfile.TemporaryDirectory(dir="/tmp") as t:
    for i, c in enumerate(CASES):
        ra = run(A, c, f"{t}/a{i}")
        ra2 = run(A, c, f"{t}/c{i}")
        rb = run(B, c, f"{t}/b{i}")
        # What differs between two runs of the same binary (buffer reuse
        # order at depth) is not compared.
        for k in list(ra):
            if ra.get(k) != ra2.get(k):
                ra.pop(k)
                rb.pop(k, None)
        same = ra == rb
        bad += not same
        print(("same " if same else "DIFF ") + c)
        if not same:
            print("  a:", ra)
            print("  b:", rb)
    for f in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "fio-examples", "*.fio"))):
        pa = subprocess.run([A, "--parse-only", f], capture_output=True, text=True)
        pb = subprocess.run([B, "--parse-only", f], capture_output=True, text=True)
        # The lines, not their order: a refactor may list options otherwise.
        same = (pa.returncode, sorted(pa.stdout.splitlines()), pa.stderr) == \
            (pb.returncode, sorted(pb.stdout.splitlines()), pb.stderr)
        bad += not same
        print(("same " if same else "DIFF ") + "--parse-only " + os.path.basename(f))
print(f"{len(CASES)} jobs and the example files compared; {bad} differ")
sys.exit(1 if bad else 0)
