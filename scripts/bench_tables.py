# SPDX-License-Identifier: BSD-3-Clause
"""bench_tables - the tables and plots of benchmark records

What scripts/bench-report draws, for one run's summary and for the
documentation page alike: each function takes the records (a Recs) and
the forwarders to show, and returns Markdown lines (a table, with the
sentence that says what its columns are) or writes a PNG with gnuplot.
Values are medians over the rounds with min-max beside them.
"""
import os
import re
import shutil
import statistics
import subprocess

# the references xcable is compared with, as scripts/bench names them
REFERENCES = ("testpmd", "ovs-dpdk", "ovs-dpdk-tso", "tap-bridge", "qemu-stream")
GOODPUT_TESTS = ("tcp-tso-pass", "tcp-tso-segment", "tcp-no-offload")
VM_TCP = (("tcp1_a2b_gbps", "TCP 1 A→B"), ("tcp1_b2a_gbps", "TCP 1 B→A"),
          ("tcp4_a2b_gbps", "TCP 4 A→B"), ("tcp4_b2a_gbps", "TCP 4 B→A"))


class Recs:
    """Recs - the records of one run (or of merged runs), normalised"""

    def __init__(self, recs):
        """__init__() - RECS, with what older records lack filled in"""
        for r in recs:
            # scale records of older runs had no level
            if "level" not in r and r.get("kind") in ("idle", "busy"):
                r["level"] = "scale"
            r.setdefault("forwarder", "xcable")
            # payload bytes per frame the receiver got (older records: derived)
            if (r.get("test", "").startswith("tcp-") and "payload_per_frame" not in r
                    and r.get("frames")):
                secs = r.get("env", {}).get("params", {}).get("seconds")
                if secs:
                    r["payload_per_frame"] = round(r["gbps"] * 1e9 / 8 * secs / r["frames"])
            # a receiver without offloads must get segments of at most the
            # MSS: bigger frames are a forwarder that did not segment
            r["unsegmented"] = (r.get("test") == "tcp-tso-segment"
                                and (r.get("payload_per_frame") or 0) > 1448)
        self.recs = recs

    def fwds(self, level=None, test_prefix=""):
        """fwds() - forwarders with records (of LEVEL, of tests starting
        with TEST_PREFIX), in the order first met"""
        out = []
        for r in self.recs:
            if level and r["level"] != level:
                continue
            if test_prefix and not r.get("test", "").startswith(test_prefix):
                continue
            if r["forwarder"] not in out:
                out.append(r["forwarder"])
        return out

    def sel(self, level, fwd, test=None):
        """sel() - the records of one forwarder at LEVEL (and TEST)"""
        return [r for r in self.recs if r["level"] == level and r["forwarder"] == fwd
                and (test is None or r.get("test") == test)]

    def vals(self, level, fwd, key, test=None):
        """vals() - KEY of every such record (frames a receiver without
        offloads could not take are no throughput)"""
        return [r[key] for r in self.sel(level, fwd, test) if r.get(key) is not None
                and not (r.get("unsegmented") and key in ("gbps", "cpu_s_per_gb"))]

    def med(self, level, fwd, key, test=None):
        """med() - the median of vals(), or None"""
        return med(self.vals(level, fwd, key, test))

    def rounds(self, level, fwd, key, test=None):
        """rounds() - KEY by round ((merged run, round) -> value)"""
        return {(r.get("run"), r.get("rep")): r[key] for r in self.sel(level, fwd, test)
                if r.get(key) is not None
                and not (r.get("unsegmented") and key in ("gbps", "cpu_s_per_gb"))}

    def loop_tests(self):
        """loop_tests() - the frame loops measured, smallest frames first"""
        return sorted({r["test"] for r in self.recs if r["level"] == "frontend"
                       and r.get("test", "").startswith("loop-")},
                      key=lambda t: int(t.split("-")[1][:-1]))

    def goodput_tests(self):
        """goodput_tests() - the TCP payload tests measured"""
        return [t for t in GOODPUT_TESTS
                if any(r["level"] == "frontend" and r.get("test") == t for r in self.recs)]


def med(v):
    """med() - the median of V, or None if it is empty"""
    return statistics.median(v) if v else None


