# SPDX-License-Identifier: BSD-3-Clause
"""bench_page - doc/benchmarks.md from the runs kept in doc/benchmarks/history

Theory of operation. Every run scripts/bench or scripts/bench-scale saves
(--save) is one records file in doc/benchmarks/history/, each record
carrying the machine, the versions (the git commit among them), the
parameters and the command of its run (scripts/bench-env). Older runs,
whose records lack some of that, are described in history/runs.json,
written by hand: the date, the command and the commit their report gave
at the time, and what any forwarder of theirs with an unusual name was.

The page is a list of kinds (KINDS below, one line each: what a run must
have measured to be of that kind, which of its forwarders the tables
show, the tables, the ratios, the plots). For each kind the newest run of
that kind is drawn: its tables, medians with min-max over the rounds, the
ratios between the forwarders measured in that same interleaved run
(runs on a shared machine are comparable only with themselves), its
plots, and a line saying where, when, how and at which commit it was
measured. Beside each kind goes doc/benchmarks/notes/KIND.md, written by
hand: the design choices that a benchmark settled, so that regenerating
the page never loses them. history/index.md lists every run kept.
"""
import datetime
import glob
import json
import os
import re
import shutil
import sys
import tempfile

from bench_tables import (Recs, loops_table, state_table, pooled_table, goodput_table, idle_table,
                          rr_table, vm_table, vm_pings_table, notify_table, migrate_table,
                          scale_tables, plot_loops, plot_sizes, plot_vm, plot_latency,
                          plot_scale, REFERENCES, VM_TCP, NOTIFY_MS)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(TOP, "doc")
HISTORY = os.path.join(DOC, "benchmarks", "history")
NOTES = os.path.join(DOC, "benchmarks", "notes")
# runs of frame loops with the place of the two CPUs beside them, kept
# for the evidence they give together (not drawn one by one)
CORELAT = os.path.join(DOC, "benchmarks", "corelat")
REGEN = "scripts/bench-report --page"


def across(f):
    """across() - a forwarder whose cable crosses "hosts" (or queues)"""
    return f.startswith(("xcable-trunk", "xcable-netdev", "xcable-vxlan", "xcable-q"))


def local(R, level, prefix=""):
    """local() - forwarders with records at LEVEL whose cable stays local"""
    return [f for f in R.fwds(level, prefix) if not across(f)]


def has(R, level, fwd, prefix=""):
    """has() - whether FWD has records at LEVEL (of tests with PREFIX)"""
    return fwd in R.fwds(level, prefix)


def with_ref(R, level, prefix=""):
    """with_ref() - xcable and a reference forwarder it is measured against
    (a run of xcable against its own earlier build is a regression check:
    kept in the history, not drawn as the page's comparison)"""
    fw = local(R, level, prefix)
    return "xcable" in fw and any(f in REFERENCES for f in fw)


def pairs_against(subject):
    """pairs_against() - SUBJECT against every other forwarder shown"""
    return lambda fw: [(subject, f) for f in fw if f != subject]


# a comparison row: label, level, key, test, higher is better (a key
# the records do not have, total_ms_per_mb, is added by Run)
def loop_rows(R):
    """loop_rows() - a comparison row for each frame size looped"""
    return [(f"{t[5:]} loop, Mpps", "frontend", "mpps", t, True) for t in R.loop_tests()]


GOODPUT_ROWS = [("TSO frames passed, payload Gbit/s", "frontend", "gbps", "tcp-tso-pass", True),
                ("TSO frames segmented for the receiver, payload Gbit/s", "frontend", "gbps",
                 "tcp-tso-segment", True)]
NOOFFL_ROWS = [("1448-byte segments, payload Gbit/s", "frontend", "gbps", "tcp-no-offload", True)]
IDLE_ROWS = [("idle CPU, % of a core", "idle", "fwd_cpu_pct", None, False)]
RR_ROWS = [("idle: transactions/s", "rr", "tps", "rr-idle", True),
           ("idle: p99 µs", "rr", "p99_us", "rr-idle", False),
           ("under load: p50 µs", "rr", "p50_us", "rr-load", False),
           ("under load: p99 µs", "rr", "p99_us", "rr-load", False)]
