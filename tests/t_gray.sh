# SPDX-License-Identifier: BSD-3-Clause
# tests/t_gray.sh - gray failures and flaps: blackhole, a mismatched MTU,
# netem's reorder, cables pulled and plugged on a schedule, one end's
# carrier taken alone; from the command line, xcablectl and config files,
# with the careless and hostile requests refused
# (sourced by tests/run; each t_* function is one test)

XCTL=${XCTL:-$BUILD/app/xcablectl}
XCFRONT=${XCFRONT:-$BUILD/tests/xcfront}

# ctl ARGS... - xcablectl on the test's control socket, answer in ctl.out
ctl() { "$XCTL" -s "$T/x.ctl" "$@" >ctl.out 2>&1; }

# show_json CABLE PYTHON-EXPR - evaluate EXPR on xcablectl show CABLE
# --json (the cable's object is c)
show_json() {
	"$XCTL" -s "$T/x.ctl" show "$1" --json >show.json 2>&1 || { cat show.json; return 1; }
	/usr/bin/python3 -c 'import json, sys
c = json.load(open("show.json"))["cables"][sys.argv[1]]
print(eval(sys.argv[2]))' "$1" "$2"
}

# both ends of the simple mode's cable up in xcablectl show (the carrier)
ends_up() {
	ctl show cable0 && grep -q "^  left: .* link up" ctl.out &&
		grep -q "^  right: .* link up" ctl.out
}

t_gray_blackhole() {
	local sent got bh rx lp rp
	rm -f "$T/go"
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl" \
		--impair-to-right blackhole --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	# 2000 frames/s for 3 s from the left; the right only receives
	"$XCPEER" $(peer_eal "$T/r.sock") -- stream --id 2 --pps 0 --seconds 6 >right.out 2>&1 & rp=$!
	"$XCPEER" $(peer_eal "$T/l.sock") -- stream --id 1 --pps 2000 --seconds 3 --wait-file "$T/go" >left.out 2>&1 & lp=$!
	wait_log xc.log "link up" 2 30 || { fail "frontends did not connect"; return 1; }
	touch "$T/go"
	sleep 1.5
	ends_up || { cat ctl.out; fail "an end is not up while the blackhole swallows"; return 1; }
	say "xcablectl show while it swallows: $(grep -c 'link up' ctl.out) ends link up; $(grep -o 'left->right: measured.*' ctl.out | cut -c1-150)..."
	wait $lp $rp
	xc_stop
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out); got=$(received_from right.out 1)
	bh=$(counter xc.log "cable0 left->right" impair-blackhole); rx=$(counter xc.log "cable0 left->right" rx-pkts)
	say "left sent $sent, right received ${got:-0}; xcable: rx-pkts $rx, impair-blackhole $bh, tx-pkts $(counter xc.log 'cable0 left->right' tx-pkts)"
	say "carrier as the frontends saw it: left $(grep link-downs left.out), right $(grep link-downs right.out)"
	[ "${sent:-0}" -ge 3000 ] || { fail "too few frames sent"; return 1; }
	[ -z "$got" ] || [ "$got" = 0 ] || { fail "frames crossed the blackhole"; return 1; }
	[ "$bh" = "$sent" ] && [ "$rx" = "$sent" ] || { fail "impair-blackhole does not count every frame sent"; return 1; }
	[ "$(counter xc.log 'cable0 left->right' dropped)" = "$bh" ] || { fail "frames dropped for another reason"; return 1; }
	grep -q "^link-downs 0" left.out && grep -q "^link-downs 0" right.out || { fail "a frontend saw its carrier go"; return 1; }
}
TESTS+=(t_gray_blackhole)

