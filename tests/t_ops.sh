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
	for q in "list" "list --json" "show cable0" "show cable0 --json"; do
		"$BUILD/app/xcablectl" -p "xcable-$XC_PID" $q >"ctl-${q// /_}.out" 2>&1 ||
			{ cat "ctl-${q// /_}.out"; fail "xcablectl $q failed"; return 1; }
	done
	xc_stop
	# every counter of app/model/stats.c's table, under its name, in the exit
	# lines, xcablectl (text and JSON) and telemetry ('_' for '-'), with
	# the values of the final counters (--stats-json)
	/usr/bin/python3 - "$(dirname "${BASH_SOURCE[0]}")/../app/model/stats.c" \
		"$(stats_json xc.log)" after.json xc.log ctl-*.out <<'PY' || { fail "counters differ between the exit lines, xcablectl, telemetry and --stats-json"; return 1; }
import json, re, sys
src = open(sys.argv[1]).read()
body = src[src.index("dir_counters[] = {"):]
names = re.findall(r'(?:_CTR\(|\{ )"([a-z-]+)"', body[:body.index("};")])
final = json.load(open(sys.argv[2]))["cables"]["cable0"]["directions"]
tel = json.load(open(sys.argv[3]))["/xcable/cable"]
ok, seen = len(names) >= 19, set()
def pairs(text):
    t = text.split()
    return dict(zip(t[0::2], t[1::2]))
for d, v in final.items():
    k = v["counters"]
    ok &= list(k) == names and k["rx-pkts"] > 0
    want = [k[n] for n in names]
    got = {}
    got["telemetry"] = [tel.get(d.replace("->", "_to_") + "/" + n.replace("-", "_")) for n in names]
    for f in sys.argv[4:]:
        text = open(f).read()
        if f.endswith("json.out"):
            c = json.loads(text[:text.rindex("}") + 1])["cables"]["cable0"]["directions"][d]["counters"]
            got[f[:-4]] = [c.get(n) for n in names] if list(c) == names else list(c)
            continue
        pre = ("cable0 " if f == "xc.log" else "  ") + d + ": "
        line = [l[len(pre):] for l in text.splitlines() if l.startswith(pre)][-1]
        kv = pairs(line.split(" impair ")[0])
        got[f] = [int(kv[n]) if n in kv else None for n in names] if list(kv) == names else list(kv)
    for where, g in got.items():
        good = g == want
        ok &= good
        seen.add(where)
        if not good:
            print("  %s %s: %s, --stats-json %s" % (d, where, g, want))
    print("  %s: %d counters, the same in --stats-json, %s" % (d, len(names), ", ".join(sorted(got))))
sys.exit(0 if ok and len(final) == 2 and len(seen) == 6 else 1)
PY
}
TESTS+=(t_telemetry_matches_counters)
SAN_ONCE+=(t_telemetry_matches_counters)	# CI time: correctness alone, under the sanitizers