VM_ROWS = ([(label + ", Gbit/s", "vm", k, None, True) for k, label in VM_TCP] +
           [("ping avg, ms", "vm", "ping_avg_ms", None, False),
            ("ping p99 during a TCP stream, ms", "vm", "rtt_load_p99_ms", None, False),
            ("forwarder CPU %", "vm", "fwd_cpu_pct", None, False)])
NOTIFY_ROWS = [("Gbit/s", "notify", "gbps", None, True),
               ("CPU of the whole path, ms per MB", "notify", "total_ms_per_mb", None, False),
               ("forwarder CPU, ms per MB", "notify", "fwd_ms_per_mb", None, False)]


def veth_way(f):
    """veth_way() - a forwarder whose cable crosses the trunk pair's veth
    (an af_packet or af_xdp trunk, or netdev ends)"""
    return f.startswith(("xcable-trunk", "xcable-netdev"))


def trunk_pairs(fw):
    """trunk_pairs() - each way across against a local cable, and the
    other ways against af_packet's"""
    out = [(f, "xcable") for f in fw if veth_way(f) and "xcable" in fw]
    return out + [(f, "xcable-trunk") for f in fw
                  if veth_way(f) and f != "xcable-trunk" and "xcable-trunk" in fw]


def vxlan_pairs(fw):
    """vxlan_pairs() - the tunnel against a local cable and the trunk"""
    return [("xcable-vxlan", f) for f in ("xcable", "xcable-trunk") if f in fw]


def mq_pairs(fw):
    """mq_pairs() - N queue pairs against one"""
    return [(f, "xcable-q1") for f in fw if f != "xcable-q1" and "xcable-q1" in fw]


class Kind:
    """Kind - one kind of run on the page (see KINDS)"""

    def __init__(self, kid, title, need, fwds, tables, rows=None, pairs=None, plots=(), fresh="",
                 extra=None):
        self.id, self.title, self.need, self.fwds = kid, title, need, fwds
        self.tables, self.rows, self.pairs, self.plots, self.fresh = tables, rows, pairs, plots, fresh
        # lines drawn from other records than the run's, before the notes
        # (a function of the page's directory, for links), or None
        self.extra = extra


def pooled_loops(rel):
    """pooled_loops() - the lines of xcable against testpmd over every run
    kept in CORELAT together (REL: a path as the page links it)"""
    paths = sorted(glob.glob(os.path.join(CORELAT, "*.jsonl")))
    runs = [(os.path.basename(p), [json.loads(x) for x in open(p) if x.strip()]) for p in paths]
    table = pooled_table(runs)
    if not table:
        return []
    return ["All the interleaved runs kept in "
            f"[{rel(CORELAT)}/]({rel(CORELAT)}/) together: xcable against testpmd in "
            "the rounds where both measurements met the same place, pooled (median, and in "
            "brackets lowest–highest and how many rounds).", ""] + table