# an MTU of 1400 measured as an interface's: 1400 bytes after the
# Ethernet header and its tags pass, 1401 do not; TSO frames by their
# segments
t_gray_mtu() {
	local n=50 mtu sent got
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl" \
		--impair-to-right mtu=1400 --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	peer_run xc.log 2 $(peer_eal "$T/l.sock" "$T/r.sock") -- sizes --lens 1414,1415,1418v,1419v --count $n ||
		{ cat "$T/peer.log"; fail "sizes run failed"; return 1; }
	grep '^size' "$T/peer.log" | sed 's/^/  peer: /'
	ctl show cable0 && say "$(grep -o 'left->right: measured.*' ctl.out)"
	mtu=$(show_json cable0 'c["directions"]["left->right"]["measured"]["dropped"]["impair-mtu"]')
	xc_stop
	grep -q "^size 1414 sent $n received $n$" "$T/peer.log" &&
	grep -q "^size 1415 sent $n received 0$" "$T/peer.log" &&
	grep -q "^size 1418v sent $n received $n$" "$T/peer.log" &&
	grep -q "^size 1419v sent $n received 0$" "$T/peer.log" ||
		{ fail "not 1400 bytes of payload passing and 1401 dropped, tagged or not"; return 1; }
	say "xcable: impair-mtu $(counter xc.log 'cable0 left->right' impair-mtu) of rx-pkts $(counter xc.log 'cable0 left->right' rx-pkts); the measurement said impair-mtu $mtu"
	[ "$(counter xc.log 'cable0 left->right' impair-mtu)" = $((2 * n)) ] &&
	[ "$(counter xc.log 'cable0 left->right' dropped)" = $((2 * n)) ] &&
	[ "$(counter xc.log 'cable0 left->right' tx-pkts)" = $((2 * n)) ] &&
	[ "$mtu" = $((2 * n)) ] || { fail "the drops are not all counted as impair-mtu"; return 1; }
	# TSO frames of MSS 1448 go as segments of 1500: IPv4 (20), TCP with
	# timestamps (32), 1448
	for mtu in 1500 1499; do
		xc_start xc$mtu.log --left "$T/l.sock" --right "$T/r.sock" \
			--impair-to-right mtu=$mtu --no-link-propagation
		wait_log xc$mtu.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
		peer_run xc$mtu.log 2 $(peer_eal "$T/l.sock" "$T/r.sock") -- goodput --tx tso --rx tso --warmup 0 --seconds 1
		xc_stop
		sent=$(sed -nE 's/^goodput .* sent ([0-9]+) .*/\1/p' "$T/peer.log")
		got=$(sed -nE 's/^goodput .* received ([0-9]+).*/\1/p' "$T/peer.log")
		say "mtu=$mtu, 64 KB TSO frames of MSS 1448: sent ${sent:-?}, received ${got:-?}, impair-mtu $(counter xc$mtu.log 'cable0 left->right' impair-mtu)"
		[ "${sent:-0}" -gt 0 ] || { fail "no TSO frame sent"; return 1; }
		if [ $mtu = 1500 ]; then
			[ "$got" = "$sent" ] || { fail "TSO frames whose segments fit were dropped"; return 1; }
		else
			[ "${got:-1}" = 0 ] && [ "$(counter xc$mtu.log 'cable0 left->right' impair-mtu)" = "$sent" ] ||
				{ fail "TSO frames whose segments do not fit passed, or were not counted"; return 1; }
		fi
	done
}
TESTS+=(t_gray_mtu)

# reorder_run SPEC SECONDS - a 5000 frames/s stream from the left through
# SPEC; sets SENT, GOT, EARLY (frames that arrived ahead of an earlier
# one), MOD5 (those by number mod 5), REORD (xcable's reordered counter)
reorder_run() {
	rm -f "$T/go"
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --impair-to-right "$1" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	stream_pair "$2" 5000 || return 1
	xc_stop
	SENT=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out); GOT=$(received_from right.out 1)
	EARLY=$(sed -nE 's/^early-from 1 ([0-9]+) .*/\1/p' right.out)
	MOD5=$(sed -nE 's/^early-from 1 [0-9]+ mod5 (.*)/\1/p' right.out)
	REORD=$(counter xc.log "cable0 left->right" reordered)
	say "$1: sent $SENT, received ${GOT:-0}, ${EARLY:-?} arrived ahead of an earlier frame (by number mod 5: $MOD5); xcable counted reordered $REORD, dropped $(counter xc.log 'cable0 left->right' dropped)"
	[ "${SENT:-0}" -ge $((2500 * $2)) ] || { fail "too few frames sent"; return 1; }
	[ "$GOT" = "$SENT" ] || { fail "frames lost"; return 1; }
	[ "$EARLY" = "$REORD" ] || { fail "the frames the receiver saw ahead are not those xcable counted reordered"; return 1; }
}