t_socket_permissions() {
	local m g u
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	m=$(stat -c %a "$T/l.sock")/$(stat -c %a "$T/r.sock")
	say "default socket modes: $m"
	[ "$m" = 660/660 ] || { fail "sockets are not 0660 by default"; return 1; }
	xc_stop
	xc_start xc2.log --left "$T/l.sock" --right "$T/r.sock" --socket-mode 0600 --socket-group nogroup --socket-owner nobody
	wait_log xc2.log "running;" 1 20 || { cat xc2.log; fail "xcable did not start"; return 1; }
	m=$(stat -c %a "$T/l.sock"); g=$(stat -c %G "$T/l.sock"); u=$(stat -c %U "$T/l.sock")
	say "--socket-mode 0600 --socket-group nogroup --socket-owner nobody: mode $m, owner $u, group $g"
	[ "$m" = 600 ] && [ "$g" = nogroup ] && [ "$u" = nobody ] || { fail "mode, owner or group not applied"; return 1; }
	run_frames xc2.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	xc_stop
	expect_usage "bad socket mode" "socket-mode '999'" --left "$T/a" --right "$T/b" --socket-mode 999 || return 1
	expect_usage "unknown group" "no group 'no-such-group-x'" --left "$T/a" --right "$T/b" --socket-group no-such-group-x || return 1
	expect_usage "unknown owner" "no user 'no-such-user-x'" --left "$T/a" --right "$T/b" --socket-owner no-such-user-x
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
	expect_usage "socket used twice" "is already an end of cable x" --config dup.ini || ok=1
	printf '[cable x]\nleft = %s/a.sock\nright = %s/b.sock\nleft-queues = 2\n' "$T" "$T" >queues.ini
	expect_usage "queues differ" "queues.ini: \[cable x\] right-queues: both ends need the same number of queues" --config queues.ini || ok=1
	printf '[global]\nqueues = 9\n[cable x]\nleft = %s/a.sock\nright = %s/b.sock\n' "$T" "$T" >q9.ini
	expect_usage "too many queues" "q9.ini: \[global\] queues: expected a number of queue pairs from 1 to 8" --config q9.ini || ok=1
	printf '[cable x]\nleft = %s/a.sock\nright = %s/b.sock\nright-offloads = maybe\n' "$T" "$T" >offl.ini
	expect_usage "bad offloads value" "offl.ini: \[cable x\] right-offloads: expected yes or no" --config offl.ini || ok=1
	printf '[cable x]\nleft = %s/a.sock\nright = %s/b.sock\nimpair-to-left = delay=soon\n' "$T" "$T" >imp.ini
	expect_usage "bad impairment" "imp.ini: \[cable x\] impair-to-left: impairment delay='soon': expected a time" --config imp.ini || ok=1
	printf '[global]\nlink-propagation = perhaps\n[cable x]\nleft = %s/a.sock\nright = %s/b.sock\n' "$T" "$T" >lp.ini
	expect_usage "bad link-propagation" "lp.ini: \[global\] link-propagation: expected yes or no" --config lp.ini || ok=1
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

# with_hugetlbfs - mount a private hugetlbfs under $T if none is mounted (the
# shared memory dpdk-dumpcap attaches to lives there); undo with
# drop_hugetlbfs
with_hugetlbfs() {
	HUGE_MNT=
	grep -q ' hugetlbfs ' /proc/mounts && return 0
	mkdir -p "$T/huge" && mount -t hugetlbfs nodev "$T/huge" || return 1
	HUGE_MNT=$T/huge
}
drop_hugetlbfs() { [ -z "$HUGE_MNT" ] || umount "$HUGE_MNT" || umount -l "$HUGE_MNT"; }

# a capture process (a DPDK secondary) that dies holding xcable's shared
# memory lock, as a crashing dpdk-dumpcap did in CI: the cable still
# forwards (the lcores take no lock), and at SIGTERM xcable prints its
# final counters and exits (status 1, saying why) instead of waiting for
# ever on the lock (app/util/watchdog.c)
t_stop_watchdog() {
	local prefix t0 t1
	ensure_hugepages 512 && with_hugetlbfs || { fail "cannot mount a hugetlbfs"; return 1; }
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "capture cable0 with" 1 20 || { cat xc.log; drop_hugetlbfs; fail "xcable offers no capture"; return 1; }
	prefix=$(sed -nE 's/.*--file-prefix=([^ ]+) -i net_vhost0.*/\1/p' xc.log)
	(timeout 30 "$BUILD/tests/deadsecondary" --file-prefix="$prefix" --log-level=lib.eal:warning >dead.log 2>&1) 2>/dev/null
	grep -q '^holding' dead.log || { cat dead.log; xc_stop; drop_hugetlbfs; fail "the secondary did not take the lock"; return 1; }
	say "a secondary attached to $prefix, took the memory lock and was killed holding it"
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 1 || { xc_stop; drop_hugetlbfs; return 1; }
	t0=$(date +%s)
	xc_stop
	t1=$(date +%s)
	drop_hugetlbfs
	say "SIGTERM: xcable exited with $XC_RC after $((t1 - t0)) s: $(grep -o 'the shutdown has not finished in time[^(]*' xc.log)"
	grep -q "xcable: final counters" xc.log || { fail "no final counters before the stuck part"; return 1; }
	[ "$XC_RC" = 1 ] && grep -q "the shutdown has not finished in time" xc.log ||
		{ tail -n 5 xc.log; fail "xcable did not say why it gave up"; return 1; }
	[ $((t1 - t0)) -le 30 ] || { fail "the shutdown took $((t1 - t0)) s"; return 1; }
	check_dir_clean xc.log "cable0 left->right" "$FRAMES_N"
}
TESTS+=(t_stop_watchdog)
ONCE+=(t_stop_watchdog)	# a secondary of the sanitizer build cannot always map the primary's memory

t_capture_dumpcap() {
	local prefix dc n sum lr rl rc=0
	ensure_hugepages 512 && with_hugetlbfs || { fail "cannot mount a hugetlbfs"; return 1; }
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "capture cable0 with" 1 20 || { cat xc.log; drop_hugetlbfs; fail "xcable offers no capture"; return 1; }
	prefix=$(sed -nE 's/.*--file-prefix=([^ ]+) -i net_vhost0.*/\1/p' xc.log)
	say "xcable says: $(grep -m1 'capture cable0 with' xc.log | sed 's/^xcable: //')"
	# 2 rounds of the catalogue each way: 84 frames cross port 0 (42 in, 42 out)
	timeout 60 dpdk-dumpcap --file-prefix="$prefix" -i net_vhost0 -s 16384 \
		-w "$T/cap.pcapng" -c 84 >dumpcap.log 2>&1 & dc=$!
	wait_log dumpcap.log "Packets captured" 1 20 || { cat dumpcap.log; fail "dpdk-dumpcap did not attach"; rc=1; }
	[ $rc = 0 ] && { run_frames xc.log "$T/l.sock" "$T/r.sock" 2 2 || rc=1; }
	wait $dc || { [ $rc = 1 ] || fail "dpdk-dumpcap did not capture 84 frames: $(tr '\r' '\n' <dumpcap.log | grep -a 'received/dropped')"; rc=1; }
	xc_stop
	drop_hugetlbfs
	[ $rc = 0 ] || return 1
	say "dumpcap: $(tr '\r' '\n' <dumpcap.log | grep -a 'received/dropped')"
	check_dir_clean xc.log "cable0 left->right" 42 || return 1
	check_dir_clean xc.log "cable0 right->left" 42 || return 1
	sum=$("$(dirname "${BASH_SOURCE[0]}")/pcapng_sum.py" "$T/cap.pcapng") || { fail "capture file unreadable"; return 1; }
	say "capture file: $(echo $sum)"
	n=$(tcpdump -r "$T/cap.pcapng" -nn -q 2>/dev/null | grep -c '^[0-9]')
	say "tcpdump reads $n frames from it"
	[ "$n" = 84 ] || { fail "tcpdump read $n frames, not 84"; return 1; }
	# exactly the frames xcable counted, whole: left's on the way in,
	# right's on the way out
	lr=$(counter xc.log "cable0 left->right" rx-bytes)
	rl=$(counter xc.log "cable0 right->left" rx-bytes)
	[ "$sum" = "$(printf 'in 42 pkts %s bytes\nout 42 pkts %s bytes\nunknown 0 pkts 0 bytes\ntruncated 0' "$lr" "$rl")" ] ||
		{ fail "the capture does not hold exactly the frames that crossed port 0 ($lr and $rl bytes)"; return 1; }
	ls /var/run/dpdk/"$prefix" >/dev/null 2>&1 && { fail "runtime directory /var/run/dpdk/$prefix left behind"; return 1; }
	say "xcable removed its runtime directory and hugepage files at exit"
}
TESTS+=(t_capture_dumpcap)
ONCE+=(t_capture_dumpcap)	# dpdk-dumpcap cannot always map an ASan primary's memory (its VA clashes) and can crash holding its lock

# xc_start_as USER LOG ARGS... - xc_start as USER, with a runtime directory
# of its own as a login gives one (setpriv execs xcable itself: xc_stop's
# SIGTERM and exit status are xcable's own, no su in between); its counters
# go to $XC_AS_JSON, in that directory (USER cannot write where the tests
# read them: copy it to $(stats_json LOG) after xc_stop)
xc_start_as() {
	local user=$1 log=$2; shift 2
	mkdir -p "$T/run-$user" && chown "$user" "$T/run-$user" || return 1
	XC_AS_JSON=$T/run-$user/$(basename "$(stats_json "$log")")
	XDG_RUNTIME_DIR=$T/run-$user setpriv --reuid="$user" --regid="$(id -g "$user")" \
		--clear-groups "$XC" "$@" --stats-json "$XC_AS_JSON" >"$log" 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
}

# user_cable LOG WHAT EAL NOTE - as nobody, simple mode starts with the EAL
# option EAL, logs NOTE (why dpdk-dumpcap cannot attach), carries the frame
# catalogue both ways (frontend as root) and exits 0 on SIGTERM
user_cable() {
	local log=$1 what=$2 eal=$3 note=$4 s=$T/nobody args
	rm -f "$s"/*.sock
	xc_start_as nobody "$log" --left "$s/l.sock" --right "$s/r.sock"
	wait_log "$log" "running;" 1 20 || { cat "$log"; fail "xcable did not start as nobody $what"; return 1; }
	args=$(grep -m1 "EAL arguments:" "$log")
	[[ "$args " == *" $eal "* && $args != *--huge-dir* ]] ||
		{ echo "$args"; fail "simple mode did not pick $eal, or picked a hugetlbfs"; return 1; }
	grep -q "^xcable: hugetlbfs .*$note.*so dpdk-dumpcap cannot attach (xcablectl capture can)" "$log" ||
		{ cat "$log"; fail "xcable did not say why dpdk-dumpcap cannot attach"; return 1; }
	say "as nobody $what: $(grep -m1 "^xcable: hugetlbfs" "$log" | sed 's/^xcable: //; s/, so dpdk-dumpcap.*//')"
	run_frames "$log" "$s/l.sock" "$s/r.sock" 2 1 || return 1
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable as nobody exited with $XC_RC"; return 1; }
	cp "$XC_AS_JSON" "$(stats_json "$log")" || { fail "no counters from xcable as nobody"; return 1; }
	check_dir_clean "$log" "cable0 left->right" "$FRAMES_N" || return 1
	check_dir_clean "$log" "cable0 right->left" "$FRAMES_N"
}

t_simple_mode_ordinary_user() {
	local dir
	# a DPDK host: root reserved hugepages and mounted a hugetlbfs (0755,
	# root's); an ordinary user's cable must not pick it, as root's must
	ensure_hugepages 512 || { fail "cannot reserve hugepages"; return 1; }
	chmod 0711 "$T"	# nobody may pass through, not read or write
	mkdir -m 0755 "$T/huge" "$T/nobody" && chown nobody "$T/nobody" &&
		mount -t hugetlbfs -o mode=0755 nodev "$T/huge" || { fail "cannot mount a hugetlbfs"; return 1; }
	# a host may have its own hugetlbfs mounts (systemd's /dev/hugepages):
	# xcable names the first it cannot use, ours or the host's
	user_cable xc1.log "with $T/huge mounted" --in-memory "[^ ]* is not writable for uid $(id -u nobody)" || return 1
	# a mount nobody cannot even open: DPDK would fail to lock it
	mkdir -m 0700 "$T/closed" && mkdir "$T/closed/huge" &&
		mount -t hugetlbfs nodev "$T/closed/huge" || { fail "cannot mount a second hugetlbfs"; return 1; }
	user_cable xc2.log "with $T/closed/huge mounted too" --no-huge "$T/closed/huge cannot be opened" || return 1
	# root still shares its hugepages there, and can be captured
	xc_start xc3.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc3.log "capture cable0 with" 1 20 || { cat xc3.log; fail "xcable as root offers no capture"; return 1; }
	dir=$(grep -m1 -oE -- "EAL arguments:.* --huge-dir=[^ ]*" xc3.log | sed 's/.*--huge-dir=//')
	awk -v d="$dir" '$2 == d && $3 == "hugetlbfs" { f = 1 } END { exit !f }' /proc/mounts ||
		{ grep "EAL arguments" xc3.log; fail "root did not use a hugetlbfs ($T/huge or the host's)"; return 1; }
	say "as root: $(grep -o -- '--single-file-segments --huge-dir=[^ ]*' xc3.log), capture offered"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable as root exited with $XC_RC"; return 1; }
	umount "$T/closed/huge" && umount "$T/huge" || { fail "cannot unmount the hugetlbfs mounts"; return 1; }
}
TESTS+=(t_simple_mode_ordinary_user)

t_second_frontend_refused() {
	local lp rp irc sent got j
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	stream_peer left.out "$T/l.sock" 1 8 & lp=$!
	stream_peer right.out "$T/r.sock" 2 8 & rp=$!
	wait_log xc.log "link up" 2 30 || { fail "frontends did not connect"; return 1; }
	sleep 1
	[ -S "$T/.l.sock.in-use" ] && [ -S "$T/l.sock" ] || { fail "no hidden served socket while in use"; return 1; }
	# a second frontend on the left socket while the first is attached
	# (DPDK's virtio_user leaks on this failed start: not ours to report)
	ASAN_OPTIONS=detect_leaks=0 timeout 20 "$XCPEER" $(peer_eal "$T/l.sock") -- stream --id 5 --pps 1000 --seconds 2 >intruder.out 2>&1; irc=$?
	say "second frontend on l.sock: exit $irc, $(grep -a -m1 -i 'virtio_user\|xcpeer:' intruder.out | cut -c1-100)"
	wait_log xc.log "refused a second frontend" 1 5 || { fail "xcable did not log the second frontend"; return 1; }
	say "xcable: $(grep -m1 'refused a second frontend' xc.log | sed 's/^xcable: //')"
	j=$(tel "xcable-$XC_PID" /xcable/cable,cable0)
	wait $lp $rp
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out); got=$(received_from right.out 1)
	say "left sent $sent frames over 8 s; right received ${got:-0} of them"
	if [ "$irc" = 0 ] && grep -q "^received-from" intruder.out; then fail "the second frontend got a working port"; return 1; fi
	[ -z "$(received_from right.out 5)" ] || { fail "frames of the second frontend crossed the cable"; return 1; }
	[ "${got:-0}" -ge $((sent * 9 / 10)) ] || { fail "the first frontend was disturbed"; return 1; }
	grep -q '"end0/refused_frontends": 1' <<<"$j" || { fail "telemetry does not count the refused frontend: $j"; return 1; }
	wait_log xc.log "left.*link down" 1 10 || { fail "left never went down"; return 1; }
	sleep 0.5
	[ -S "$T/l.sock" ] && [ ! -e "$T/.l.sock.in-use" ] || { fail "socket not restored after the frontend left"; return 1; }
	run_frames xc.log "$T/l.sock" "$T/r.sock" 4 1 || { fail "a new frontend cannot connect after the first left"; return 1; }
	say "after the first frontend left, the socket took a new one"
	xc_stop
	[ ! -e "$T/l.sock" ] && [ ! -e "$T/.l.sock.in-use" ] || { fail "sockets left behind at exit"; return 1; }
}
TESTS+=(t_second_frontend_refused)
SAN_ONCE+=(t_second_frontend_refused)	# a refused frontend; t_socket_in_use_and_stale runs on both