FULL = "scripts/bench --save"
KINDS = [
    Kind("loops", "Frames through the forwarder, without VMs",
         lambda R: with_ref(R, "frontend", "loop-"),
         lambda R: local(R, "frontend", "loop-"), [loops_table, state_table], loop_rows,
         pairs_against("xcable"), (("frontend", plot_loops), ("sizes", plot_sizes)), FULL,
         pooled_loops),
    Kind("goodput", "TCP payload, one way, with offloads, without VMs",
         lambda R: has(R, "frontend", "xcable", "tcp-tso") and with_ref(R, "frontend", "tcp-tso"),
         lambda R: local(R, "frontend", "tcp-tso"),
         [lambda R, fw: goodput_table(R, fw, ["tcp-tso-pass", "tcp-tso-segment"])],
         lambda R: GOODPUT_ROWS, pairs_against("xcable"), (), FULL),
    Kind("no-offload", "TCP payload from a sender without offloads, without VMs",
         lambda R: has(R, "frontend", "xcable-nooffl", "tcp-no-offload")
         and len(local(R, "frontend", "tcp-no-offload")) > 1,
         lambda R: local(R, "frontend", "tcp-no-offload"),
         [lambda R, fw: goodput_table(R, fw, ["tcp-no-offload"])],
         lambda R: NOOFFL_ROWS, pairs_against("xcable-nooffl"), (), FULL),
    Kind("idle", "Idle: the forwarder's CPU with both ends connected and nothing sent",
         lambda R: with_ref(R, "idle"), lambda R: local(R, "idle"), [idle_table],
         None, None, (), FULL),
    Kind("round-trips", "Round trips without VMs: idle, and under a bulk stream",
         lambda R: with_ref(R, "rr"), lambda R: local(R, "rr"), [rr_table],
         lambda R: RR_ROWS, pairs_against("xcable"), (("latency", plot_latency),), FULL),
    Kind("vms", "Two guests: TCP, ping, and ping during a TCP stream",
         lambda R: with_ref(R, "vm"), lambda R: local(R, "vm"), [vm_table, vm_pings_table],
         lambda R: VM_ROWS, pairs_against("xcable"), (("vm", plot_vm),), FULL),
    Kind("notify", "Two guests: where a TCP stream's notifications and CPU go",
         lambda R: bool(R.fwds("notify")), lambda R: R.fwds("notify"), [notify_table],
         lambda R: NOTIFY_ROWS, pairs_against("xcable"), (), "scripts/bench --notify --save"),
    Kind("migrate", "Moving a VM: a live migration on one host",
         lambda R: bool(R.fwds("migrate")), lambda R: R.fwds("migrate"), [migrate_table],
         None, None, (), "scripts/bench --migrate --save"),
    Kind("scale", "Many cables: what each costs, and what busy ones carry",
         lambda R: bool(R.fwds("scale")), lambda R: R.fwds("scale"),
         [lambda R, fw: scale_tables(R)], None, None, (("cost", lambda R, fw, png: plot_scale(R, png)),),
         "scripts/bench --scale --reps 3 --save"),
    Kind("trunk", "Across hosts: a cable over a trunk, or netdev ends, on a veth",
         lambda R: any(veth_way(f) for f in R.fwds("frontend")),
         lambda R: [f for f in R.fwds("frontend") if f == "xcable" or veth_way(f)],
         [loops_table, lambda R, fw: goodput_table(R, fw, ["tcp-tso-pass"])],
         lambda R: loop_rows(R) + GOODPUT_ROWS[:1], trunk_pairs, (), FULL),
    Kind("trunk-vms", "Across hosts: two guests over a trunk, or netdev ends, on a veth",
         lambda R: any(veth_way(f) for f in R.fwds("vm")),
         lambda R: [f for f in R.fwds("vm") if f == "xcable" or veth_way(f)],
         [vm_table, vm_pings_table], lambda R: VM_ROWS, trunk_pairs, (), FULL),
    Kind("vxlan", "Across routed hosts: a cable over a VXLAN tunnel, without VMs",
         lambda R: any(has(R, lv, "xcable-vxlan") for lv in ("frontend", "rr", "idle")),
         lambda R: [f for f in R.fwds() if f in ("xcable", "xcable-trunk", "xcable-vxlan")],
         [loops_table, lambda R, fw: goodput_table(R, fw, ["tcp-tso-pass"]), rr_table, idle_table],
         lambda R: loop_rows(R) + GOODPUT_ROWS[:1] + RR_ROWS[:3] + IDLE_ROWS, vxlan_pairs, (), FULL),
    Kind("vxlan-vms", "Across routed hosts: two guests over a VXLAN tunnel",
         lambda R: has(R, "vm", "xcable-vxlan"),
         lambda R: [f for f in R.fwds("vm") if f in ("xcable", "xcable-vxlan")],
         [vm_table, vm_pings_table], lambda R: VM_ROWS, vxlan_pairs, (), FULL),
    Kind("multiqueue", "Two guests with 1, 2 and 4 queue pairs",
         lambda R: any(f.startswith("xcable-q") for f in R.fwds("vm")),
         lambda R: [f for f in R.fwds("vm") if f.startswith("xcable-q")],
         [vm_table, vm_pings_table], lambda R: VM_ROWS[:4] + VM_ROWS[5:6], mq_pairs, (),
         "scripts/bench --only xcable-q1,xcable-q2,xcable-q4 --no-frontend --save"),
]


def load(path):
    """load() - the records of a file"""
    return [json.loads(l) for l in open(path) if l.strip()]