t_gray_reorder() {
	local lo hi
	# netem's "reorder 25% delay 10ms": each frame has a 25% chance to be
	# sent at once, ahead of the ~50 frames waiting; 15000 frames: 3750
	# expected, sd 53. 22.5% to 27.5% is +/- 7 sd (a sender stalled for
	# more than 10 ms empties the line: the next draw overtakes nothing)
	reorder_run delay=10ms,reorder=25% 3 || return 1
	lo=$((SENT * 225 / 1000)); hi=$((SENT * 275 / 1000))
	say "reordered $REORD of $SENT: $(awk -v r="$REORD" -v s="$SENT" 'BEGIN { printf "%.2f", 100 * r / s }')% (25% expected, $lo to $hi accepted)"
	[ "$REORD" -ge "$lo" ] && [ "$REORD" -le "$hi" ] || { fail "reorder rate outside the bounds"; return 1; }
	# "reorder 100% gap 5": every 5th frame (numbers 4, 9, 14...) at once
	reorder_run delay=10ms,reorder=100%,gap=5 2 || return 1
	case $MOD5 in
	0,0,0,0,*) ;;
	*) fail "frames other than every 5th came ahead"; return 1 ;;
	esac
	# each 5th overtakes the 4 before it, unless a stalled sender let the
	# line run empty: at least 95% of them
	[ "$REORD" -ge $((SENT / 5 * 95 / 100)) ] && [ "$REORD" -le $((SENT / 5)) ] ||
		{ fail "not about every 5th frame reordered"; return 1; }
}
TESTS+=(t_gray_reorder)
ONCE+=(t_gray_reorder)	# a rate against time: the sanitizer build runs t_unit_impair's reorder cases

# flap_check OUT SIDE N DOWN_MS UP_MS - the guest SIDE of xcfront's follow
# output OUT saw exactly N carrier cycles with the timing of the schedule
flap_check() {
	/usr/bin/python3 - "$@" <<'PY'
import re, sys
out, side, n, dn, up = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
ev = [(m.group(1), int(m.group(2))) for m in
      re.finditer(r"carrier cable 0 %s (down|up) at (\d+) ms" % side, open(out).read())]
downs = [t for e, t in ev if e == "down"]
ups = [t for e, t in ev if e == "up"]
ok = len(downs) == n and len(ups) == n and [e for e, _ in ev] == ["down", "up"] * n
# the schedule is reckoned from its start: each pull DOWN + UP after the
# one before (the guest notices within 10 ms; 150 ms for a loaded machine)
gaps = [b - a for a, b in zip(downs, downs[1:])]
ok &= all(abs(g - dn - up) <= 150 for g in gaps)
# down DOWN at least; the guest is back within 1 s of the plug (DPDK
# 22.11's vhost-user thread sees a socket made again when its poll, of
# 1 s, ends) plus its 10 ms retries
held = [u - d for d, u in zip(downs, ups)]
ok &= all(dn - 20 <= h <= dn + 1100 for h in held)
print("%s: %d down, %d up; pulls %s ms apart (%d expected), down for %s ms (%d, and up to 1.1 s more to reconnect)"
      % (side, len(downs), len(ups), gaps, dn + up, held, dn))
sys.exit(0 if ok else 1)
PY
}