def fmt(v, nd=3):
    """fmt() - the median of V, with min-max if there are several"""
    if not v:
        return "n/a"
    m = statistics.median(v)
    if len(v) == 1:
        return f"{m:.{nd}f}"
    return f"{m:.{nd}f} ({min(v):.{nd}f}–{max(v):.{nd}f})"


def ratio(a, b):
    """ratio() - A / B as text, n/a if either is missing"""
    return f"{a / b:.2f}×" if a is not None and b else "n/a"


def loops_table(R, fwds):
    """loops_table() - frames circulating through each forwarder"""
    lines = ["| forwarder | test | Mpps | Gbit/s | lost | forwarder CPU % | CPU s per GB |",
             "|---|---|---|---|---|---|---|"]
    for t in R.loop_tests():
        for f in fwds:
            if not R.vals("frontend", f, "mpps", t):
                continue
            lines.append(f"| {f} | {t} | {fmt(R.vals('frontend', f, 'mpps', t))} | "
                         f"{fmt(R.vals('frontend', f, 'gbps', t))} | "
                         f"{fmt(R.vals('frontend', f, 'lost', t), 0)} | "
                         f"{fmt(R.vals('frontend', f, 'fwd_cpu_pct', t), 1)} | "
                         f"{fmt(R.vals('frontend', f, 'cpu_s_per_gb', t), 3)} |")
    return lines + [""]


# where the host ran the frontend's CPU and the forwarder's during a loop
# measurement (tests/xccorelat, scripts/bench fe_measure): near, at most
# this share of its samples far apart; far, at least 100 minus it
STATE_PCT = 10
STATES = ("near", "far", "mixed")


def state_of(r):
    """state_of() - near, far or mixed for a loop record; None if it
    was measured without tests/xccorelat"""
    p = r.get("corelat_far_pct")
    if p is None:
        return None
    return "near" if p <= STATE_PCT else "far" if p >= 100 - STATE_PCT else "mixed"


def same_place_ratios(R, a, b, t):
    """same_place_ratios() - A's Mpps over B's in loop T, round by round
    (a round: a run and a rep), from the rounds where both measurements
    met the same place

    Returns (rounds where both were measured, {"near": [...], "far": [...]})"""
    ra = {(r.get("run"), r.get("rep")): r for r in R.sel("frontend", a, t)}
    rb = {(r.get("run"), r.get("rep")): r for r in R.sel("frontend", b, t)}
    both = [x for x in ra if x in rb]
    per = {st: [ra[x]["mpps"] / rb[x]["mpps"] for x in both if rb[x]["mpps"]
                and state_of(ra[x]) == st and state_of(rb[x]) == st] for st in ("near", "far")}
    return len(both), per


def ratio_cell(v):
    """ratio_cell() - ratios V as a table cell: median, and in brackets
    lowest–highest and how many; "–" if there are none"""
    return f"{med(v):.2f}× ({min(v):.2f}–{max(v):.2f}; {len(v)})" if v else "–"


def pooled_table(runs, bound=0.8):
    """pooled_table() - xcable against testpmd over several interleaved
    runs together: RUNS is a list of (name, records), each record of a
    loop measured with tests/xccorelat beside it; per loop, the ratios of
    the rounds where both met the same place, pooled: their median,
    lowest–highest, how many, and how many fell below BOUND; nothing if
    no run has such rounds"""
    recs = []
    for name, rr in runs:
        for r in rr:
            if r.get("level") == "frontend" and r.get("test", "").startswith("loop-"):
                recs.append(dict(r, run=name))
    R = Recs(recs)
    tests = sorted({r["test"] for r in recs if state_of(r)},
                   key=lambda t: int(re.sub(r"\D", "", t) or 0))
    rows = []
    for t in tests:
        n, per = same_place_ratios(R, "xcable", "testpmd", t)
        used = {x for x in ("near", "far") if per[x]}
        if not used:
            continue
        low = sum(1 for st in used for v in per[st] if v < bound)
        nruns = len({r["run"] for r in R.sel("frontend", "xcable", t)} &
                    {r["run"] for r in R.sel("frontend", "testpmd", t)})
        rows.append(f"| xcable / testpmd, {t} | {ratio_cell(per['near'])} | "
                    f"{ratio_cell(per['far'])} | {low} | {n} | {nruns} |")
    if not rows:
        return []
    return ["| comparison | both near | both far | of those, below "
            f"{bound}× | rounds in all | runs |", "|---|---|---|---|---|---|"] + rows + [""]


