# SPDX-License-Identifier: BSD-3-Clause
# tests/t_lab.sh - lab links: impairments (delay, loss, rate, duplication,
# corruption), changed at runtime with xcablectl, and what they did,
# measured (gray failures and flaps: t_gray.sh)
# (sourced by tests/run; each t_* function is one test)

XCTL=${XCTL:-$BUILD/app/xcablectl}

# latency_run LOG UPS - xcpeer latency mode through xcable once it logged
# UPS "link up" lines; medians (us) of left->right and right->left in
# $LAT_LR and $LAT_RL
latency_run() {
	peer_run "$1" "$2" $(peer_eal "$T/l.sock" "$T/r.sock") -- latency --count 200 --gap-us 3000 ||
		{ grep -E 'latency|FAIL' "$T/peer.log" | sed 's/^/  peer: /'; fail "latency run failed"; return 1; }
	LAT_LR=$(sed -nE 's/^latency 0->1 .*median_us ([0-9.]+).*/\1/p' "$T/peer.log")
	LAT_RL=$(sed -nE 's/^latency 1->0 .*median_us ([0-9.]+).*/\1/p' "$T/peer.log")
	grep '^latency' "$T/peer.log" | sed 's/^/  peer: /'
}

t_impair_delay() {
	local base
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	latency_run xc.log 2 || return 1
	base=$(awk -v a="$LAT_LR" -v b="$LAT_RL" 'BEGIN { print a + b }')
	xc_stop
	xc_start xc2.log --left "$T/l.sock" --right "$T/r.sock" --impair delay=10ms
	wait_log xc2.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	latency_run xc2.log 2 || return 1
	xc_stop
	# a round trip crosses both directions: 10 ms each way
	awk -v a="$LAT_LR" -v b="$LAT_RL" -v z="$base" 'BEGIN {
		rise = (a + b - z) / 1000
		printf "  round trip %.3f ms without delay, %.3f ms with 10 ms each way: +%.3f ms (20 ms +/- 10%%)\n", z / 1000, (a + b) / 1000, rise
		exit !(rise >= 18 && rise <= 22) }' || { fail "the delay is not 20 ms +/- 10%"; return 1; }
}
TESTS+=(t_impair_delay)
ONCE+=(t_impair_delay)	# measures time; t_unit_impair runs the delay line on both

# stream_pair SECONDS PPS - left sends PPS frames/s for SECONDS, right only
# receives; outputs in left.out and right.out (xcable must run with
# --no-link-propagation: the frontends do not reconnect, and the left one
# leaves first)
stream_pair() {
	local rp
	"$XCPEER" $(peer_eal "$T/r.sock") -- stream --id 2 --pps 0 --seconds $(($1 + 3)) >right.out 2>&1 & rp=$!
	"$XCPEER" $(peer_eal "$T/l.sock") -- stream --id 1 --pps "$2" --seconds "$1" --wait-file "$T/go" >left.out 2>&1 &
	wait_log xc.log "link up" 2 30 || { fail "frontends did not connect"; return 1; }
	touch "$T/go"
	wait $! ; wait $rp
}

t_impair_loss() {
	local sent got lost counted
	rm -f "$T/go"
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --impair-to-right loss=5% --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	# 5000 frames/s for 3 s: at least 10 000 even on a busy machine
	stream_pair 3 5000 || return 1
	xc_stop
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out); got=$(received_from right.out 1)
	lost=$((sent - ${got:-0})); counted=$(counter xc.log "cable0 left->right" impair-loss)
	say "5% random loss: left sent $sent, right received ${got:-0}: $lost lost; xcable counted $counted as impair-loss"
	# 10 000 frames at 5%: 500 expected, sd 22; 4% to 6% is +/- 4.5 sd
	[ "$sent" -ge 10000 ] && [ "$lost" -ge $((sent / 25)) ] && [ "$lost" -le $((sent * 3 / 50)) ] ||
		{ fail "too few frames sent, or loss outside the statistical bounds"; return 1; }
	[ "$lost" = "$counted" ] || { fail "lost frames and impair-loss differ"; return 1; }
}
TESTS+=(t_impair_loss)
ONCE+=(t_impair_loss)	# a rate; t_unit_impair runs the loss paths on both

