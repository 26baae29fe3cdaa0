#!/usr/bin/env python3
# Where the I/O goes: zonemode=strided, zonesize, zonerange, zoneskip,
# random_generator, percentage_random, bs_is_seq_rand, rw=randread:N and
# rw_sequencer, allrandrepeat, offset_align, bs_unaligned.  The offsets iogauge issues, from its clat log with
# log_offset=1, against fio 3.33's on the same job file and the same file
# in the same run (in order when sequential or lfsr; as zones and counts
# per zone when random), and the refusals.
# One line per failure, then "offsets: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN.
import glob
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")
DIRS = {}  # (tool, clone): the directions of the last run's I/Os, in order
LENS = {}  # tool: the sizes of the last run's I/Os (its last clone's)


def offsets(tool, tmp, body):
    """Runs @tool on a job over tmp/f.dat with @body; the offsets of each
    clone's clat log, in order: {clone: [offset, ...]}, or None on failure."""
    for f in glob.glob(os.path.join(tmp, "z_*.log")):
        os.unlink(f)
    path = os.path.join(tmp, "j.fio")
    with open(path, "w") as f:
        f.write("[z]\nfilename=%s/f.dat\nwrite_lat_log=z\nlog_offset=1\n%s" % (tmp, body))
    p = subprocess.run([tool, "--output=%s/out.txt" % tmp, path], cwd=tmp, capture_output=True,
                       text=True, timeout=120)
    if not check(p.returncode == 0, "%s %r: exit %d %s" % (os.path.basename(tool), body,
                                                          p.returncode, p.stderr[-300:])):
        return None
    got = {}
    for log in sorted(glob.glob(os.path.join(tmp, "z_clat.*.log"))):
        with open(log) as f:
            rows = [line.split(",") for line in f if line.strip()]
        got[int(log.split(".")[-2])] = [int(r[4]) for r in rows]
        DIRS[(tool, int(log.split(".")[-2]))] = [int(r[2]) for r in rows]
        LENS[tool] = [int(r[3]) for r in rows]
    return got