def state_table(R, fwds):
    """state_table() - each loop's Mpps by where the host ran the two
    CPUs, and xcable against each reference in the rounds where both
    were measured in the same place; nothing for records without it"""
    tests = [t for t in R.loop_tests()
             if any(state_of(r) for f in fwds for r in R.sel("frontend", f, t))]
    if not tests:
        return []
    # the threshold xccorelat counted with (records of the first runs,
    # 2026-12-07, lack it: they used its default, 200 ns)
    far_ns = "/".join(str(x) for x in sorted({r.get("corelat_far_ns", 200) for f in fwds
                                               for t in tests for r in R.sel("frontend", f, t)
                                               if state_of(r)}))
    lines = ["By where the host ran the frontend's CPU and the forwarder's while each loop was "
             "measured (`tests/xccorelat` beside it: the round trip of a cache line between the "
             f"two; near: at most {STATE_PCT} % of its samples above {far_ns} ns, about 90 ns on "
             f"this machine; far: at least {100 - STATE_PCT} %, about 350 ns; mixed: in between). "
             "Mpps, median, and in brackets how many measurements.", "",
             "| forwarder | test | near | far | mixed |", "|---|---|---|---|---|"]
    for t in tests:
        for f in fwds:
            by = {st: [r["mpps"] for r in R.sel("frontend", f, t) if state_of(r) == st]
                  for st in STATES}
            if not any(by.values()):
                continue
            lines.append(f"| {f} | {t} | " + " | ".join(
                f"{med(by[st]):.3f} ({len(by[st])})" if by[st] else "–" for st in STATES) + " |")
    lines.append("")
    pairs = [("xcable", ref) for ref in REFERENCES if "xcable" in fwds and ref in fwds]
    rows = []
    for t in tests:
        for a, b in pairs:
            n, per = same_place_ratios(R, a, b, t)
            if not n:
                continue
            cells = [ratio_cell(per["near"]), ratio_cell(per["far"])]
            rows.append(f"| {a} / {b}, {t} | " + " | ".join(cells) + f" | {n} |")
    if rows:
        lines += ["The same ratios round by round, from the rounds where both measurements met "
                  "the same place: median, and in brackets lowest–highest and how many rounds.", "",
                  "| comparison | both near | both far | rounds in all |", "|---|---|---|---|"]
        lines += rows + [""]
    return lines


GOODPUT_INTRO = ("tcp-tso-pass: 64 KB TSO frames to a receiver that takes them whole; "
                 "tcp-tso-segment: the same frames to a receiver without offloads, which the "
                 "forwarder segments and checksums; tcp-no-offload: 1448-byte segments from a "
                 "sender without offloads (xcable --no-offloads). The frontend's own copying is "
                 "included. \"not segmented\": the receiver, which negotiated no TSO, got frames "
                 "bigger than the MSS, which a guest would drop; no throughput is counted for them.")


def goodput_table(R, fwds, tests=None):
    """goodput_table() - TCP payload one way, offloads on and off"""
    lines = [GOODPUT_INTRO, "",
             "| forwarder | test | payload Gbit/s | payload bytes per frame received | forwarder CPU % | CPU s per GB |",
             "|---|---|---|---|---|---|"]
    for t in tests or R.goodput_tests():
        for f in fwds:
            if not R.vals("frontend", f, "frames", t):
                continue
            bad = " **not segmented**" if any(r["unsegmented"] for r in R.sel("frontend", f, t)) else ""
            lines.append(f"| {f} | {t} | {fmt(R.vals('frontend', f, 'gbps', t))}{bad} | "
                         f"{fmt(R.vals('frontend', f, 'payload_per_frame', t), 0)} | "
                         f"{fmt(R.vals('frontend', f, 'fwd_cpu_pct', t), 1)} | "
                         f"{fmt(R.vals('frontend', f, 'cpu_s_per_gb', t), 3)} |")
    return lines + [""]


def col_table(R, fwds, level, cols, first="forwarder"):
    """col_table() - one row per forwarder with records at LEVEL; COLS are
    (header, key, test, digits), KEY a record key or a function of the
    forwarder's records that gives the values"""
    lines = ["| " + " | ".join([first] + [c[0] for c in cols]) + " |",
             "|" + "---|" * (len(cols) + 1)]
    for f in fwds:
        if not R.sel(level, f):
            continue
        cells = [fmt(key(R.sel(level, f, test)) if callable(key) else R.vals(level, f, key, test), nd)
                 for _, key, test, nd in cols]
        lines.append(f"| {f} | " + " | ".join(cells) + " |")
    return lines + [""]