t_impair_bursty_loss() {
	local sent got lost
	rm -f "$T/go"
	# Gilbert-Elliott: 1% good->bad, 25% bad->good, all lost when bad:
	# 1/26 of the time bad (3.8%), in bursts of 4 on average
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --impair-to-right ge=1%/25% --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	stream_pair 2 5000 || return 1
	xc_stop
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out); got=$(received_from right.out 1)
	lost=$((sent - ${got:-0}))
	say "Gilbert-Elliott 1%/25%: sent $sent, lost $lost ($(awk -v l=$lost -v s=$sent 'BEGIN { printf "%.2f", 100 * l / s }')%, expected about 3.8%)"
	[ "$lost" -ge $((sent / 100)) ] && [ "$lost" -le $((sent * 8 / 100)) ] || { fail "bursty loss outside bounds"; return 1; }
	[ "$lost" = "$(counter xc.log 'cable0 left->right' impair-ge-loss)" ] || { fail "lost frames and impair-ge-loss differ"; return 1; }
}
TESTS+=(t_impair_bursty_loss)
ONCE+=(t_impair_bursty_loss)	# a rate; t_unit_impair runs Gilbert-Elliott on both

t_impair_rate() {
	local frames mbps
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --impair rate=100mbit
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	peer_run xc.log 2 $(peer_eal "$T/l.sock" "$T/r.sock") -- goodput --tx none --rx none --warmup 1 --seconds 3 ||
		{ fail "goodput run failed"; return 1; }
	xc_stop
	frames=$(sed -nE 's/^goodput .* frames ([0-9]+).*/\1/p' "$T/peer.log")
	# 1514-byte frames
	mbps=$(awk -v f="$frames" 'BEGIN { printf "%.1f", f * 1514 * 8 / 3 / 1e6 }')
	say "rate=100mbit: $frames frames of 1514 bytes in 3 s: $mbps Mbit/s"
	say "xcable: $(grep -m1 'cable0 left->right' xc.log | grep -oE 'impair-queue-full [0-9]+') (the sender offered more)"
	awk -v m="$mbps" 'BEGIN { exit !(m >= 90 && m <= 100.5) }' || { fail "rate not between 90 and 100 Mbit/s"; return 1; }
}
TESTS+=(t_impair_rate)
ONCE+=(t_impair_rate)	# measures a rate against time

t_impair_dup_corrupt() {
	local sent got dup cor
	rm -f "$T/go"
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --impair-to-right dup=10%,corrupt=10% --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	stream_pair 2 5000 || return 1
	xc_stop
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out)
	# corrupted frames may name another stream or none (stray): count all
	got=$(awk '/^received-from/ { n += $3 } /^stray/ { n += $2 } END { print n + 0 }' right.out)
	dup=$(counter xc.log "cable0 left->right" duplicated); cor=$(counter xc.log "cable0 left->right" corrupted)
	say "dup=10%,corrupt=10% over $sent frames: $dup duplicated, $cor corrupted; right received $got frames"
	[ "$dup" -ge $((sent * 8 / 100)) ] && [ "$dup" -le $((sent * 12 / 100)) ] &&
	[ "$cor" -ge $((sent * 8 / 100)) ] && [ "$cor" -le $((sent * 12 / 100)) ] || { fail "counts outside bounds"; return 1; }
	[ "$got" = $((sent + dup)) ] || { fail "right did not get every frame plus the duplicates"; return 1; }
}
TESTS+=(t_impair_dup_corrupt)

