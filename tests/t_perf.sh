# SPDX-License-Identifier: BSD-3-Clause
# tests/t_perf.sh - adaptive polling and the benchmark script (not speed:
# speed is measured by scripts/bench, never asserted by a timed test)

# cpu_pct PID SECONDS - CPU used by a process over SECONDS, in % of a core
cpu_pct() {
	local a b
	a=$(cpu_ticks "$1")
	sleep "$2"
	b=$(cpu_ticks "$1")
	echo $(( (b - a) * 100 / $(getconf CLK_TCK) / $2 ))
}

t_idle_cpu() {
	local adaptive poll pp
	for mode in adaptive poll; do
		local extra=()
		[ $mode = poll ] && extra=(--poll)
		xc_start "xc-$mode.log" --left "$T/l.sock" --right "$T/r.sock" "${extra[@]}"
		wait_log "xc-$mode.log" "running;" 1 20 || { fail "xcable did not start"; return 1; }
		"$XCPEER" $(peer_eal "$T/l.sock" "$T/r.sock") -- stream --pps 0 --seconds 10 >peer.log 2>&1 &
		pp=$!
		wait_log "xc-$mode.log" "link up" 2 20 || { fail "frontends did not connect"; return 1; }
		sleep 1
		eval "$mode=$(cpu_pct "$XC_PID" 5)"
		wait $pp
		xc_stop
	done
	say "idle, both ends connected, 5 s: adaptive xcable used ${adaptive}% of a core, --poll ${poll}%"
	[ "$adaptive" -le 2 ] || { fail "adaptive polling uses more than 2% when idle"; return 1; }
	[ "$poll" -ge 50 ] || { fail "--poll did not busy-poll (measurement broken?)"; return 1; }
}
TESTS+=(t_idle_cpu)
ONCE+=(t_idle_cpu)	# measures build/ itself

t_adaptive_wakes_on_traffic() {
	# after sleeping, the first frames of a new burst must get through at
	# once, and the frame catalogue must pass unchanged
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --idle-us 50
	wait_log xc.log "sleeping when idle" 1 20 || { cat xc.log; fail "xcable did not start in adaptive mode"; return 1; }
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 2 2000 || return 1
	xc_stop
	local sleeps
	sleeps=$(sed -nE 's/^xcable: lcore [0-9]+ slept ([0-9]+) times/\1/p' xc.log | head -n 1)
	say "frames sent 2 ms apart with --idle-us 50: the lcore slept ${sleeps:-?} times for $((2 * FRAMES_N)) frames, and each arrived"
	[ "${sleeps:-0}" -ge $((2 * FRAMES_N)) ] || { fail "the lcore did not sleep between frames"; return 1; }
	# woken by the guest's kick, not by the 100 ms safety timeout
	local worst
	worst=$(sed -nE 's/.*slowest arrived after ([0-9]+) us.*/\1/p' "$T/peer.log")
	say "slowest frame arrived after ${worst} us (the sleep timeout is 100000 us)"
	[ "${worst:-999999}" -lt 50000 ] || { fail "frames waited for the timeout, not the kick"; return 1; }
	check_dir_clean xc.log "cable0 left->right" "$FRAMES_N"
}
TESTS+=(t_adaptive_wakes_on_traffic)
ONCE+=(t_adaptive_wakes_on_traffic)	# measures wake-up latency