MIGRATE_INTRO = ("Guest A moves to another QEMU on this host (QEMU's precopy migration over a "
                 "unix socket, 1 GB/s allowed) while it sends one TCP stream to guest B and B "
                 "pings it every 20 ms. Downtime and total time are QEMU's; the ping gap is B's "
                 "longest wait for a reply (each reply's send time plus its round trip); TCP is "
                 "iperf3's 0.5 s intervals from the second on: their median, and the lowest one "
                 "(the move falls in it); carrier changes: B's, during the run; intact: 2 MB B "
                 "sent A across the move, every byte checked by A (tests/xcstream.c); crashed: the "
                 "moved guest's kernel on its destination; stale: moves after which a page of "
                 "the moved guest's RAM differed between source and destination, both stopped "
                 "(`--migrate-ram-check`, n/a without: QEMU 7.2 under TCG leaves some when the "
                 "guest's RAM is a multiple of 256 KB, cable or not, [migration.md]"
                 "(migration.md#known-problems)).")
MIGRATE_COLS = [("runs", lambda rs: [len(rs)], None, 0),
                ("moves completed", lambda rs: [sum(r.get("completed") or 0 for r in rs)], None, 0),
                ("QEMU downtime ms", "downtime_ms", None, 0),
                ("QEMU total ms", "total_ms", None, 0), ("B's longest ping gap ms", "gap_ms", None, 0),
                ("TCP median Mbit/s", "tput_median_mbps", None, 1),
                ("TCP lowest interval Mbit/s", "tput_min_mbps", None, 1),
                ("TCP streams that survived", lambda rs: [sum(r.get("tcp_ok") or 0 for r in rs)],
                 None, 0),
                ("B's 2 MB arrived intact", lambda rs: [sum(r.get("stream_intact") or 0 for r in rs)],
                 None, 0),
                ("B's carrier changes", "carrier_changes", None, 0),
                ("announcements B saw", "announcements", None, 0),
                ("moved guest crashed", lambda rs: [sum(r.get("guest_crashed") or 0 for r in rs)],
                 None, 0),
                ("moves that left pages stale",
                 lambda rs: [sum(1 for r in rs if r["stale_pages"] > 0)]
                 if rs and all(r.get("stale_pages") is not None for r in rs) else [], None, 0)]


def migrate_table(R, fwds):
    """migrate_table() - a guest moved to another QEMU: downtime, the
    other guest's ping gap, TCP around the move"""
    return [MIGRATE_INTRO, ""] + col_table(R, fwds, "migrate", MIGRATE_COLS)


def idle_table(R, fwds):
    """idle_table() - forwarder CPU with both ends connected, silent"""
    return col_table(R, fwds, "idle", [("CPU % of one core", "fwd_cpu_pct", None, 2)])


RR_INTRO = ("64-byte requests from one frontend port answered at the other: back to back "
            "on an otherwise idle cable (one awaited at a time: the rate, transactions/s), "
            "then one every interval while a bulk stream of 1514-byte frames goes the same "
            "way as fast as the cable takes it. Lost: requests or responses that never came "
            "back (a forwarder that drops instead of holding).")
RR_COLS = [("idle: transactions/s", "tps", "rr-idle", 0), ("idle p50 µs", "p50_us", "rr-idle", 1),
           ("idle p99 µs", "p99_us", "rr-idle", 1), ("under load: p50 µs", "p50_us", "rr-load", 1),
           ("p99 µs", "p99_us", "rr-load", 1), ("max µs", "max_us", "rr-load", 1),
           ("lost", "lost", "rr-load", 0), ("bulk Gbit/s", "bulk_gbps", "rr-load", 2),
           ("forwarder CPU % under load", "fwd_cpu_pct", "rr-load", 1)]


def rr_table(R, fwds):
    """rr_table() - round trips, idle and under a bulk stream"""
    return [RR_INTRO, ""] + col_table(R, fwds, "rr", RR_COLS)