t_xcablectl_runtime() {
	local lp rp j out rc
	rm -f "$T/go"
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation
	wait_log xc.log "control: xcablectl" 1 20 || { fail "no control socket"; return 1; }
	say "$(grep -m1 'control: xcablectl' xc.log | sed 's/^xcable: //')"
	stream_peer left.out "$T/l.sock" 1 8 & lp=$!
	stream_peer right.out "$T/r.sock" 2 8 & rp=$!
	wait_log xc.log "link up" 2 30 || { fail "frontends did not connect"; return 1; }
	sleep 2
	"$XCTL" -p "xcable-$XC_PID" impair cable0 to-right delay=5ms,jitter=1ms >ctl.out 2>&1 || { cat ctl.out; fail "impair refused"; return 1; }
	"$XCTL" -p "xcable-$XC_PID" show cable0 >show.out 2>&1 || { fail "show failed"; return 1; }
	grep -q "left->right: .*impair delay=5.000ms,jitter=1.000ms" show.out || { cat show.out; fail "show does not list the impairment"; return 1; }
	say "xcablectl show cable0: $(grep 'left->right' show.out | sed 's/^ *//')"
	sleep 2
	"$XCTL" -p "xcable-$XC_PID" clear cable0 >/dev/null 2>&1 || { fail "clear refused"; return 1; }
	"$XCTL" -p "xcable-$XC_PID" list >list.out 2>&1 || { fail "list failed"; return 1; }
	grep -q "left->right: .*impair none" list.out || { cat list.out; fail "impairment not cleared"; return 1; }
	# bad requests: exit 2 with a message, and traffic goes on
	for req in "impair nosuch delay=1ms" "impair cable0 delay=fast" "impair cable0 sideways loss=1%" "reboot" "impair cable0 jitter=5ms"; do
		"$XCTL" -p "xcable-$XC_PID" $req >out.txt 2>&1; rc=$?
		say "xcablectl $req: exit $rc, $(tail -n 1 out.txt)"
		[ $rc = 2 ] && grep -q '^xcablectl: ' out.txt || { fail "bad request not refused with exit 2"; return 1; }
	done
	"$XCTL" -s "$T/nosuch.ctl" list >out.txt 2>&1; rc=$?
	say "xcablectl -s $T/nosuch.ctl list: exit $rc, $(tail -n 1 out.txt)"
	[ $rc = 2 ] || { fail "unreachable xcable not exit 2"; return 1; }
	wait $lp $rp
	sleep 0.5
	xc_stop
	# the delay changed and went; nothing was lost to it
	check_dir_clean_ex xc.log "cable0 left->right" || return 1
}
TESTS+=(t_xcablectl_runtime)
SAN_ONCE+=(t_xcablectl_runtime)	# requests; the t_ctl_* tests run the control socket on both

# clients of the control socket and of telemetry that hang up before
# reading their answers (a killed xcablectl, a script's timeout) must cost
# xcable nothing (until it ignored SIGPIPE, the first control client that
# did so killed it)
t_ctl_clients_hang_up() {
	local prefix
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	prefix="xcable-$XC_PID"
	/usr/bin/python3 - "$T/x.ctl" "/var/run/dpdk/$prefix/dpdk_telemetry.v2" <<'PY' >hang.out 2>&1
import socket, sys, time
ctl, tel = sys.argv[1], sys.argv[2]
n, turned_away = [0, 0], 0
for i in range(100):
    for path, kind, req in ((ctl, socket.SOCK_STREAM, b"show cable0\n" if i % 2 else b"list\n"),
                            (tel, socket.SOCK_SEQPACKET, b"/xcable/cable,cable0")):
        # DPDK's telemetry closes connections beyond its 10 clients at
        # once (threads of earlier clients may not have ended): try again
        for attempt in range(50):
            s = socket.socket(socket.AF_UNIX, kind)
            try:
                s.connect(path)
                s.send(req)
                n[path == tel] += 1
                break
            except (ConnectionRefusedError, FileNotFoundError) as e:
                sys.exit(f"refused: {path}: {e}")	# nobody listens
            except OSError as e:
                turned_away += 1
                last = e
                time.sleep(0.02)
            finally:
                s.close()
        else:
            print("turned away 50 times:", path, last)
print(f"{n[0]} control and {n[1]} telemetry requests sent, answers never read ({turned_away} turned away and sent again)")
PY
	say "$(tail -n 1 hang.out)"
	sleep 0.5
	kill -0 "$XC_PID" 2>/dev/null || { xc_stop; fail "xcable died (exit status $XC_RC)"; return 1; }
	grep -q "^100 control and 100 telemetry" hang.out || { cat hang.out; fail "the clients could not connect"; return 1; }
	"$XCTL" -s "$T/x.ctl" list >list.out 2>&1 || { cat list.out; fail "xcablectl list fails afterwards"; return 1; }
	say "xcablectl list afterwards: $(grep -m1 cable0 list.out)"
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	say "the cable still forwards"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_ctl_clients_hang_up)

# check_dir_clean_ex LOG DIR - rx = tx and no drop but peer-down at the
# start (a frontend connecting before the other)
check_dir_clean_ex() {
	local rx tx dr pd
	rx=$(counter "$1" "$2" rx-pkts); tx=$(counter "$1" "$2" tx-pkts)
	dr=$(counter "$1" "$2" dropped); pd=$(counter "$1" "$2" peer-down)
	say "$2: rx $rx tx $tx dropped $dr (peer-down $pd)"
	[ "$rx" = $((tx + dr)) ] && [ "$dr" = "$pd" ] || fail "frames lost other than while the peer was away"
}