class Run:
    """Run - one records file, and what is known of how it was made"""

    def __init__(self, path, meta):
        """__init__() - the records of PATH, and META (runs.json's entry)"""
        self.path, self.meta = path, meta or {}
        self.recs = load(path)
        for r in self.recs:
            if r.get("level") == "notify" and r.get("mb"):
                r["total_ms_per_mb"] = round(sum(r.get(k) or 0 for k in NOTIFY_MS), 2)
        self.R = Recs(self.recs)
        envs = [r["env"] for r in self.recs if "env" in r]
        self.env = envs[0] if envs else {}
        self.commits = sorted({e.get("versions", {}).get("git") for e in envs} - {None, "unknown"})
        self.started = self.env.get("run", {}).get("started")
        self.quick = bool(self.env.get("params", {}).get("quick"))

    def when(self):
        """when() - the time runs are ordered by (newest last)"""
        return self.started or self.meta.get("recorded") or "0"

    def date(self):
        """date() - the day it was measured (records, else runs.json)"""
        return (self.started[:10] if self.started else self.meta.get("date", "date not recorded")), ""

    def command(self):
        """command() - the command that made it (records, else runs.json)"""
        return self.env.get("run", {}).get("command") or self.meta.get("command"), ""

    def rounds(self):
        """rounds() - how many rounds (merged runs: all of theirs)"""
        return len({(r.get("run"), r.get("rep")) for r in self.recs})

    def machine(self):
        """machine() - the machine and versions, in words"""
        ms = []
        for e in (r["env"] for r in self.recs if "env" in r):
            m, v = e["machine"], e["versions"]
            s = (f"{m['cpus']} CPUs ({m['cpu_model']}), Linux {m['kernel']}, DPDK {v['dpdk']}"
                 + (f", QEMU {v['qemu']}" if v.get("qemu") else "")
                 + (f", OVS {v['ovs']}" if v.get("ovs") else ""))
            if s not in ms:
                ms.append(s)
        return "; ".join(ms) or self.meta.get("machine") or "machine not known"

    def name(self):
        """name() - its records file's name"""
        return os.path.basename(self.path)


def since(commit):
    """since() - COMMIT and the git command that shows how app/ changed from it

    The words depend on the commit alone, not on the repository the
    page is drawn in: a shallow clone, a tarball or a tree git will not
    read (another owner's) draws the same page, and no later commit
    makes it stale."""
    base = commit[:-6] if commit.endswith("-dirty") else commit
    dirty = " plus uncommitted changes" if commit.endswith("-dirty") else ""
    return f"{commit}{dirty} (what xcable's code, app/, changed since: `git log {base}..HEAD -- app`)"


def commits_words(run):
    """commits_words() - the commit(s) a run measured, or why none is known"""
    if run.commits:
        return "commit " + ", ".join(since(c) for c in run.commits)
    if run.meta.get("commit"):
        return f"commit {run.meta['commit']} (the report's of the time: the records carry none)"
    return "commit not recorded (the records carry none)"


def measured(run, relpath, before):
    """measured() - the sentence before a kind's tables: where, when, how,
    at which commit; shorter if BEFORE (the kind above) drew the same run"""
    date = run.date()[0]
    if before is run:
        return f"Measured in the same run as the section above: on {date}, at {commits_words(run)}."
    cmd = run.command()[0]
    report = "the report's of the time"
    missing = []    # (what, where the page's value comes from)
    if not run.started:
        missing.append(("date", "the day they were committed" if run.meta.get("date_from") == "commit"
                        else report if run.meta.get("date") else None))
    if not run.env.get("run"):
        missing.append(("command", report if run.meta.get("command") else None))
    if not run.env:
        missing.append(("machine", report if run.meta.get("machine") else None))
    names = [w for w, _ in missing]
    gaps = ""
    if missing:
        gaps = (" The records carry no " + ", ".join(names[:-1]) + (" or " if len(names) > 1 else "")
                + names[-1] + ": " + "; ".join(f"the {w} given is {src}" if src else f"the {w} is not known"
                                               for w, src in missing) + ".")
    return (f"Measured on {date} by "
            + (f"`{cmd}`" if cmd else "a command not recorded")
            + f", at {commits_words(run)}; {run.machine()}; {run.rounds()} "
            f"round{'s' if run.rounds() != 1 else ''}; records: [{run.name()}]({relpath})."
            + (" A quick run (1 s measurements, to check the bench, not to compare)." if run.quick else "")
            + gaps)