def retransmits(rs):
    """retransmits() - TCP retransmissions of each VM run, its 4 iperf3 runs summed"""
    return [sum(r.get(k) or 0 for k in r if k.endswith("_retr")) for r in rs]


VM_COLS = ([(label + (" Gbit/s" if i == 0 else ""), k, None, 3)
            for i, (k, label) in enumerate(VM_TCP)] +
           [("TCP retransmits (sum of 4 runs)", retransmits, None, 0),
            ("frames the forwarder dropped", "fwd_drops", None, 0),
            ("ping avg ms", "ping_avg_ms", None, 2), ("ping max ms", "ping_max_ms", None, 2),
            ("forwarder CPU %", "fwd_cpu_pct", None, 1), ("guests CPU %", "guest_cpu_pct", None, 1)])


def vm_table(R, fwds):
    """vm_table() - two TCG guests: iperf3 both ways, ping, CPU"""
    return col_table(R, fwds, "vm", VM_COLS, "link")


VM_PINGS_INTRO = ("Pings from A to B while iperf3 sends A→B (every 10 ms through a stream of "
                  "--vm-rtt-seconds; records without a ping count are older runs' 40 ms pings, "
                  "50 a run, whose p99 is their maximum); p50, p99 and max of each run's pings, "
                  "then medians over the runs.")
VM_PINGS_COLS = [("pings a run", "rtt_load_n", None, 0), ("p50 ms", "rtt_load_p50_ms", None, 2),
                 ("p99 ms", "rtt_load_p99_ms", None, 2), ("max ms", "rtt_load_max_ms", None, 2),
                 ("pings lost", "rtt_load_lost", None, 0),
                 ("TCP Gbit/s meanwhile", "rtt_load_bulk_gbps", None, 3)]


def vm_pings_table(R, fwds):
    """vm_pings_table() - ping round trips through a TCP stream"""
    return [VM_PINGS_INTRO, ""] + col_table(R, fwds, "vm", VM_PINGS_COLS, "link")


NOTIFY_INTRO = ("One iperf3 stream A→B (`scripts/bench --notify`), counted per MB the receiving "
                "guest got: the guests' kicks to the backend and the virtio interrupts they took "
                "(their own counters: virtio_net's kicks, /proc/interrupts), the calls a DPDK "
                "forwarder's vhost ports sent (its vhost statistics, guest_notifications; n/a: "
                "not a DPDK process whose telemetry the bench knows, or no forwarder), and the "
                "CPU of each QEMU thread kind and of the forwarder, in ms per MB. Under TCG "
                "QEMU's main loop relays every call as an interrupt (no irqfd), and a vCPU's "
                "notify write becomes an eventfd write (no ioeventfd); a KVM host does both in "
                "its kernel.")
NOTIFY_MS = ("a_vcpu_ms_per_mb", "b_vcpu_ms_per_mb", "a_main_ms_per_mb", "b_main_ms_per_mb",
             "a_other_ms_per_mb", "b_other_ms_per_mb", "fwd_ms_per_mb")


def kicks(g):
    """kicks() - a guest's kicks per MB, both rings, of each run"""
    return lambda rs: [(r.get(g + "_tx_kicks_per_mb") or 0) + (r.get(g + "_rx_kicks_per_mb") or 0)
                       for r in rs if r.get("mb")]


NOTIFY_COLS = ([("Gbit/s", "gbps", None, 3), ("A kicks", kicks("a"), None, 1),
                ("B kicks", kicks("b"), None, 1)] +
               [(h, k, None, 1) for h, k in (("A interrupts", "a_irq_per_mb"), ("B interrupts", "b_irq_per_mb"),
                                             ("calls to A", "calls_to_a_per_mb"), ("calls to B", "calls_to_b_per_mb"))] +
               [(h, k, None, 2) for h, k in (("A vCPU ms", "a_vcpu_ms_per_mb"), ("B vCPU ms", "b_vcpu_ms_per_mb"),
                                             ("A main loop ms", "a_main_ms_per_mb"),
                                             ("B main loop ms", "b_main_ms_per_mb"),
                                             ("forwarder ms", "fwd_ms_per_mb"))] +
               [("total ms", lambda rs: [sum(r.get(k) or 0 for k in NOTIFY_MS) for r in rs if r.get("mb")], None, 2),
                ("forwarder CPU %", "fwd_cpu_pct", None, 1)])


