# SPDX-License-Identifier: BSD-3-Clause
# tests/t_watch.sh - watching a lab: metrics in the Prometheus format
# (app/control/metrics.c)
# (sourced by tests/run; each t_* function is one test)

# metrics_match PROM JSON - every direction counter of the JSON document
# (xcablectl list --json) is the metric of the same name in PROM, and
# promtool accepts PROM
metrics_match() {
	promtool check metrics <"$1" >promtool.out 2>&1 ||
		{ cat promtool.out; fail "promtool check metrics refuses $1"; return 1; }
	/usr/bin/python3 - "$1" "$2" <<'PY'
import json, re, sys
prom = {}
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    name, value = line.rsplit(" ", 1)
    prom[name] = int(value)
doc = json.load(open(sys.argv[2]))
n = 0
for cable, c in doc["cables"].items():
    for d in c["directions"].values():
        for k, v in d["counters"].items():
            key = 'xcable_direction_%s_total{cable="%s",from="%s",to="%s"}' % (
                k.replace("-", "_"), cable, d["from"], d["to"])
            assert prom.get(key) == v, (key, prom.get(key), v)
            n += 1
    for e in c["ends"]:
        key = 'xcable_end_up{cable="%s",end="%s",kind="socket"}' % (cable, e["name"])
        assert prom.get(key) == (e["link"] == "up"), (key, prom.get(key), e["link"])
assert prom["xcable_cables"] == len(doc["cables"]), prom["xcable_cables"]
print("  %d direction counters and %d ends: each the metric of its name, promtool accepts the file" % (n, 2 * len(doc["cables"])))
PY
}

# --metrics-file: kept current (rewritten every --stats-interval), its
# counters those of xcablectl list --json once the frames went through,
# and valid for promtool
t_metrics_file() {
	local ctl
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --stats-interval 1 \
		--metrics-file "$T/m.prom" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 || return 1
	sleep 2.5	# two rewrites after the frames
	"$BUILD/app/xcablectl" -s "$T/x.ctl" list --json >list.json 2>&1 || { cat list.json; fail "list --json failed"; return 1; }
	grep -q '^xcable_direction_rx_pkts_total{cable="cable0",from="left",to="right"} [1-9]' "$T/m.prom" ||
		{ head "$T/m.prom"; fail "the metrics file does not count the frames"; return 1; }
	metrics_match "$T/m.prom" list.json || { fail "metrics and counters differ"; return 1; }
	[ ! -e "$T/m.prom.tmp" ] || { fail "a temporary file is left"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "exit status $XC_RC"; return 1; }
}
TESTS+=(t_metrics_file)
