#!/usr/bin/env python3
# Workload options, each checked by its effect on a real file, not only by
# being parsed: what the writes put on disk (buffer contents).  fio runs the
# same job files where the comparison says something.  One line per
# failure, then "workload: N passed, M failed".
#
# Environment (set by CTest): IOGAUGE_BIN, IOGAUGE_SRC.
import os
import shutil
import subprocess
import tempfile
import zlib

from clitest import check, finish

BIN = os.path.abspath(os.environ["IOGAUGE_BIN"])
FIO = shutil.which("fio")


def run(tool, job, tmp):
    path = os.path.join(tmp, "job.fio")
    with open(path, "w") as f:
        f.write(job)
    p = subprocess.run([tool, path], cwd=tmp, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def written(tool, tmp, opts, size=4 << 20, bs="64k"):
    """The bytes a sequential write job leaves in a fresh file."""
    path = os.path.join(tmp, "w.dat")
    if os.path.exists(path):
        os.unlink(path)
    rc, out = run(tool, "[w]\nfilename=%s\nsize=%d\nbs=%s\nrw=write\n%s" % (path, size, bs, opts),
                  tmp)
    if not check(rc == 0, "%s %r: exit %d %s" % (os.path.basename(tool), opts, rc, out[-300:])):
        return b""
    with open(path, "rb") as f:
        return f.read()


def blocks(data, n):
    return [data[i:i + n] for i in range(0, len(data), n)]


def ratio(data):
    """Compressed size over size, in percent (zlib level 6)."""
    return 100.0 * len(zlib.compress(data, 6)) / len(data) if data else 0.0


def buffers(tmp):
    # Default: random (incompressible) and, with scramble_buffers, no two
    # 512-byte blocks alike, though the buffer is reused.
    d = written(BIN, tmp, "")
    check(len(set(blocks(d, 512))) == len(d) // 512, "default: %d distinct 512-byte blocks of %d"
          % (len(set(blocks(d, 512))), len(d) // 512))
    check(ratio(d) > 99, "default: compresses to %.1f%%" % ratio(d))
    # scramble_buffers=0: the one buffer written over and over (dedupable).
    d = written(BIN, tmp, "scramble_buffers=0\n")
    check(len(set(blocks(d, 65536))) == 1, "scramble_buffers=0: %d distinct 64 KiB blocks"
          % len(set(blocks(d, 65536))))
    # refill_buffers: new random contents for each write, not just stamps:
    # two writes share hardly a byte at the same place.
    d = written(BIN, tmp, "refill_buffers=1\nscramble_buffers=0\n")
    b = blocks(d, 65536)
    same = sum(x == y for x, y in zip(b[0], b[1]))
    check(len(set(b)) == len(b) and same < 65536 // 64,
          "refill_buffers: %d distinct of %d, %d equal bytes in blocks 0 and 1" %
          (len(set(b)), len(b), same))
    d = written(BIN, tmp, "zero_buffers=1\n")
    check(len(d) == 4 << 20 and d.count(0) == len(d), "zero_buffers: %d non-zero bytes" %
          (len(d) - d.count(0)))
    # buffer_compress_percentage=P: compresses to about (100 - P)%, as fio's.
    for pct in (25, 50, 75, 90):
        d = written(BIN, tmp, "buffer_compress_percentage=%d\n" % pct)
        got = ratio(d)
        check(abs(got - (100 - pct)) <= 5, "buffer_compress_percentage=%d: compresses to %.1f%%"
              % (pct, got))
        check(len(set(blocks(d, 65536))) == len(d) // 65536,
              "buffer_compress_percentage=%d: writes repeat (refill is implied)" % pct)
        if FIO:
            f = written(FIO, tmp, "buffer_compress_percentage=%d\n" % pct)
            check(abs(ratio(f) - got) <= 3, "buffer_compress_percentage=%d: fio %.1f%%, iogauge "
                  "%.1f%%" % (pct, ratio(f), got))
    # buffer_compress_chunk: the stretch length.  At 4 KiB and 50%, each 4 KiB
    # is 2 KiB random then 2 KiB of zeros.
    d = written(BIN, tmp, "buffer_compress_percentage=50\nbuffer_compress_chunk=4096\n")
    zero_half = all(x[2048:] == bytes(2048) and x[:2048].count(0) < 64 for x in blocks(d, 4096))
    check(zero_half, "buffer_compress_chunk=4096: not 2 KiB random then 2 KiB zeros")
    # sub_blocks: the pieces are what is written, refilled and scrambled too.
    for mode in ("scatter", "copy"):
        d = written(BIN, tmp, "sub_blocks=4\nsub_block_io=%s\n" % mode)
        check(len(set(blocks(d, 512))) == len(d) // 512,
              "sub_blocks=4 (%s): %d distinct 512-byte blocks of %d" %
              (mode, len(set(blocks(d, 512))), len(d) // 512))
        d = written(BIN, tmp, "sub_blocks=4\nsub_block_io=%s\nbuffer_compress_percentage=50\n"
                    % mode)
        check(abs(ratio(d) - 50) <= 5, "sub_blocks=4 (%s), 50%%: compresses to %.1f%%" %
              (mode, ratio(d)))
    # Bad values: exit 2, named.
    for opt, msg in (("buffer_compress_percentage=101", "buffer_compress_percentage"),
                     ("buffer_compress_chunk=0", "buffer_compress_chunk")):
        rc, out = run(BIN, "[w]\nfilename=%s/b.dat\nsize=1m\nrw=write\n%s\n" % (tmp, opt), tmp)
        check(rc == 2 and msg in out and not os.path.exists(os.path.join(tmp, "b.dat")),
              "%s: exit %d %s" % (opt, rc, out[-200:]))


def main():
    tmp = tempfile.mkdtemp(prefix="iogauge-workload-")
    try:
        buffers(tmp)
    finally:
        shutil.rmtree(tmp)
    finish("workload")


if __name__ == "__main__":
    main()