# what an impairment did, measured: request/response round trips (a ping
# every 2 ms) through a cable of 50 ms each way under a bulk stream that
# keeps at most 500 frames in flight, as a TCP's window; xcablectl show
# reports the delays measured on the frames leaving the delay line, which
# must be the 50 ms and agree with the round trips the peer measured, and
# the rate and frames the peer saw
t_impair_measured() {
	local pp
	rm -f "$T/go"
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl" \
		--impair delay=50ms --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	"$XCPEER" $(peer_eal "$T/l.sock" "$T/r.sock") -- rr --load 1 --window 500 --gap-us 2000 \
		--warmup 1 --seconds 14 --wait-file "$T/go" >peer.out 2>&1 & pp=$!
	wait_log xc.log "link up" 2 30 || { fail "frontends did not connect"; return 1; }
	touch "$T/go"
	# the report covers 5 to 10 s: 12 s in, all of it under the stream
	sleep 12
	"$XCTL" -s "$T/x.ctl" show cable0 >show.txt 2>&1 &&
	"$XCTL" -s "$T/x.ctl" show cable0 --json >show.json 2>&1 || { cat show.txt; fail "show failed"; return 1; }
	wait $pp || { cat peer.out; fail "the round trips failed"; return 1; }
	xc_stop
	grep measured show.txt | sed 's/^ */  xcablectl show: /'
	grep '^rr ' peer.out | sed 's/^/  peer: /'
	/usr/bin/python3 - <<'PY'
import json, re, sys
d = json.load(open("show.json"))["cables"]["cable0"]["directions"]
r, l = d["left->right"]["measured"], d["right->left"]["measured"]
p = dict(re.findall(r"(\w+) ([\d.]+)", re.search(r"^rr .*", open("peer.out").read(), re.M).group(0)))
rtt, gbps, got, secs = float(p["p50_us"]), float(p["bulk_gbps"]), int(p["received"]), int(p["seconds"])
ok = True
def check(what, good):
    global ok
    print("  %s: %s" % ("ok" if good else "NOT", what))
    ok &= good
for name, m in (("to the right", r), ("to the left", l)):
    check("%s: p50 %.3f ms, within 1 ms of the 50 ms configured (min %.3f, p99 %.3f, max %.3f ms)"
          % (name, m["delay-p50-us"] / 1e3, m["delay-min-us"] / 1e3, m["delay-p99-us"] / 1e3,
             m["delay-max-us"] / 1e3), abs(m["delay-p50-us"] - 50000) <= 1000)
    check("%s: no frame left the delay line before its 50 ms" % name, m["delay-min-us"] >= 50000)
    check("%s: nothing dropped (%s)" % (name, m["dropped"]), not any(m["dropped"].values()))
# a round trip is the two delay lines and the way through xcable and the
# peer: 2 ms more at most (the histogram's buckets are 0.5 ms wide there)
both = r["delay-p50-us"] + l["delay-p50-us"]
check("the peer's round trips, p50 %.3f ms, agree with the two p50s, %.3f ms (within 2 ms, not shorter)"
      % (rtt / 1e3, both / 1e3), -600 <= rtt - both <= 2000)
win = r["window-ms"] / 1e3
check("window of %.1f s: 5 to 10 s" % win, 5 <= win < 10)
check("to the left, responses: %d out of the delay line in %.1f s, %.0f/s; the peer got %.0f/s (within 10%%)"
      % (l["delayed"], win, l["delayed"] / win, got / secs),
      abs(l["delayed"] / win - got / secs) <= 0.1 * got / secs)
check("to the right, rate %.1f Mbit/s; the peer's bulk stream %.1f Mbit/s (within 10%%)"
      % (r["rate-bps"] / 1e6, gbps * 1e3), abs(r["rate-bps"] / 1e9 - gbps) <= 0.1 * gbps)
sys.exit(0 if ok else 1)
PY
	[ $? = 0 ] || { fail "the report does not agree with the configuration or with what the peer measured"; return 1; }
}
TESTS+=(t_impair_measured)
ONCE+=(t_impair_measured)	# measures time; t_gray_blackhole reads show on both