def forwarders_words(run, fw):
    """forwarders_words() - what the unusual forwarders of a run were"""
    known = {"xcable", "xcable-poll", "xcable-nooffl", "xcable-trunk", "xcable-trunk-xdp",
             "xcable-netdev", "xcable-vxlan", "xcable-q1", "xcable-q2", "xcable-q4",
             "ovs-dpdk-srv"} | set(REFERENCES)
    out = []
    for f in fw:
        if f in known:
            continue
        d = run.meta.get("forwarders", {}).get(f)
        if not d:
            c = next((r["env"]["params"].get("command") for r in run.recs
                      if r.get("forwarder") == f and "env" in r), None)
            d = f"`{c}`" if c else "not described by its records"
        out.append(f"{f}: {d}")
    return ("Forwarders not built into scripts/bench: " + "; ".join(out) + ".") if out else None


def stops_words(run):
    """stops_words() - how the forwarders of a run were stopped"""
    st = [r for r in run.recs if r.get("fwd_stop") and r.get("test") != "rr-load"]
    if not st:
        return None
    killed = sorted({r["forwarder"] for r in st if r["fwd_stop"] == "killed"})
    left = sorted({f"{r['forwarder']}: {x}" for r in st for x in r.get("fwd_left_behind", [])})
    scope = sorted({r.get("fwd_cpu_scope", "?") for r in st})
    s = (f"In this run the forwarders were started and stopped {len(st)} times: "
         + (f"SIGKILL needed for {', '.join(killed)}" if killed else "each stopped by SIGTERM")
         + ("; left behind: " + ", ".join(left) if left else ", nothing left behind")
         + f"; CPU counted over each one's {' or '.join(scope)}.")
    return s


def comparisons(run, rows, pairs):
    """comparisons() - A / B for each pair and row: the ratio of the
    medians, and the range of the ratios round by round"""
    R = run.R
    cols = [p for p in pairs if any(R.vals(lv, p[0], k, t) and R.vals(lv, p[1], k, t)
                                    for _, lv, k, t, _ in rows)]
    if not cols:
        return []
    lines = ["| row | " + " | ".join(f"{a} / {b}" for a, b in cols) + " |",
             "|---|" + "---|" * len(cols)]
    for label, lv, k, t, higher in rows:
        cells = []
        for a, b in cols:
            ma, mb = R.med(lv, a, k, t), R.med(lv, b, k, t)
            if ma is None or not mb:
                cells.append("")
                continue
            ra, rb = R.rounds(lv, a, k, t), R.rounds(lv, b, k, t)
            per = [ra[x] / rb[x] for x in ra if x in rb and rb[x]]
            cells.append(f"{ma / mb:.2f}×" + (f" ({min(per):.2f}–{max(per):.2f})" if len(per) > 1 else ""))
        if any(cells):
            lines.append(f"| {label}{'' if higher else ' (lower is better)'} | " + " | ".join(cells) + " |")
    if len(lines) == 2:
        return []
    return ["Ratios between forwarders of this run: of the medians, and in brackets the "
            "lowest and highest of the same ratio round by round (each round measures "
            "every forwarder once, in turn).", ""] + lines + [""]


def note(kid, notes):
    """note() - the lines of notes/KID.md, if there is one"""
    path = os.path.join(notes, kid + ".md")
    if not os.path.exists(path):
        return []
    return open(path).read().rstrip("\n").split("\n") + [""]


def meta_list(history):
    """meta_list() - what runs.json says of the older runs, oldest first"""
    path = os.path.join(history, "runs.json")
    return json.load(open(path))["runs"] if os.path.exists(path) else []


def runs_of(paths, metas):
    """runs_of() - the runs of PATHS, oldest first"""
    by_file = {m["file"]: m for m in metas}
    order = {m["file"]: i for i, m in enumerate(metas)}
    runs = [Run(p, by_file.get(os.path.basename(p))) for p in paths]
    return sorted(runs, key=lambda r: (r.when(), order.get(r.name(), 0)))


