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

t_config_three_cables() {
	local i pids=() rc=0
	cat >lab.ini <<INI
[global]
stats-interval = 0
[cable alpha]
left = $T/a0.sock
right = $T/a1.sock
[cable beta]
left = $T/b0.sock
right = $T/b1.sock
lcore = 1
[cable gamma]
left = $T/c0.sock
right = $T/c1.sock
INI
	xc_start xc.log --config lab.ini
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start from the config"; return 1; }
	say "$(grep -m1 'config mode, EAL arguments' xc.log | cut -c1-160)..."
	# all three cables at once: three frontends in parallel
	for c in a b c; do
		"$XCPEER" $(peer_eal "$T/${c}0.sock" "$T/${c}1.sock") -- frames --rounds 1 \
			--wait-file "$T/go" >"peer-$c.log" 2>&1 &
		pids+=($!)
	done
	wait_log xc.log "link up" 6 40 || { fail "not all six ends came up"; return 1; }
	touch "$T/go"
	for i in 0 1 2; do wait "${pids[$i]}" || rc=1; done
	for c in a b c; do say "cable $c: $(grep catalogue "peer-$c.log")"; done
	[ $rc = 0 ] || { fail "a cable lost or changed frames"; return 1; }
	xc_stop
	for c in alpha beta gamma; do
		check_dir_clean xc.log "$c left->right" 21 || return 1
		check_dir_clean xc.log "$c right->left" 21 || return 1
	done
}
TESTS+=(t_config_three_cables)

t_config_errors() {
	local ok=0
	printf '[cable x]\nleft = %s/a.sock\nright = %s/b.sock\nleft-clinet = yes\n' "$T" "$T" >typo.ini
	expect_usage "unknown key" "typo.ini: \[cable x\] left-clinet: unknown key" --config typo.ini || ok=1
	printf '[cable x]\nleft = %s/a.sock\n' "$T" >noright.ini
	expect_usage "missing end" "noright.ini: \[cable x\] right: missing" --config noright.ini || ok=1
	printf '[global]\nstats-interval = soon\n[cable x]\nleft = %s/a.sock\nright = %s/b.sock\n' "$T" "$T" >bad.ini
	expect_usage "bad value" "bad.ini: \[global\] stats-interval: expected seconds" --config bad.ini || ok=1
	printf '[cable x]\nleft = %s/a.sock\nright = %s/b.sock\n[cable y]\nleft = %s/b.sock\nright = %s/c.sock\n' "$T" "$T" "$T" "$T" >dup.ini
	expect_usage "socket used twice" "already used by cable x" --config dup.ini || ok=1
	printf 'left = /a\n[[[\n' >garbage.ini
	expect_usage "not INI" "garbage.ini: line 1: a key outside any section" --config garbage.ini || ok=1
	expect_usage "missing file" "nope.ini: No such file" --config "$T/nope.ini" || ok=1
	expect_usage "config and --left" "cannot be combined" --config typo.ini --left "$T/a" --right "$T/b" || ok=1
	printf '[cable x]\nleft = %s/a.sock\nright = %s/b.sock\nlcore = 5\n' "$T" "$T" >lcore.ini
	expect_usage "lcore not enabled" "lcore 5 is not enabled" -l 0-1 -- --config lcore.ini || ok=1
	ls "$T"/*.sock >/dev/null 2>&1 && { fail "sockets were created before the config was accepted"; ok=1; }
	return $ok
}
TESTS+=(t_config_errors)
