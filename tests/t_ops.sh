# SPDX-License-Identifier: BSD-3-Clause
# tests/t_ops.sh - operating xcable: telemetry
# (sourced by tests/run; each t_* function is one test)

# tel PREFIX CMD - one dpdk-telemetry.py query, JSON on stdout
tel() { echo "$2" | dpdk-telemetry.py -f "$1" 2>/dev/null | grep "^{"; }

t_telemetry_matches_counters() {
	local lp rp q1 q2 j
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	j=$(tel "xcable-$XC_PID" /xcable/cables)
	say "/xcable/cables: $j"
	[ "$j" = '{"/xcable/cables": ["cable0"]}' ] || { fail "unexpected cable list"; return 1; }
	# queries while traffic flows: two frontends sending 2000 frames/s
	stream_peer left.out "$T/l.sock" 1 6 & lp=$!
	stream_peer right.out "$T/r.sock" 2 6 & rp=$!
	wait_log xc.log "link up" 2 30 || { fail "frontends did not connect"; return 1; }
	sleep 1
	tel "xcable-$XC_PID" /xcable/cable,cable0 >during1.json
	sleep 1
	tel "xcable-$XC_PID" /xcable/cable,cable0 >during2.json
	/usr/bin/python3 - during1.json during2.json <<'PY' || { fail "telemetry during traffic is wrong"; return 1; }
import json, sys
a, b = (json.load(open(f))["/xcable/cable"] for f in sys.argv[1:3])
print("  during traffic: left_to_right/rx_pkts %d, a second later %d; links %s/%s; end0 virtio features 0x%x"
      % (a["left_to_right/rx_pkts"], b["left_to_right/rx_pkts"], b["end0/link"], b["end1/link"], b["end0/virtio_features"]))
assert b["left_to_right/rx_pkts"] > a["left_to_right/rx_pkts"] > 0, "counters did not move"
assert b["right_to_left/rx_pkts"] > a["right_to_left/rx_pkts"] > 0, "counters did not move"
assert b["end0/link"] == "up" and b["end1/link"] == "up", "links not up"
assert b["end0/virtio_features"] & (1 << 32), "VIRTIO_F_VERSION_1 missing from the negotiated features"
assert b["end0/socket"].endswith("/l.sock") and b["end1/mode"] == "server"
PY
	wait $lp $rp
	sleep 0.5
	tel "xcable-$XC_PID" /xcable/cable,cable0 >after.json
	[ -z "$(tel "xcable-$XC_PID" /xcable/cable,nosuch | grep -v null)" ] || { fail "unknown cable name answered"; return 1; }
	say "unknown cable name: null answer"
	xc_stop
	/usr/bin/python3 - after.json xc.log <<'PY' || { fail "telemetry and final counters differ"; return 1; }
import json, re, sys
t = json.load(open(sys.argv[1]))["/xcable/cable"]
ok, n = True, 0
for line in open(sys.argv[2]):
    m = re.match(r"cable0 (\w+)->(\w+): rx (\d+) pkts (\d+) bytes, tx (\d+) pkts (\d+) bytes, dropped (\d+)", line)
    if not m:
        continue
    p = "%s_to_%s/" % (m.group(1), m.group(2))
    got = [t[p + k] for k in ("rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes", "dropped")]
    want = [int(m.group(i)) for i in range(3, 8)]
    print("  %s: telemetry %s, final counters %s" % (p[:-1], got, want))
    ok &= got == want and want[0] > 0
    n += 1
sys.exit(0 if ok and n == 2 else 1)
PY
}
TESTS+=(t_telemetry_matches_counters)

t_socket_permissions() {
	local m g
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	m=$(stat -c %a "$T/l.sock")/$(stat -c %a "$T/r.sock")
	say "default socket modes: $m"
	[ "$m" = 660/660 ] || { fail "sockets are not 0660 by default"; return 1; }
	xc_stop
	xc_start xc2.log --left "$T/l.sock" --right "$T/r.sock" --socket-mode 0600 --socket-group nogroup
	wait_log xc2.log "running;" 1 20 || { cat xc2.log; fail "xcable did not start"; return 1; }
	m=$(stat -c %a "$T/l.sock"); g=$(stat -c %G "$T/l.sock")
	say "--socket-mode 0600 --socket-group nogroup: mode $m, group $g"
	[ "$m" = 600 ] && [ "$g" = nogroup ] || { fail "mode or group not applied"; return 1; }
	run_frames xc2.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	xc_stop
	expect_usage "bad socket mode" "socket-mode '999'" --left "$T/a" --right "$T/b" --socket-mode 999 || return 1
	expect_usage "unknown group" "no group 'no-such-group-x'" --left "$T/a" --right "$T/b" --socket-group no-such-group-x
}
TESTS+=(t_socket_permissions)