def page(runs, out, notes, history, plots_dir, link_dir=None):
    """page() - the page's text; the plots go to PLOTS_DIR (linked as if
    in LINK_DIR, if given)"""
    outdir = os.path.dirname(os.path.abspath(out))
    rel = lambda p: os.path.relpath(p, outdir)
    chosen = []
    for k in KINDS:
        cands = [r for r in runs if k.need(r.R)]
        chosen.append((k, cands[-1] if cands else None))
    lines = ["# xcable benchmarks", "",
             "<!-- generated: edit doc/benchmarks/notes/*.md and run the command below, "
             "not this file -->", "",
             f"Regenerate this page: `{REGEN}` (from the newest run of each kind kept in "
             f"[{rel(history)}/]({rel(history)}/index.md), with the notes of "
             f"[{rel(notes)}/]({rel(notes)}/)).", ""]
    lines += note("intro", notes)
    lines += ["| kind | measured on | at commit | rounds | records |", "|---|---|---|---|---|"]
    for k, run in chosen:
        anchor = re.sub(r"[^a-z0-9 -]", "", k.title.lower()).replace(" ", "-")
        if run is None:
            lines.append(f"| [{k.title}](#{anchor}) | not measured yet | | | |")
            continue
        c = ", ".join(run.commits) or (f"{run.meta['commit']} (report)" if run.meta.get("commit")
                                       else "not recorded")
        lines.append(f"| [{k.title}](#{anchor}) | {run.date()[0]} | {c} | {run.rounds()} | "
                     f"[{run.name()}]({rel(run.path)}) |")
    lines.append("")
    os.makedirs(plots_dir, exist_ok=True)
    before, stopped = None, set()
    for k, run in chosen:
        lines += [f"## {k.title}", ""]
        if run is None:
            before = None
            lines += [f"No run of this kind is kept yet: `sudo {k.fresh}`, then `{REGEN}`.", ""]
            lines += note(k.id, notes)
            continue
        fw = k.fwds(run.R)
        lines += [measured(run, rel(run.path), before), ""]
        fwords = forwarders_words(run, fw)
        if fwords and before is not run:
            lines += [fwords, ""]
        before = run
        for table in k.tables:
            lines += table(run.R, fw)
        if k.rows:
            lines += comparisons(run, k.rows(run.R), k.pairs(fw))
        sw = stops_words(run)
        if sw and run.path not in stopped:
            lines += [sw, ""]
            stopped.add(run.path)
        for pname, plot in k.plots:
            png = plot(run.R, fw, os.path.join(plots_dir, f"{k.id}-{pname}.png"))
            if png:
                lines += [f"![{k.id}: {pname}]({rel(os.path.join(link_dir or plots_dir, png))})", ""]
        if k.extra:
            lines += k.extra(rel)
        lines += note(k.id, notes)
    lines += note("method", notes)
    lines += ["## Running them again", "",
              "As root (hugepages, QEMU, network namespaces), at the commit to measure, on a "
              "machine nobody else uses meanwhile; each command keeps its records in "
              f"[{rel(history)}/]({rel(history)}/index.md), and `{REGEN}` then draws "
              "this page from the newest of each kind:", ""]
    seen = []
    for k in KINDS:
        if k.fresh not in seen:
            seen.append(k.fresh)
    lines += ["```sh"] + [f"sudo {c}" for c in seen] + [REGEN, "```", ""]
    lines += note("running", notes)
    for f in glob.glob(os.path.join(plots_dir, "*.dat")):
        os.remove(f)
    return "\n".join(lines).rstrip("\n") + "\n", chosen


def index(runs, chosen, history, metas, outdir):
    """index() - the text of history/index.md: every run kept, newest first"""
    page_rel = os.path.relpath(os.path.join(outdir, "benchmarks.md"), history)
    used = {}
    for k, run in chosen:
        if run:
            used.setdefault(run.name(), []).append(k.title)
    lines = ["# Benchmark runs kept", "",
             "<!-- generated by scripts/bench-report --page from the records and runs.json -->", "",
             f"Every run whose records are kept here, newest first. [benchmarks.md]({page_rel}) "
             "shows the newest run of each kind; the others stay for the figures its notes "
             "quote. What the runs of 2026-11-29 to 2026-12-02 showed at the time, and what "
             "changed between them: [2026-12-benchmarks-log.md](2026-12-benchmarks-log.md).", "",
             "| date | what was measured | commit | records | on the page now |",
             "|---|---|---|---|---|"]
    order = {m["file"]: i for i, m in enumerate(metas)}
    entries = [((r.when(), order.get(r.name(), 0)), r.date()[0], r.meta.get("what") or what_words(r),
                ", ".join(r.commits) or (f"{r.meta['commit']} (report)" if r.meta.get("commit")
                                         else "not recorded"),
                r.name(), "; ".join(used.get(r.name(), [])))
               for r in runs]
    # records that are no JSON lines (raw lines of a test's output)
    for m in metas:
        if not m["file"].endswith(".jsonl"):
            entries.append(((m.get("recorded", "0"), order[m["file"]]), m.get("date", ""),
                            m.get("what", ""), m.get("commit", "not recorded"), m["file"], ""))
    for _, date, what, commit, name, on in sorted(entries, key=lambda e: e[0], reverse=True):
        lines.append(f"| {date} | {what} | {commit} | [{name}]({name}) | {on} |")
    return "\n".join(lines) + "\n"