# flap: 3 cycles of 1 s down, 2 s up, both guests see each; show follows
t_gray_flap() {
	local fp
	xc_start xc.log --left "$T/l0.sock" --right "$T/r0.sock" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	"$XCFRONT" --pairs "$T/l%d.sock,$T/r%d.sock" --count 1 --frames 8 --follow 13 >front.out 2>&1 & fp=$!
	wait_log front.out "following the carrier" 1 20 || { cat front.out; fail "xcfront did not attach"; return 1; }
	ctl flap cable0 --down 1s --up 2s --count 3 || { cat ctl.out; fail "flap refused"; return 1; }
	sleep 1.5
	ctl show cable0 && grep -q "^  flap both ends down=1s,up=2s,count=3: cycle 2 of 3, carrier up" ctl.out ||
		{ cat ctl.out; fail "show does not say the flap runs"; return 1; }
	say "show, 1.5 s in: $(grep flap ctl.out | sed 's/^ *//')"
	[ "$(show_json cable0 'c["flap"]["state"], c["flap"]["cycles-done"], c["flap"]["carrier"]')" = "('running', 1, 'up')" ] ||
		{ cat show.json; fail "show --json does not say the flap runs"; return 1; }
	wait $fp || { cat front.out; fail "xcfront failed"; return 1; }
	grep "carrier cable 0" front.out | sed 's/^/  /'
	say "$(flap_check front.out left 3 1000 2000)" && say "$(flap_check front.out right 3 1000 2000)" ||
		{ flap_check front.out left 3 1000 2000; flap_check front.out right 3 1000 2000; fail "not 3 cycles of 1 s down, 2 s up as each guest saw them"; return 1; }
	ctl show cable0 && grep -q "^  flap both ends down=1s,up=2s,count=3: done after 3 cycle(s)" ctl.out ||
		{ cat ctl.out; fail "show does not say the flap is done"; return 1; }
	grep -q "cable0: flapping done: 3 cycle(s)" xc.log || { fail "the log does not say it"; return 1; }
	"$XCFRONT" --pairs "$T/l%d.sock,$T/r%d.sock" --count 1 --frames 32 >front2.out 2>&1 ||
		{ cat front2.out; fail "the cable does not forward after the flap"; return 1; }
	say "afterwards: $(grep 'cables 1' front2.out)"
	# stopped half-way, it gives the carrier back
	"$XCFRONT" --pairs "$T/l%d.sock,$T/r%d.sock" --count 1 --frames 8 --follow 4 >front3.out 2>&1 & fp=$!
	wait_log front3.out "following the carrier" 1 20 || { fail "xcfront did not attach"; return 1; }
	ctl flap cable0 --down 2s --up 2s --count forever && sleep 0.5 && ctl flap cable0 stop ||
		{ cat ctl.out; fail "flap forever or its stop refused"; return 1; }
	wait $fp
	grep -q "carrier cable 0 left: downs 1, ups 1" front3.out && grep -q "carrier cable 0 right: downs 1, ups 1" front3.out ||
		{ cat front3.out; fail "flap stop did not give the carrier back"; return 1; }
	ctl show cable0 && grep -q "count=forever: stopped after 0 cycle(s)" ctl.out || { cat ctl.out; fail "show does not say it stopped"; return 1; }
	say "flap forever, stopped 0.5 s in: each guest down once, back at once; show: $(grep flap ctl.out | sed 's/^ *//')"
	xc_stop
}
TESTS+=(t_gray_flap)
ONCE+=(t_gray_flap)	# a schedule in milliseconds; t_gray_down_one_end runs on both

