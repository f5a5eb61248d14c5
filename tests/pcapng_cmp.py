#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""pcapng_cmp.py [--prefix] CAPTURE [IFACE:DIR=RECORD]... - check a pcapng
capture against the frames that were sent, independently of xcable's code.

CAPTURE is read block by block: its interfaces (IDB if_name), its frames
(EPB: interface, inbound/outbound flag, bytes, length) and its statistics
(ISB). Each IFACE:DIR=RECORD (DIR: in or out) names a pcap file (xcpeer
--record, or tcpdump -w) whose frames must be, in order and byte for byte,
the frames of that interface and direction in CAPTURE (with --prefix: the
first ones of them, a capture that stopped at a count); RECORD "-" means
none. IFACE is an interface's name, or #N for the Nth (a capture that
Wireshark rewrote, naming them its way). Every frame of CAPTURE must
belong to an IFACE:DIR that was named.
Prints one line per interface and direction, then the statistics of each
interface ("stats IFACE recv N drop N accepted N delivered N comment C"),
and exits 1 on the first mismatch."""
import struct
import sys


def read_pcapng(path):
    data = open(path, "rb").read()
    off, names, frames, stats = 0, [], [], {}
    while off + 12 <= len(data):
        btype, blen = struct.unpack_from("<II", data, off)
        if blen < 12 or off + blen > len(data):
            sys.exit("%s: corrupt block at offset %d" % (path, off))
        body = data[off + 8:off + blen - 4]
        if btype == 1:  # interface description: its options
            name, o = None, 8
            while o + 4 <= len(body):
                code, olen = struct.unpack_from("<HH", body, o)
                if code == 0:
                    break
                if code == 2:
                    name = body[o + 4:o + 4 + olen].decode()
                o += 4 + (olen + 3) // 4 * 4
            names.append(name)
        elif btype == 6:  # enhanced packet
            ifid, _, _, caplen, origlen = struct.unpack_from("<IIIII", body, 0)
            pkt = body[20:20 + caplen]
            o, flags = 20 + (caplen + 3) // 4 * 4, 0
            while o + 4 <= len(body):
                code, olen = struct.unpack_from("<HH", body, o)
                if code == 0:
                    break
                if code == 2:
                    flags = struct.unpack_from("<I", body, o + 4)[0]
                o += 4 + (olen + 3) // 4 * 4
            frames.append((ifid, {1: "in", 2: "out"}.get(flags & 3, "?"), pkt, origlen))
        elif btype == 5:  # interface statistics
            ifid = struct.unpack_from("<I", body, 0)[0]
            s, o = {"comment": ""}, 12
            while o + 4 <= len(body):
                code, olen = struct.unpack_from("<HH", body, o)
                if code == 0:
                    break
                v = body[o + 4:o + 4 + olen]
                if code in (4, 5, 6, 8) and olen == 8:
                    s[{4: "recv", 5: "drop", 6: "accepted", 8: "delivered"}[code]] = struct.unpack("<Q", v)[0]
                if code == 1:
                    s["comment"] = v.decode()
                o += 4 + (olen + 3) // 4 * 4
            stats[ifid] = s
        off += blen
    if off != len(data):
        sys.exit("%s: %d bytes after the last whole block" % (path, len(data) - off))
    return names, frames, stats


def read_pcap(path):
    if path == "-":
        return []
    data = open(path, "rb").read()
    magic = struct.unpack_from("<I", data, 0)[0]
    e = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off, out = 24, []
    while off + 16 <= len(data):
        _, _, caplen, origlen = struct.unpack_from(e + "IIII", data, off)
        out.append(data[off + 16:off + 16 + caplen])
        off += 16 + caplen
    return out


def main(argv):
    prefix = len(argv) > 1 and argv[1] == "--prefix"
    if prefix:
        argv = argv[1:]
    names, frames, stats = read_pcapng(argv[1])
    want, ok = {}, True
    for a in argv[2:]:
        key, rec = a.split("=", 1)
        want[key] = read_pcap(rec)
    got = {}
    by_number = any(k.startswith("#") for k in want)
    for ifid, d, pkt, origlen in frames:
        if ifid >= len(names):
            print("FAIL frame of interface %d, which has no description" % ifid)
            return 1
        name = "#%d" % ifid if by_number else names[ifid]
        got.setdefault("%s:%s" % (name, d), []).append((pkt, origlen))
    for key in sorted(set(got) | set(want)):
        g, w = got.get(key, []), want.get(key)
        if w is None:
            print("FAIL %s: %d frames nobody sent that way" % (key, len(g)))
            ok = False
            continue
        # a frame kept whole, or its first bytes (a snap length), and its
        # length said
        bad = next((i for i in range(min(len(g), len(w)))
                    if g[i][0] != w[i][:len(g[i][0])] or g[i][1] != len(w[i])), None)
        cut = sum(len(p) < n for p, n in g)
        if bad is None and (len(g) == len(w) or (prefix and len(g) < len(w))):
            print("%s: %d frames, byte for byte those sent%s%s" %
                  (key, len(g), " first (of %d)" % len(w) if prefix else "",
                   ", %d cut at the snap length" % cut if cut else ""))
            continue
        print("FAIL %s: %d frames captured, %d sent; first difference at frame %s" %
              (key, len(g), len(w), bad if bad is not None else min(len(g), len(w))))
        ok = False
    for ifid, name in enumerate(names):
        s = stats.get(ifid)
        if s is None:
            print("stats %s none" % name)
        else:
            print("stats %s recv %d drop %d accepted %d delivered %d comment %s" %
                  (name, s.get("recv", 0), s.get("drop", 0), s.get("accepted", 0),
                   s.get("delivered", 0), s["comment"] or "-"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