def what_words(run):
    """what_words() - what a run measured, from its records"""
    levels = {"frontend": "frontends", "rr": "round trips", "idle": "idle CPU", "vm": "VMs",
              "notify": "notifications", "migrate": "a live migration", "scale": "many cables"}
    lv = [levels[l] for l in levels if run.R.fwds(l)]
    return f"{', '.join(lv)}: {', '.join(run.R.fwds())}"


def save(path, history=HISTORY):
    """save() - keep a run's records in HISTORY under its date and kind"""
    run = Run(path, None)
    if not run.recs:
        sys.exit(f"bench-report: {path} has no records")
    if run.quick:
        sys.exit("bench-report: a quick run checks the bench, it is not kept")
    if not run.started:
        sys.exit(f"bench-report: {path}: the records do not say when the run started")
    lv = [l for l in ("notify", "migrate", "scale", "vm", "rr", "frontend") if run.R.fwds(l)]
    kind = "-".join(l for l in lv if l != "rr") or "records"
    if any(f.startswith("xcable-q") for f in run.R.fwds()):
        kind = "multiqueue"
    name = datetime.datetime.strptime(run.started, "%Y-%m-%dT%H:%M:%SZ").strftime("%Y-%m-%d-%H%M")
    dest = os.path.join(history, f"{name}-{kind}.jsonl")
    os.makedirs(history, exist_ok=True)
    shutil.copy(path, dest)
    print(f"bench-report: records kept as {dest}; {REGEN} draws the page from them")


def stable(text):
    """stable() - TEXT without what changes with every commit (how far
    the code moved since a run), for --check"""
    return re.sub(r" \(xcable's code, app/, [^)]*\)", "", text)


def main(args):
    """main() - --page [--check] [--out FILE] [--history DIR] [RECORDS...]"""
    out, history, check = os.path.join(DOC, "benchmarks.md"), HISTORY, False
    while args[:1] in (["--out"], ["--history"], ["--check"]):
        if args[0] == "--check":
            check, args = True, args[1:]
            continue
        if len(args) < 2:
            sys.exit(f"bench-report: {args[0]} needs a value")
        if args[0] == "--out":
            out = args[1]
        else:
            history = args[1]
        args = args[2:]
    metas = meta_list(history)
    paths = args or sorted(glob.glob(os.path.join(history, "*.jsonl")))
    runs = runs_of(paths, metas)
    if not args:
        runs = [r for r in runs if not r.quick]
    outdir = os.path.dirname(os.path.abspath(out))
    plots_dir = os.path.join(outdir, "benchmarks", "plots")
    link_dir = None
    if check:
        link_dir, plots_dir = plots_dir, tempfile.mkdtemp(prefix="bench-page-check.")
    text, chosen = page(runs, out, NOTES, history, plots_dir, link_dir)
    if check:
        shutil.rmtree(plots_dir, ignore_errors=True)
        files = [(out, text)] + ([] if args else [(os.path.join(history, "index.md"),
                                                   index(runs, chosen, history, metas, outdir))])
        stale = [f for f, t in files if not os.path.exists(f) or stable(open(f).read()) != stable(t)]
        if stale:
            sys.exit("bench-report: not what " + REGEN + " draws now: " + ", ".join(stale))
        print(f"bench-report: {out} is what {REGEN} draws")
        return
    open(out, "w").write(text)
    if not args:
        open(os.path.join(history, "index.md"), "w").write(index(runs, chosen, history, metas, outdir))
    print(f"bench-report: {out}: " + "; ".join(
        f"{k.id} {run.name() if run else '-'}" for k, run in chosen))