def notify_table(R, fwds):
    """notify_table() - kicks, interrupts, calls and CPU per MB"""
    return [NOTIFY_INTRO, ""] + col_table(R, [f for f in fwds if any(r.get("mb") for r in R.sel("notify", f))],
                                          "notify", NOTIFY_COLS, "link")


STOPS_INTRO = ("SIGTERM to the forwarder's process group, 5 s of grace, then SIGKILL to the group "
               "and its cgroup; CPU counted over the whole cgroup (or, where the records say "
               "\"session\", the processes of its session).")


def stops_table(R, fwds):
    """stops_table() - how each forwarder was stopped, what it left"""
    stops = [r for r in R.recs if r.get("fwd_stop")]
    lines = [STOPS_INTRO, "",
             "| forwarder | starts | stopped by SIGTERM | had to be killed | left something behind | CPU counted over |",
             "|---|---|---|---|---|---|"]
    for f in fwds:
        st = [r for r in stops if r["forwarder"] == f]
        if not st:
            continue
        left = sorted({x for r in st for x in r.get("fwd_left_behind", [])})
        lines.append(f"| {f} | {len(st)} | {sum(r['fwd_stop'] == 'term' for r in st)} | "
                     f"{sum(r['fwd_stop'] == 'killed' for r in st)} | {', '.join(left) or 'nothing'} | "
                     f"{', '.join(sorted({r.get('fwd_cpu_scope', '?') for r in st}))} |")
    return lines + [""]