# down CABLE END: that guest's carrier only; what the other sends is
# counted peer-down; up CABLE END gives it back
t_gray_down_one_end() {
	local fp pd pd0
	xc_start xc.log --left "$T/l0.sock" --right "$T/r0.sock" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	"$XCFRONT" --pairs "$T/l%d.sock,$T/r%d.sock" --count 1 --frames 8 --follow 5 >front.out 2>&1 & fp=$!
	wait_log front.out "following the carrier" 1 20 || { cat front.out; fail "xcfront did not attach"; return 1; }
	ctl down cable0 left || { cat ctl.out; fail "down cable0 left refused"; return 1; }
	ctl show cable0
	grep -q "^  left: .* link down (unplugged: down)" ctl.out && grep -q "^  right: .* link up," ctl.out ||
		{ cat ctl.out; fail "show does not say left alone is down"; return 1; }
	say "show: $(grep '^  left:' ctl.out | cut -c1-80)...; $(grep '^  right:' ctl.out | cut -c1-60)..."
	[ "$(show_json cable0 '[e.get("unplugged") for e in c["ends"]]')" = "['down', None]" ] ||
		{ cat show.json; fail "show --json does not say left alone is unplugged"; return 1; }
	sleep 2
	ctl up cable0 left || { cat ctl.out; fail "up cable0 left refused"; return 1; }
	wait $fp
	grep "carrier cable 0" front.out | sed 's/^/  /'
	grep -q "carrier cable 0 left: downs 1, ups 1" front.out && grep -q "carrier cable 0 right: downs 0, ups 0" front.out ||
		{ fail "not the left guest alone that lost its carrier"; return 1; }
	# the right end's frames while the left is down: dropped, counted
	ctl down cable0 left || { cat ctl.out; fail "down cable0 left refused"; return 1; }
	pd0=$(show_json cable0 'c["directions"]["right->left"]["counters"]["peer-down"]')
	"$XCPEER" $(peer_eal "$T/r0.sock") -- stream --id 2 --pps 1000 --seconds 2 >right.out 2>&1 ||
		{ cat right.out; fail "the right frontend could not send"; return 1; }
	pd=$(show_json cable0 'c["directions"]["right->left"]["counters"]["peer-down"]')
	say "left down, right up: right sent $(sed -n 's/^sent //p' right.out) frames (its $(grep link-downs right.out)); right->left peer-down $pd0 before, $pd after"
	[ $((pd - pd0)) = "$(sed -n 's/^sent //p' right.out)" ] || { fail "what the right sent is not counted peer-down"; return 1; }
	grep -q "^link-downs 0" right.out || { fail "the right frontend lost its carrier"; return 1; }
	xc_stop
}
TESTS+=(t_gray_down_one_end)

# careless and hostile values: exit 2 with the reason, nothing changes
t_gray_refused() {
	local req rc n=0 before
	xc_start xc.log --left "$T/l.sock" --right-vxlan 127.0.0.1:14789 --vni 7 --vxlan-port 14790 \
		--control "$T/x.ctl" --impair-to-right delay=1ms
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	ctl show cable0 && before=$(grep -v "measured" ctl.out | sed -E 's/(rx|tx)-[a-z]+ [0-9]+//g')
	while IFS= read -r req; do
		"$XCTL" -s "$T/x.ctl" $req >out.txt 2>&1; rc=$?
		say "xcablectl $req: exit $rc, $(tail -n 1 out.txt)"
		[ $rc = 2 ] && grep -q '^xcablectl: error: ' out.txt || { fail "not refused with exit 2 and a reason"; return 1; }
		n=$((n + 1))
	done <<'EOF'
impair cable0 mtu=0
impair cable0 mtu=70000
impair cable0 delay=5ms,reorder=150%
impair cable0 reorder=25%
impair cable0 delay=5ms,gap=5
impair cable0 blackhole=yes
flap cable0 --down 1s --up 1s --count 0
flap cable0 --down 1s --up 1s
flap cable0 --down 5ms --up 1s --count 2
flap cable0 --down 1s --up 1s --count 2
flap cable0 right --down 1s --up 1s --count 2
down cable0
down cable0 right
down cable0 middle
up cable0 both-ways
flap cable0 middle --down 1s --up 1s --count 2
flap nosuch --down 1s --up 1s --count 2
EOF
	grep -q "only cables whose ends can both be unplugged" <("$XCTL" -s "$T/x.ctl" flap cable0 --down 1s --up 1s --count 2 2>&1) &&
	grep -q "the right end cannot be pulled" <("$XCTL" -s "$T/x.ctl" down cable0 right 2>&1) ||
		{ fail "a cable that cannot be pulled is refused without saying why"; return 1; }
	ctl show cable0
	[ "$(grep -v "measured" ctl.out | sed -E 's/(rx|tx)-[a-z]+ [0-9]+//g')" = "$before" ] ||
		{ echo "$before"; cat ctl.out; fail "a refused request changed the cable"; return 1; }
	grep -q "impair delay=1.000ms$" ctl.out && ! grep -q "flap\|unplugged" ctl.out ||
		{ cat ctl.out; fail "the cable is not as it was"; return 1; }
	say "$n requests refused; the cable is as it was (impair delay=1ms, no flap, no end unplugged)"
	xc_stop
	# the same values from the command line: xcable refuses to start
	for req in "--impair mtu=0" "--impair reorder=5%" "--flap down=1s,up=1s,count=0" "--down middle" \
		   "--down left --flap down=1s,up=1s,count=1"; do
		"$XC" --left "$T/l.sock" --right "$T/r.sock" $req >start.out 2>&1; rc=$?
		say "xcable $req: exit $rc, $(grep -i 'xcable:' start.out | grep -v 'EAL arguments' | head -n 1)"
		[ $rc = 2 ] || { fail "xcable did not refuse $req with exit 2"; return 1; }
	done
}
TESTS+=(t_gray_refused)

