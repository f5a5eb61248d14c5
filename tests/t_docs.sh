# SPDX-License-Identifier: BSD-3-Clause
# tests/t_docs.sh - the documentation as a reader meets it
# (sourced by tests/run; each t_* function is one test)

# README.md is short and links every page of doc/ (the benchmark
# history's pages through its index); every relative link of README.md
# and of every page under doc/ reaches a file, and a heading where it
# names one; no page speaks of issues, work items or sessions of work;
# doc/benchmarks.md and its history's index are what scripts/bench-report
# --page draws from the runs and notes kept
t_docs() {
	local bad
	bad=$(/usr/bin/python3 - "$TOP" <<'PYEOF'
import glob, os, re, sys
top = sys.argv[1]
readme = os.path.join(top, "README.md")
pages = sorted(glob.glob(os.path.join(top, "doc", "**", "*.md"), recursive=True))
# the page's notes are parts of doc/benchmarks.md, not pages
pages = [p for p in pages if "/benchmarks/notes/" not in p]
n = sum(1 for _ in open(readme))
if n > 250:
    print(f"README.md has {n} lines (at most 250)")

def slug(h):
    return re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")

def anchors(path):
    out, seen = set(), {}
    for line in open(path):
        m = re.match(r"#+ (.*)", line)
        if m:
            s = slug(m.group(1))
            out.add(s if s not in seen else f"{s}-{seen[s]}")
            seen[s] = seen.get(s, 0) + 1
    return out

def links(path):
    text = re.sub(r"```.*?```", "", open(path).read(), flags=re.S)
    return re.findall(r"\]\(([^)\s]+)\)", text)

linked = set()
for src in [readme] + pages:
    for l in links(src):
        if re.match(r"[a-z]+:", l):
            continue
        target, _, frag = l.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(src), target)) if target else src
        rel = os.path.relpath(src, top)
        if not os.path.exists(path):
            print(f"{rel}: link to {l}: no such file")
            continue
        if src == readme:
            linked.add(path)
        if frag and path.endswith(".md") and frag not in anchors(path):
            print(f"{rel}: link to {l}: no such heading")
for p in pages:
    if p in linked:
        continue
    # the history's own pages are linked from its index, which README links
    idx = os.path.join(top, "doc", "benchmarks", "history", "index.md")
    if "/benchmarks/history/" in p and idx in linked and \
            os.path.basename(p) in " ".join(links(idx)):
        continue
    print(f"{os.path.relpath(p, top)}: not linked from README.md")
words = re.compile(r"\bissues?\b|(?:^|\s)#\d+\b|\bwork items?\b|\bitems? \d|\b(this|that|a|the) session\b"
                   r"|\bsessions? of work", re.I)
for p in [readme] + pages + glob.glob(os.path.join(top, "doc", "*.1")) + \
        glob.glob(os.path.join(top, "doc", "benchmarks", "notes", "*.md")):
    for i, line in enumerate(open(p), 1):
        m = words.search(line)
        if m:
            print(f"{os.path.relpath(p, top)}:{i}: '{m.group(0)}'")
PYEOF
)
	[ -z "$bad" ] || { echo "$bad" | head -n 20 | sed 's/^/  /'; fail "the documentation has the faults above"; return 1; }
	say "README.md: $(wc -l <"$TOP/README.md") lines; every page of doc/ linked, every relative link and heading found, no issue, work item or session named"
	"$TOP/scripts/bench-report" --page --check >check.out 2>&1 || { cat check.out; fail "doc/benchmarks.md is not what scripts/bench-report --page draws"; return 1; }
	say "$(cat check.out)"
}
TESTS+=(t_docs)
ONCE+=(t_docs)	# reads the tree, not a build

# the benchmarks page pools the frame loops of several interleaved runs:
# a round is a run's rep (rep 1 of one run is not rep 1 of another), only
# rounds where both measurements met the same place count, and those
# below 0.8x are counted
t_docs_pooled() {
	local out want
	out=$(/usr/bin/python3 -B - "$TOP/scripts" <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1])
from bench_tables import pooled_table

def rec(fw, rep, mpps, far_pct):
    return {"level": "frontend", "forwarder": fw, "rep": rep, "test": "loop-64B",
            "mpps": mpps, "corelat_far_pct": far_pct}

a = [rec("xcable", 1, 5.0, 0), rec("testpmd", 1, 10.0, 5),     # near, 0.5
     rec("xcable", 2, 9.0, 0), rec("testpmd", 2, 3.0, 100),    # places differ
     rec("xcable", 3, 6.0, 95), rec("testpmd", 3, 5.0, 100)]   # far, 1.2
b = [rec("xcable", 1, 4.0, 0), rec("testpmd", 1, 4.0, 0),      # near, 1.0
     rec("xcable", 2, 4.0, 50), rec("testpmd", 2, 4.0, 50)]    # mixed
print("\n".join(pooled_table([("a", a), ("b", b)])))
PYEOF
)
	want='| xcable / testpmd, loop-64B | 0.75× (0.50–1.00; 2) | 1.20× (1.20–1.20; 1) | 1 | 5 | 2 |'
	echo "$out" | grep -qxF -- "$want" ||
		{ echo "$out" | sed 's/^/  /'; fail "pooled rounds: want $want"; return 1; }
	say "pooled over two runs: $want"
}
TESTS+=(t_docs_pooled)
ONCE+=(t_docs_pooled)	# reads the tree, not a build