def zones(offs, span):
    """Per clone, the zones touched (offset // span) and the I/Os in each."""
    out = {}
    for c, v in offs.items():
        d = {}
        for o in v:
            d[o // span] = d.get(o // span, 0) + 1
        out[c] = d
    return out


def same(tmp, body, span=None):
    ig = offsets(BIN, tmp, body)
    if ig is None or not FIO:
        return ig
    fio = offsets(FIO, tmp, body)
    if fio is None:
        return ig
    if span:
        check(zones(ig, span) == zones(fio, span), "%r: zones %s, fio %s" %
              (body, zones(ig, span), zones(fio, span)))
    else:
        check(ig == fio, "%r: offsets %s, fio %s" % (body, ig, fio))
        for c in ig:
            check(DIRS.get((BIN, c)) == DIRS.get((FIO, c)), "%r: directions differ" % body)
    return ig


def refused(tmp, body, msg):
    path = os.path.join(tmp, "b.fio")
    with open(path, "w") as f:
        f.write("[b]\nfilename=%s/b.dat\nsize=4m\n%s" % (tmp, body))
    p = subprocess.run([BIN, path], cwd=tmp, capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and msg in p.stderr and "b.fio:" in p.stderr and not p.stdout and
          not os.path.exists(os.path.join(tmp, "b.dat")),
          "%r: exit %d %s" % (body, p.returncode, p.stderr[-300:]))


def lfsr(tmp):
    """random_generator=lfsr: fio's order, each block once per pass."""
    k = 1024
    got = same(tmp, "size=4m\nbs=4k\nrw=randread\nrandom_generator=lfsr\n")
    check(got and sorted(got[1]) == [i * 4 * k for i in range(1024)],
          "lfsr: not each block once: %s" % (got and sorted(got[1])[:8]))
    # Each clone's seed, directions drawn as fio's, seeds from randseed
    # without randrepeat, a second loop repeating the first, no map.
    same(tmp, "size=1m\nbs=4k\nrw=randwrite\nrandom_generator=lfsr\nnumjobs=3\n")
    same(tmp, "size=4m\nbs=4k\nrw=randrw\nrandom_generator=lfsr\n")
    same(tmp, "size=4m\nbs=64k\nrw=randread\nrandom_generator=lfsr\nrandrepeat=0\n"
         "randseed=1234\n")
    got = same(tmp, "size=2m\nbs=4k\nrw=randread\nrandom_generator=lfsr\nloops=2\n")
    check(got and got[1][:512] == got[1][512:], "lfsr loops=2: the second pass differs")
    same(tmp, "size=1m\nbs=4k\nrw=randread\nrandom_generator=lfsr\nnorandommap=1\n")
    same(tmp, "size=7k\nbs=1k\nrw=randread\nrandom_generator=lfsr\n")
    # percentage_random: fio's draws of which I/Os are sequential, each
    # after its direction's last; none random at 0.
    same(tmp, "size=4m\nbs=4k\nrw=randread\nrandom_generator=lfsr\npercentage_random=50\n")
    same(tmp, "size=4m\nbs=4k\nrw=randrw\nrandom_generator=lfsr\npercentage_random=30,80\n")
    got = same(tmp, "size=4m\nbs=4k\nrw=randread\npercentage_random=0\n")
    check(got and got[1] == [i * 4 * k for i in range(1024)], "percentage_random=0: %s"
          % (got and got[1][:4]))
    # bs_is_seq_rand: a sequential job's writes take the read size; a
    # random one's sequential I/Os the read size, its random ones the write
    # size (one size here: fio cuts a random job with two short).
    got = same(tmp, "size=4m\nbs=4k,64k\nrw=write\nbs_is_seq_rand=1\n")
    check(got and len(got[1]) == 1024, "bs_is_seq_rand write: %s I/Os" % (got and len(got[1])))
    same(tmp, "size=4m\nbs=64k,4k\nrw=read\nbs_is_seq_rand=1\n")
    same(tmp, "size=4m\nbs=4k\nrw=randrw\nrandom_generator=lfsr\nbs_is_seq_rand=1\n"
         "percentage_random=40\n")
    # rw=randread:N and rw_sequencer: the first of each N random, the
    # others after (or at) the last; fio ends the first job where a
    # sequential one would pass the region (169 I/Os).
    got = same(tmp, "size=1m\nbs=4k\nrw=randread:4\nrandom_generator=lfsr\n")
    check(got and len(got[1]) == 169 and got[1][1] == got[1][0] + 4 * k,
          "randread:4: %s" % (got and got[1][:4]))
    got = same(tmp, "size=1m\nbs=4k\nrw=randread:4\nrandom_generator=lfsr\n"
               "rw_sequencer=identical\n")
    check(got and got[1][0] == got[1][1] == got[1][2] == got[1][3],
          "identical: %s" % (got and got[1][:4]))
    same(tmp, "size=1m\nbs=4k\nrw=randrw:3\nrandom_generator=lfsr\npercentage_random=50\n")
    # allrandrepeat: fio's fixed seeds for the mix (and the offsets
    # without randrepeat): other directions than without it.
    same(tmp, "size=1m\nbs=4k\nrw=randrw\nrandom_generator=lfsr\nallrandrepeat=1\n")
    with_all = DIRS[(BIN, 1)]
    same(tmp, "size=1m\nbs=4k\nrw=randrw\nrandom_generator=lfsr\n")
    check(with_all != DIRS[(BIN, 1)], "allrandrepeat: the same directions as without")
    same(tmp, "size=1m\nbs=4k\nrw=randrw\nrandom_generator=lfsr\nallrandrepeat=1\n"
         "randrepeat=0\n")
    same(tmp, "size=1m\nbs=4k\nrw=randrw\nrandom_generator=lfsr\nallrandrepeat=1\n"
         "percentage_random=50\n")
    # offset=N%, offset_increment=N%, offset_align: fio rounds the start up
    # (to the smallest block, or offset_align), clone by clone.
    with open(os.path.join(tmp, "f.dat"), "wb") as f:
        f.truncate(10000 * k)
    for body, want in (("offset=33%\nsize=1m\nbs=64k\n", [3407872]),
                       ("offset=33%\nsize=1m\nbs=64k\noffset_align=3000\n", [3381000]),
                       ("offset=10%\noffset_increment=17%\nnumjobs=3\nsize=512k\nbs=8k,4k\n"
                        "rw=rw\n", [1024000, 2764800, 4505600])):
        ig = offsets(BIN, tmp, body)
        got = sorted(min(v) for v in ig.values()) if ig else None
        check(got == want, "%r: starts %s, want %s" % (body, got, want))
        if FIO:
            fio = offsets(FIO, tmp, body)
            check(fio and sorted(min(v) for v in fio.values()) == want,
                  "%r: fio's starts %s" % (body, fio and sorted(min(v) for v in fio.values())))
    os.unlink(os.path.join(tmp, "f.dat"))
    # bs_unaligned: sizes of any byte count in the range; the job ends with
    # less than the smallest left, as fio's.
    for tool in [BIN] + ([FIO] if FIO else []):
        offsets(tool, tmp, "size=4m\nbsrange=1k-16k\nbs_unaligned\nrw=write\n")
        sizes = LENS.get(tool, [])
        check(len(sizes) > 100 and all(1024 <= n <= 16384 for n in sizes) and
              sum(1 for n in sizes if n % 1024) > len(sizes) // 2 and
              4 * 1024 * k - 1024 < sum(sizes) <= 4 * 1024 * k,
              "%s bs_unaligned: %d sizes, %d bytes" % (tool, len(sizes), sum(sizes)))
        os.unlink(os.path.join(tmp, "f.dat"))
    # In zones: the sequence restarts in each zone's span.
    same(tmp, "size=4m\nbs=4k\nrw=randread\nrandom_generator=lfsr\nzonemode=strided\n"
         "zonesize=256k\nzoneskip=768k\n")
    # tausworthe64: the same blocks, in iogauge's order.
    same(tmp, "size=1m\nbs=4k\nrw=randread\nrandom_generator=tausworthe64\n", span=4 * k)


def gaps(tmp):
    """rw=write:112k, bs=16k over 1m: a next offset past the region wraps
    only when it is past the file's size too (a file laid out to 1m: 64
    writes, the region eight times); in a file of 4m the pass ends there
    (8 writes, as fio's get_next_offset), once a loop."""
    k = 1024
    dat = os.path.join(tmp, "f.dat")
    for size, loops, n in ((0, 1, 64), (4096 * k, 1, 8), (4096 * k, 2, 16)):
        for tool in [BIN] + ([FIO] if FIO else []):
            if os.path.exists(dat):
                os.unlink(dat)
            if size:
                with open(dat, "wb") as f:
                    f.truncate(size)
            got = offsets(tool, tmp, "size=1m\nbs=16k\nrw=write:112k\nloops=%d\n" % loops)
            want = [i % 8 * 128 * k for i in range(n)]
            check(got == {1: want}, "%s rw=write:112k in a file of %d bytes, loops=%d: %s" %
                  (os.path.basename(tool), size, loops, got and {c: v[:10] for c, v in got.items()}))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-zones-")
    try:
        k = 1024
        base = "size=4m\nbs=64k\nzonemode=strided\n"
        # disk-zone-profile.fio's shape: 256k read in each 1m, four times
        # round the 4m file (size bytes in all), fio's order.
        got = same(tmp, base + "rw=read\nzonesize=256k\nzoneskip=768k\n")
        want = [z * 1024 * k + i * 64 * k for z in range(4) for i in range(4)] * 4
        check(got == {1: want}, "zonesize=256k zoneskip=768k: %s" % got)
        # zonerange wider than zonesize: the next zone is zonerange+zoneskip on.
        got = same(tmp, base + "rw=read\nzonesize=256k\nzonerange=512k\nzoneskip=256k\n")
        check(got and got[1][4] == 768 * k, "zonerange=512k: 5th I/O at %s"
              % (got and got[1][4]))
        # zonesize wider than zonerange: the span is gone over twice.
        got = same(tmp, base + "rw=read\nzonesize=512k\nzonerange=256k\nzoneskip=256k\n")
        check(got and got[1][:9] == [0, 64 * k, 128 * k, 192 * k] * 2 + [512 * k],
              "zonesize=512k zonerange=256k: %s" % (got and got[1][:9]))
        # A region at an offset, less than the file: zones past size, in the file.
        same(tmp, "size=1m\noffset=1m\nbs=64k\nzonemode=strided\nrw=read\nzonesize=256k\n"
             "zoneskip=512k\n")
        # A gap after each block, and writes by two clones apart.
        same(tmp, base + "rw=read:64k\nzonesize=256k\nzoneskip=256k\n")
        same(tmp, "size=1m\nbs=64k\nrw=write\nnumjobs=2\noffset_increment=2m\n"
             "zonemode=strided\nzonesize=128k\nzoneskip=128k\n")
        # The last zone passes the file's end: the job ends there (40 I/Os).
        got = same(tmp, base + "rw=read\nzonesize=768k\nzoneskip=512k\n")
        check(got and len(got[1]) == 40, "zone past the end: %s I/Os" % (got and len(got[1])))
        # Random: the same zones, each I/O's count, every block once per zone.
        got = same(tmp, "size=4m\nbs=4k\nzonemode=strided\nrw=randread\nzonesize=256k\n"
                   "zoneskip=768k\n", span=256 * k)
        check(got and sorted(set(got[1])) == sorted(z * 1024 * k + i * 4 * k for z in range(4)
                                                    for i in range(64)),
              "randread in zones: %s" % (got and sorted(set(got[1]))[:8]))
        same(tmp, "size=4m\nbs=4k\nzonemode=strided\nrw=randread\nzonesize=512k\n"
             "zonerange=256k\nzoneskip=256k\n", span=4 * k)
        lfsr(tmp)
        gaps(tmp)
        refused(tmp, "bs=64k,4k\nrw=randread\nbs_is_seq_rand=1\n", "one fixed block size")
        refused(tmp, "bsrange=1k-16k\nbs_unaligned\ndirect=1\n", "direct=1 cannot")
        refused(tmp, "zonemode=strided\n", "zonemode=strided needs zonesize=")
        refused(tmp, "zonesize=1m\n", "needs zonemode=strided")
        refused(tmp, "zonemode=zbd\n", "zoned block devices")
        refused(tmp, "zonemode=strided\nzonesize=1m\nzonerange=2k\n", "smaller than the block")
        refused(tmp, "zonemode=strided\nzonesize=1m\nzoneskip=2z\n", "zoneskip")
        refused(tmp, "zonemode=strided\nzonesize=1m\nrw=randread\nrandom_distribution=zipf:1.2\n",
                "random_distribution=random")
    finally:
        shutil.rmtree(tmp)
    finish("offsets")


main()
