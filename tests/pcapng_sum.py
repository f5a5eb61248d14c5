#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""pcapng_sum.py FILE - summarise a pcapng capture, checked independently of
DPDK: prints "in N pkts B bytes", "out N pkts B bytes" (by the EPB flags'
direction), "unknown N pkts B bytes", and "truncated N" (captured length
shorter than the frame)."""
import struct
import sys


def main(path):
    data = open(path, "rb").read()
    off, endian = 0, "<"
    sums = {1: [0, 0], 2: [0, 0], 0: [0, 0]}
    truncated = 0
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from(endian + "II", data, off)
        if btype == 0x0A0D0D0A:  # section header: learn the byte order
            magic = struct.unpack_from("<I", data, off + 8)[0]
            endian = "<" if magic == 0x1A2B3C4D else ">"
            btype, blen = struct.unpack_from(endian + "II", data, off)
        if blen < 12 or off + blen > len(data):
            sys.exit("corrupt block at offset %d" % off)
        if btype == 6:  # enhanced packet block
            caplen, origlen = struct.unpack_from(endian + "II", data, off + 20)
            opt = off + 28 + (caplen + 3) // 4 * 4
            direction = 0
            while opt + 4 <= off + blen - 4:
                code, olen = struct.unpack_from(endian + "HH", data, opt)
                if code == 0:
                    break
                if code == 2 and olen == 4:
                    direction = struct.unpack_from(endian + "I", data, opt + 4)[0] & 3
                opt += 4 + (olen + 3) // 4 * 4
            sums[direction][0] += 1
            sums[direction][1] += origlen
            truncated += caplen < origlen
        off += blen
    for name, d in (("in", 1), ("out", 2), ("unknown", 0)):
        print("%s %d pkts %d bytes" % (name, sums[d][0], sums[d][1]))
    print("truncated %d" % truncated)


if __name__ == "__main__":
    main(sys.argv[1])