# the config file: down =, flap =, impair keys; a reload changes them in
# place
t_gray_config() {
	cat >lab.ini <<EOF
[cable c1]
left = $T/a.sock
right = $T/b.sock
down = right
impair-to-right = mtu=1400,reorder=10%,delay=2ms
impair-to-left = blackhole
EOF
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	sleep 0.5
	[ "$(show_json c1 '[e.get("unplugged") for e in c["ends"]], c["directions"]["left->right"]["impair"], c["directions"]["right->left"]["impair"]')" = \
	  "([None, 'down'], 'delay=2.000ms,reorder=10%,mtu=1400', 'blackhole')" ] ||
		{ cat show.json; fail "the config's down and impairments are not in force"; return 1; }
	[ -e "$T/a.sock" ] && [ ! -e "$T/b.sock" ] || { ls -la "$T"; fail "the right end is not pulled out (its socket is there)"; return 1; }
	say "down = right, impair-to-right = mtu=1400,reorder=10%,delay=2ms, impair-to-left = blackhole: in force, b.sock absent"
	sed -i 's/^down = right$/flap = down=300ms,up=300ms,count=2/' lab.ini
	ctl reload || { cat ctl.out; fail "reload refused"; return 1; }
	grep -q "1 changed in place" ctl.out || { cat ctl.out; fail "the change was not made in place"; return 1; }
	sleep 2
	ctl show c1 && grep -q "flap both ends down=300ms,up=300ms,count=2: done after 2 cycle(s)" ctl.out &&
		! grep -q unplugged ctl.out && [ -e "$T/b.sock" ] ||
		{ cat ctl.out; fail "the reload's flap did not run, or the right end is still out"; return 1; }
	say "reload with flap = down=300ms,up=300ms,count=2 instead: changed in place; $(grep flap ctl.out | sed 's/^ *//')"
	sed -i 's/^flap = .*$/down = bottom/' lab.ini
	ctl reload && { fail "a reload with down = bottom was taken"; return 1; }
	say "reload with down = bottom: $(tail -n 1 ctl.out)"
	grep -q "\[cable c1\] down: expected left, right, both or none" ctl.out || { cat ctl.out; fail "refused without naming the key"; return 1; }
	ctl show c1 && grep -q "flap both ends down=300ms,up=300ms,count=2: done after 2 cycle(s)" ctl.out &&
		! grep -q unplugged ctl.out || { cat ctl.out; fail "the refused reload changed the cable"; return 1; }
	xc_stop
}
TESTS+=(t_gray_config)