def scale_tables(R):
    """scale_tables() - many cables: start, memory, idle CPU, list and
    stop by cable count; the rate of busy cables"""
    idle = [r for r in R.recs if r["level"] == "scale" and r.get("kind") == "idle"]
    busy = [r for r in R.recs if r["level"] == "scale" and r.get("kind") == "busy"]
    lines = []
    if idle:
        lines += ["| cables | listening (ms) | served (ms) | memory, Pss (kB) | Pss kB a cable | Rss kB a cable | idle CPU (% of a core) | list (ms) | stop (ms) |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for n in sorted({r["cables"] for r in idle}):
            rs = [r for r in idle if r["cables"] == n]
            v = lambda k, d=1: [r[k] / d for r in rs]
            lines.append(f"| {n} | {fmt(v('listen_ms'), 0)} | {fmt(v('served_ms'), 0)} | "
                         f"{fmt(v('tree_kb'), 0)} | {fmt(v('kb_per_cable'), 0)} | "
                         f"{fmt([r['tree_rss_kb'] // n for r in rs], 0)} | "
                         f"{fmt(v('idle_permille', 10), 1)} | {fmt(v('list_ms'), 0)} | {fmt(v('stop_ms'), 0)} |")
        lines.append("")
    if busy:
        lines += ["| busy cables (of attached) | Mpps received, both ways together |", "|---:|---:|"]
        for b in sorted({r["busy"] for r in busy}):
            rs = [r for r in busy if r["busy"] == b]
            lines.append(f"| {b} (of {rs[0]['cables']}) | {fmt([r['mpps'] for r in rs])} |")
        lines.append("")
    return lines


# plots: each returns the PNG's file name, or None (no gnuplot, no data)
def _gnuplot(png, script):
    """_gnuplot() - draw PNG with SCRIPT; its file name, or None"""
    gp = shutil.which("gnuplot")
    if not gp:
        return None
    subprocess.run([gp, "-e", f"set terminal pngcairo size 800,450; set output '{png}';" + script],
                   check=False)
    return os.path.basename(png) if os.path.exists(png) else None


def _data(png, rows):
    """_data() - write ROWS (lines) to the data file beside PNG; its path"""
    dat = png[:-4] + ".dat"
    with open(dat, "w") as d:
        d.write("".join(r + "\n" for r in rows))
    return dat


def plot_loops(R, fwds, png):
    """plot_loops() - Mpps of the frame loop by forwarder and size"""
    tests = R.loop_tests()
    rows = [(f, [R.med("frontend", f, "mpps", t) for t in tests]) for f in fwds]
    rows = [(f, v) for f, v in rows if any(x is not None for x in v)]
    if not rows:
        return None
    dat = _data(png, [f + " " + " ".join(str(x if x is not None else 0) for x in v) for f, v in rows])
    cols = " ".join(f"'{dat}' using {i + 2}:xtic(1) title '{t}'," for i, t in enumerate(tests))
    return _gnuplot(png, "set style data histograms; set style fill solid 0.8 border -1;"
                    "set ylabel 'Mpps (median)'; set title 'Frames circulating through the forwarder, no VMs';"
                    "set key top right; set yrange [0:*];"
                    f"plot {cols.rstrip(',')}")


def plot_sizes(R, fwds, png):
    """plot_sizes() - Gbit/s against frame size, one line a forwarder"""
    tests = R.loop_tests()
    sf = [f for f in fwds if any(R.vals("frontend", f, "gbps", t) for t in tests)]
    if not tests or not sf:
        return None
    gb = lambda f, t: R.med("frontend", f, "gbps", t)
    dat = _data(png, [t[5:-1] + " " + " ".join("NaN" if gb(f, t) is None else str(gb(f, t)) for f in sf)
                      for t in tests])
    cols = ", ".join(f"'{dat}' using 1:{i + 2} with linespoints title '{f}'" for i, f in enumerate(sf))
    return _gnuplot(png, "set xlabel 'frame size, bytes'; set ylabel 'Gbit/s (median)';"
                    "set title 'Throughput against frame size, no VMs (frames circulating both ways)';"
                    "set key top left; set yrange [0:*]; set logscale x 2;"
                    f"plot {cols}")


def plot_vm(R, fwds, png):
    """plot_vm() - iperf3 TCP, 1 stream, both ways, by link"""
    vmf = [f for f in fwds if R.sel("vm", f)]
    if not vmf:
        return None
    dat = _data(png, [f"{f} {R.med('vm', f, 'tcp1_a2b_gbps') or 0} {R.med('vm', f, 'tcp1_b2a_gbps') or 0}"
                      for f in vmf])
    return _gnuplot(png, "set style data histograms; set style fill solid 0.8 border -1;"
                    "set ylabel 'Gbit/s (median)'; set title 'iperf3 TCP, 1 stream, between two TCG guests';"
                    "set key top right; set yrange [0:*];"
                    f"plot '{dat}' using 2:xtic(1) title 'A to B', '' using 3 title 'B to A'")


def plot_latency(R, fwds, png):
    """plot_latency() - p50 and p99 round trips under load, by forwarder"""
    rows = [(f, R.med("rr", f, "p50_us", "rr-load"), R.med("rr", f, "p99_us", "rr-load")) for f in fwds]
    rows = [x for x in rows if x[1] is not None]
    if not rows:
        return None
    dat = _data(png, [f"{f} {p50} {p99}" for f, p50, p99 in rows])
    return _gnuplot(png, "set style data histograms; set style fill solid 0.8 border -1;"
                    "set ylabel 'round trip, µs (median of runs, log scale)'; set logscale y;"
                    "set title 'Round trips of 64-byte requests under a bulk stream the same way, no VMs';"
                    "set key top left;"
                    f"plot '{dat}' using 2:xtic(1) title 'p50', '' using 3 title 'p99'")


def plot_scale(R, png):
    """plot_scale() - kB a cable and idle CPU against cable count"""
    idle = [r for r in R.recs if r["level"] == "scale" and r.get("kind") == "idle"]
    if not idle:
        return None
    by_n = [(n, [r for r in idle if r["cables"] == n]) for n in sorted({r["cables"] for r in idle})]
    dat = _data(png, ["# cables Pss_kB_a_cable Rss_kB_a_cable idle_%_of_a_core (medians)"] +
                [f"{n} {med([r['kb_per_cable'] for r in rs])} {med([r['tree_rss_kb'] // n for r in rs])} "
                 f"{med([r['idle_permille'] for r in rs]) / 10}" for n, rs in by_n])
    return _gnuplot(png, "set title 'What a cable costs, all guests attached and idle (medians)';"
                    "set xlabel 'cables'; set logscale x; set ylabel 'kB a cable'; set yrange [0:*];"
                    "set y2label 'idle CPU, % of a core'; set y2range [0:*]; set y2tics; set ytics nomirror;"
                    "set key top left;"
                    f"plot '{dat}' using 1:2 with linespoints title 'Pss kB a cable',"
                    " '' using 1:3 with linespoints title 'Rss kB a cable',"
                    " '' using 1:4 axes x1y2 with linespoints title 'idle CPU (right axis)'")
