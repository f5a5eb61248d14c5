#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/ramcmp.py - the pages in which two images of a guest's RAM differ

    ramcmp.py SOURCE DESTINATION [DUMP]

SOURCE and DESTINATION are the RAM files (memory-backend-file) of a
migrated guest's two QEMUs, read once both are stopped: the source after
its last pass, the destination before it runs (started with -S). Any 4 KiB
page that differs is one the move left stale. Prints one line:

    stale_pages=N bytes=N size=S/S first=ADDR,...

(the guest physical addresses, for a pc machine's RAM below 4 GB, of the
first 8 such pages). DUMP, if given, receives each stale page: its address
(8 bytes, little-endian), then the source's 4 KiB, then the destination's.
Exit status 0 when the images are equal, 1 when they differ, 2 on a usage
or file error.
"""
import mmap
import sys

PAGE = 4096
CHUNK = 1 << 20


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        files = [open(p, "rb") for p in argv[1:3]]
        ma, mb = (mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ) for f in files)
    except (OSError, ValueError) as e:
        print("ramcmp: %s" % e, file=sys.stderr)
        return 2
    n = min(len(ma), len(mb))
    pages, nbytes = [], 0
    for off in range(0, n, CHUNK):
        end = min(off + CHUNK, n)
        if ma[off:end] == mb[off:end]:
            continue
        for p in range(off, end, PAGE):
            x, y = ma[p:p + PAGE], mb[p:p + PAGE]
            if x != y:
                pages.append(p)
                nbytes += sum(1 for i in range(len(x)) if x[i] != y[i])
    if len(argv) == 4 and pages:
        with open(argv[3], "wb") as d:
            for p in pages:
                d.write(p.to_bytes(8, "little") + ma[p:p + PAGE] + mb[p:p + PAGE])
    print("stale_pages=%d bytes=%d size=%d/%d first=%s" % (
        len(pages), nbytes, len(ma), len(mb),
        ",".join(hex(p) for p in pages[:8]) or "-"))
    return 0 if not pages and len(ma) == len(mb) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