t_bench_quick() {
	local out=$T/bench n a
	# what the bench runs beside each loop refuses what it cannot measure
	for a in "--cpus 0,0" "--cpus 0" "--seconds 0" "--every-ms x" "--far-ns"; do
		"$BUILD/tests/xccorelat" $a >corelat.out 2>&1
		[ $? = 2 ] && grep -q "^xccorelat: " corelat.out ||
			{ cat corelat.out; fail "xccorelat $a: not refused with exit 2 and a reason"; return 1; }
	done
	"$TOP/scripts/bench" --quick --out "$out" >bench.log 2>&1 || { tail -n 20 bench.log; fail "scripts/bench failed"; return 1; }
	n=$(wc -l <"$out/records.jsonl")
	say "scripts/bench --quick wrote $n records"
	for f in xcable testpmd; do
		grep -q "\"level\": \"frontend\", \"forwarder\": \"$f\"" "$out/records.jsonl" || { fail "no frontend record for $f"; return 1; }
		grep -q "\"level\": \"idle\", \"forwarder\": \"$f\"" "$out/records.jsonl" || { fail "no idle record for $f"; return 1; }
	done
	grep -q '"level": "frontend", "forwarder": "xcable-trunk"' "$out/records.jsonl" ||
		{ fail "no frontend record for xcable-trunk"; return 1; }
	for f in xcable; do
		grep "\"level\": \"vm\", \"forwarder\": \"$f\"" "$out/records.jsonl" | grep -q '"tcp1_a2b_gbps": [0-9]' ||
			{ fail "no VM iperf3 result for $f"; return 1; }
	done
	for t in "xcable.*tcp-tso-pass" "xcable.*tcp-tso-segment" "xcable-nooffl.*tcp-no-offload" "testpmd.*tcp-tso-pass"; do
		grep -E "\"forwarder\": \"$t" "$out/records.jsonl" | grep -q '"gbps": [0-9]*\.[0-9]*[1-9]' ||
			{ fail "no goodput record for $t"; return 1; }
	done
	grep -q "## Ratios" "$out/summary.md" && [ -s "$out/bench-frontend.png" ] && [ -s "$out/bench-vm.png" ] ||
		{ fail "summary or plots missing"; return 1; }
	# every loop says how far apart the host ran the frontend's CPU and
	# the forwarder's meanwhile (tests/xccorelat), and the summary sorts
	# the loops by it
	n=$(grep -c '"level": "frontend", .*"test": "loop-' "$out/records.jsonl")
	[ "$(grep '"level": "frontend", .*"test": "loop-' "$out/records.jsonl" | grep -cE '"corelat_p50_ns": [1-9][0-9]*, "corelat_far_ns": [1-9][0-9]*, "corelat_far_pct": [0-9]+')" = "$n" ] ||
		{ fail "loop records without where their CPUs were"; return 1; }
	grep -q "^By where the host ran the frontend's CPU" "$out/summary.md" ||
		{ fail "the summary does not sort the loops by where their CPUs were"; return 1; }
	say "$n loop records, each with its CPUs' cache-line round trip: $(grep -oE '"corelat_p50_ns": [0-9]+' "$out/records.jsonl" | grep -oE '[0-9]+$' | sort -n | tr '\n' ' ')ns"
	say "records for xcable, testpmd (frontend, idle), xcable-trunk (frontend), xcable (VM), goodput with offloads on and off; summary and plots written"
	bench_quick_ovs_rr "$out" bench.log || return 1
	grep -E 'no-offloads, payload' "$out/summary.md" | sed 's/^/  /'
	grep -E '^\| xcable / ' "$out/summary.md" | head -n 4 | sed 's/^/  /'
	bench_quick_page "$out" || return 1
}
# bench_quick_page OUT - the documentation page (scripts/bench-report
# --page) drawn from the quick run's records and a short scripts/bench-scale
# run's: each kind they measured has its section, and every table of it
# comes after a line naming the commit the run measured, its command and
# machine; each other kind says it has no run; the notes are in; a quick
# run is not kept by --save, the scale run is, and the history's index
# lists it with its commit
bench_quick_page() {
	local out=$1 bad
	"$TOP/scripts/bench-scale" --cables "1 4" --busy 1 --seconds 1 --idle-seconds 1 --out "$T/scale" >scale.log 2>&1 ||
		{ tail -n 20 scale.log; fail "scripts/bench-scale failed"; return 1; }
	if "$TOP/scripts/bench-report" --save "$out/records.jsonl" "$T/hist" >save.log 2>&1; then
		fail "--save kept a quick run"; return 1
	fi
	say "--save of the quick run: $(cat save.log)"
	"$TOP/scripts/bench-report" --save "$T/scale/records.jsonl" "$T/hist" >save.log 2>&1 ||
		{ cat save.log; fail "--save of the scale run failed"; return 1; }
	"$TOP/scripts/bench-report" --page --out "$T/page/benchmarks.md" "$out/records.jsonl" "$T/scale/records.jsonl" >page.log 2>&1 &&
		"$TOP/scripts/bench-report" --page --out "$T/page2/benchmarks.md" --history "$T/hist" >>page.log 2>&1 ||
		{ cat page.log; fail "bench-report --page failed"; return 1; }
	bad=$(/usr/bin/python3 - "$T/page/benchmarks.md" "$out/records.jsonl" "$T/hist" "$TOP/doc/benchmarks/notes" <<'PYEOF'
import glob, json, os, re, sys
page, rec, hist, notes = sys.argv[1:]
commit = json.loads(open(rec).readline())["env"]["versions"]["git"]
text = open(page).read()
secs = re.split(r"^## ", text, flags=re.M)
measured = {"Frames through the forwarder", "TCP payload, one way", "TCP payload from a sender without",
            "Idle:", "Round trips", "Two guests: TCP", "Many cables", "Across hosts: a cable"}
unmeasured = {"Two guests: where", "Across routed hosts: a cable", "Across routed hosts: two guests",
              "Two guests with 1, 2 and 4", "Across hosts: two guests", "Moving a VM"}
seen = set()
for sec in secs[1:]:
    title = sec.split("\n", 1)[0]
    kind = next((k for k in measured | unmeasured if title.startswith(k)), None)
    if kind is None:
        continue
    seen.add(kind)
    tables = [m.start() for m in re.finditer(r"^\|---", sec, re.M)]
    if kind in unmeasured:
        if tables or "No run of this kind" not in sec:
            print("section", repr(title), "has tables or does not say it has no run")
        continue
    if not tables:
        print("section", repr(title), "has no table")
        continue
    m = re.search(r"^Measured .*$", sec[:tables[0]], re.M)
    if not m or ("commit " + commit) not in m.group(0):
        print("section", repr(title), "does not name the commit", commit, "before its tables")
        continue
    run = re.search(r"^Measured on \d{4}-\d\d-\d\d by `scripts/bench(-scale)? [^`]*`.* CPUs \(", text[:text.index("## " + title)] + sec, re.M)
    if not run:
        print("no date, command and machine for", repr(title))
    for img in re.findall(r"!\[[^]]*\]\(([^)]+)\)", sec):
        if not os.path.getsize(os.path.join(os.path.dirname(page), img)):
            print("plot missing:", img)
for k in measured | unmeasured:
    if k not in seen:
        print("no section", repr(k))
ov = text.split("\n## ", 1)[0]
for row in re.findall(r"^\| \[.*$", ov, re.M):
    if commit not in row and "not measured yet" not in row:
        print("overview row without the commit:", row[:80])
for n in glob.glob(notes + "/*.md"):
    first = open(n).readline().strip()
    if first and first not in text:
        print("note not in the page:", os.path.basename(n))
saved = [f for f in os.listdir(hist) if f.endswith("-scale.jsonl")]
idx = open(os.path.join(hist, "index.md")).read() if os.path.exists(os.path.join(hist, "index.md")) else ""
if len(saved) != 1 or not re.search(r"\| %s \|.*\[%s\]" % (re.escape(commit), re.escape(saved[0])), idx):
    print("the kept scale run is not in the history's index with its commit:", saved)
PYEOF
)
	[ -z "$bad" ] || { echo "$bad" | head -n 8 | sed 's/^/  /'; fail "the page drawn from the quick run's records is incomplete"; return 1; }
	say "page: $(grep -c '^## ' "$T/page/benchmarks.md") sections, $(grep -c '^|---' "$T/page/benchmarks.md") tables, each after a line naming commit $(sed -nE 's/.*"git": "([^"]+)".*/\1/p' "$out/records.jsonl" | head -n 1); $(grep -c '^No run of this kind' "$T/page/benchmarks.md") kinds without a run say so; the scale run kept as $(ls "$T/hist" | grep scale) and indexed"
	grep -m1 '^Measured on' "$T/page/benchmarks.md" | cut -c1-160 | sed 's/^/  /'
}
# bench_quick_ovs_rr OUT LOG - what the quick benchmark must also give:
# the OVS-DPDK references measured and stopped cleanly, round trips idle
# and under load, how every forwarder was stopped, the machine in every
# record, the comparison and the plots
bench_quick_ovs_rr() {
	local out=$1 log=$2 rec=$1/records.jsonl f t w bad n
	grep -q "\"level\": \"frontend\", \"forwarder\": \"ovs-dpdk\", .*\"mpps\": [0-9]*\.[0-9]*[1-9]" "$rec" ||
		{ fail "no frontend loop record for ovs-dpdk"; return 1; }
	grep -q "\"level\": \"frontend\", \"forwarder\": \"ovs-dpdk-tso\", .*\"test\": \"tcp-tso-pass\", \"gbps\": [0-9]*\.[0-9]*[1-9]" "$rec" ||
		{ fail "no goodput record for ovs-dpdk-tso"; return 1; }
	for f in xcable testpmd ovs-dpdk; do
		for t in rr-idle rr-load; do
			grep "\"level\": \"rr\", \"forwarder\": \"$f\", .*\"test\": \"$t\"" "$rec" | grep -q '"p99_us": [0-9]' ||
				{ fail "no round-trip record $t for $f"; return 1; }
		done
	done
	grep '"level": "vm", "forwarder": "xcable"' "$rec" | grep -q '"rtt_load_p99_ms": [0-9]' ||
		{ fail "no ping under load with VMs for xcable"; return 1; }
	# --quick: pings every 10 ms through a 4 s stream, from its second
	# second to one before its end: 200 sent, every one of them counted
	n=$(grep '"level": "vm", "forwarder": "xcable"' "$rec" | sed -nE 's/.*"rtt_load_n": ([0-9]+).*/\1/p')
	[ "${n:-0}" -ge 190 ] || { fail "the VM p99 under load came from ${n:-no} pings, not 200"; return 1; }
	bad=$(/usr/bin/python3 - "$rec" <<'PYEOF'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    e = r.get("env", {})
    if not (e.get("machine", {}).get("cpus") and e.get("versions", {}).get("dpdk") and "reps" in e.get("params", {})):
        print("no machine/versions/params:", r["forwarder"], r.get("test"))
    if r["forwarder"] not in ("qemu-stream", "tap-bridge"):
        if r.get("fwd_stop") != "term" or r.get("fwd_left_behind") != [] or r.get("fwd_cpu_scope") not in ("cgroup", "session"):
            print("not stopped cleanly:", r["forwarder"], r.get("test"), r.get("fwd_stop"), r.get("fwd_left_behind"))
PYEOF
)
	[ -z "$bad" ] || { echo "$bad" | head -n 5; fail "records without their machine, or forwarders not stopped cleanly"; return 1; }
	# OVS ran in the bench's work directory: gone, and nothing of it runs
	w=$(sed -n 's/^bench: work directory //p' "$log")
	[ -n "$w" ] && [ ! -e "$w" ] || { fail "the bench's work directory $w was left"; return 1; }
	grep -q "ovs-cable: OVS .* up" "$out/fwd-logs/ovs-dpdk.log" || { fail "OVS did not start"; return 1; }
	if pgrep -f "$w" >/dev/null; then fail "processes of the bench left: $(pgrep -af "$w")"; return 1; fi
	ls /dev/hugepages 2>/dev/null | grep -q xcovs && { fail "OVS left hugepage files"; return 1; }
	"$TOP/scripts/bench-report" --compare "$rec" "$rec" --out "$out/compare.md" >/dev/null ||
		{ fail "bench-report --compare failed"; return 1; }
	grep -q '| rr | rr-load | xcable | p99_us | .* | 1.00× |' "$out/compare.md" || { fail "comparison incomplete"; return 1; }
	for f in bench-sizes.png bench-latency.png; do
		[ -s "$out/$f" ] || { fail "plot $f missing"; return 1; }
	done
	grep -q "## xcable against OVS-DPDK" "$out/summary.md" && grep -q "## Latency under load against the targets" "$out/summary.md" ||
		{ fail "summary lacks the OVS-DPDK or latency tables"; return 1; }
	say "OVS-DPDK (TSO off and on) measured, stopped by SIGTERM, its run directory and daemons gone; round trips for xcable, testpmd, ovs-dpdk; VM pings under load: $n of xcable's; every record carries machine, versions, parameters; comparison and plots written"
	grep -E '^\| xcable / .*p99' "$out/summary.md" | sed 's/^/  /'
}
TESTS+=(t_bench_quick)
ONCE+=(t_bench_quick)

t_bench_notify() {
	# the notification accounting (issue 17, item 6): one short stream
	# through xcable and through tap+bridge; each record must count what
	# the guests saw, xcable's record the calls its vhost ports sent
	local out=$T/notify rec bad
	"$TOP/scripts/bench" --notify --only xcable,tap-bridge --reps 1 --vm-seconds 2 --out "$out" >notify.log 2>&1 ||
		{ tail -n 20 notify.log; fail "scripts/bench --notify failed"; return 1; }
	rec=$out/records.jsonl
	bad=$(/usr/bin/python3 - "$rec" <<'PYEOF'
import json, sys
seen = set()
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("level") != "notify":
        continue
    f = r["forwarder"]
    seen.add(f)
    # the receiving guest got the stream, and needed interrupts for it
    if not (r.get("mb") or 0) > 1 or not r.get("gbps"):
        print(f, "moved no data:", r.get("mb"), r.get("gbps"))
    if not (r.get("b_irq_per_mb") or 0) > 0:
        print(f, "no interrupts counted in B")
    for k in ("a_tx_kicks_per_mb", "b_tx_kicks_per_mb", "a_vcpu_ms_per_mb", "a_main_ms_per_mb"):
        if not isinstance(r.get(k), (int, float)):
            print(f, "no", k)
    if not (r.get("a_vcpu_ms_per_mb") or 0) > 0:
        print(f, "no vCPU time counted for A")
    if f == "xcable":
        if not (r.get("calls_to_b_per_mb") or 0) > 0 or not (r.get("fwd_ms_per_mb") or 0) > 0:
            print(f, "no calls or CPU counted for xcable:", r.get("calls_to_b_per_mb"), r.get("fwd_ms_per_mb"))
        if r.get("fwd_stop") != "term" or r.get("fwd_left_behind") != []:
            print(f, "not stopped cleanly")
for f in ("xcable", "tap-bridge"):
    if f not in seen:
        print("no notify record for", f)
PYEOF
)
	[ -z "$bad" ] || { echo "$bad" | head -n 5 | sed 's/^/  /'; fail "notification records incomplete"; return 1; }
	grep -q "where a TCP stream's notifications and CPU go" "$out/summary.md" ||
		{ fail "summary lacks the notification table"; return 1; }
	say "kicks, interrupts, calls and CPU per MB recorded for xcable and tap+bridge, and tabled"
	sed -n "/where a TCP stream's notifications/,/^## How/p" "$out/summary.md" |
		grep -E '^\| (xcable|tap-bridge) \|' | cut -d'|' -f1-9 | sed 's/^/  /'
}
TESTS+=(t_bench_notify)
ONCE+=(t_bench_notify)

t_soak_short() {
	# traffic both ways for 12 s, the right side restarting at random, then
	# xcable itself (scripts/soak --minutes 10 is the long run)
	"$TOP/scripts/soak" --seconds 12 --build "$BUILD" >soak.out 2>&1; local rc=$?
	grep '^soak: ' soak.out | sed 's/^/  /'
	[ $rc = 0 ] || fail "the soak found a crash, unaccounted frames or growth"
}
TESTS+=(t_soak_short)
ONCE+=(t_soak_short)	# a soak over time; t_change_torture runs under the sanitizers
