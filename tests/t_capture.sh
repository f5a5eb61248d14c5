# SPDX-License-Identifier: BSD-3-Clause
# tests/t_capture.sh - xcablectl capture: the frames crossing cable ends,
# as pcapng from the control socket, and Wireshark's extcap interface
# (app/control/capture.c, app/datapath/tap.c, app/ctlstream.c,
# app/extcap.c); checked byte for byte against what the frontends sent
# (xcpeer --record) by tests/pcapng_cmp.py
# (sourced by tests/run; each t_* function is one test)

XCTL=${XCTL:-$BUILD/app/xcablectl}
CMP=$TOP/tests/pcapng_cmp.py

# cap_start OUT ERR ARGS... - xcablectl ARGS (a capture) writing to OUT
# in the background, its pid in $CAP_PID
cap_start() {
	local out=$1 err=$2; shift 2
	"$XCTL" "$@" -w "$out" 2>"$err" &
	CAP_PID=$!
	XC_PIDS+=("$CAP_PID")
}

# cap_end PID ERR - end a capture as Ctrl-C does; it must exit 0 and say
# what it wrote
cap_end() {
	local rc
	kill -INT "$1" 2>/dev/null
	wait "$1"; rc=$?
	[ $rc = 0 ] || { cat "$2"; fail "xcablectl capture exited with $rc"; return 1; }
	say "$(sed 's/^xcablectl: //' "$2" | tail -n 1)"
}

# stats_of OUT IFACE FIELD - a statistic of an interface, as pcapng_cmp.py
# printed it into OUT
stats_of() { awk -v i="$2" -v f="$3" '$1 == "stats" && $2 == i { for (k = 3; k < NF; k++) if ($k == f) print $(k + 1) }' "$1"; }

# frames_in FILE - the frames tcpdump reads from a capture file
frames_in() { tcpdump -r "$1" -nn -q 2>/dev/null | grep -c '^[0-9]'; }

# cmp_capture OUT CAPTURE ARGS... - pcapng_cmp.py CAPTURE ARGS into OUT,
# its lines said; fails on a mismatch
cmp_capture() {
	local out=$1; shift
	"$CMP" "$@" >"$out" 2>&1; local rc=$?
	sed 's/^/  /' "$out"
	[ $rc = 0 ] || fail "the capture is not what was sent"
}

# frames both ways, captured three ways at once: both ends whole, one end
# with a filter (the frames tcpdump's libpcap keeps of those sent), one
# end (named as down and up take it: CABLE END) cut at 100 bytes,
# stopped after 25 frames and written to standard output; the first two ended
# with Ctrl-C, every frame byte for byte what the frontends sent, in
# order, in the direction it went, and nothing dropped
t_capture_frames() {
	local all filt cut rc f='vlan or ether proto 0x88cc or ether dst 01:80:c2:00:00:00'
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	cap_start all.pcapng all.err -s "$T/x.ctl" capture cable0; all=$CAP_PID
	cap_start filt.pcapng filt.err -s "$T/x.ctl" capture cable0:left -f "$f"; filt=$CAP_PID
	# -w -: to standard output, as for "| wireshark -k -i -"
	"$XCTL" -s "$T/x.ctl" capture cable0 right -s 100 -c 25 -w - >cut.pcapng 2>cut.err &
	cut=$!
	XC_PIDS+=("$cut")
	wait_log xc.log "capture of .* started" 3 10 || { cat ./*.err; fail "the captures did not start"; return 1; }
	PEER_RECORD=$T/rec run_frames xc.log "$T/l.sock" "$T/r.sock" 2 2 || return 1
	sleep 0.5
	cap_end "$all" all.err && cap_end "$filt" filt.err || return 1
	wait "$cut"; rc=$?
	[ $rc = 0 ] || { cat cut.err; fail "the capture of 25 frames exited with $rc"; return 1; }
	say "-c 25: $(sed 's/^xcablectl: //' cut.err)"
	cmp_capture all.out all.pcapng cable0:left:in=rec-0.pcap cable0:left:out=rec-1.pcap \
		cable0:right:in=rec-1.pcap cable0:right:out=rec-0.pcap || return 1
	tcpdump -r rec-0.pcap -w f0.pcap "$f" 2>/dev/null && tcpdump -r rec-1.pcap -w f1.pcap "$f" 2>/dev/null ||
		{ fail "tcpdump cannot filter the records"; return 1; }
	say "filter '$f': tcpdump keeps $(frames_in f0.pcap) + $(frames_in f1.pcap) of the frames sent"
	cmp_capture filt.out filt.pcapng cable0:left:in=f0.pcap cable0:left:out=f1.pcap || return 1
	cmp_capture cut.out --prefix cut.pcapng cable0:right:in=rec-1.pcap cable0:right:out=rec-0.pcap || return 1
	[ "$(grep -c ', byte for byte' cut.out)" -ge 1 ] &&
		[ "$(awk '/byte for byte/ { n += $2 } END { print n }' cut.out)" = 25 ] ||
		{ fail "-c 25 did not write 25 frames"; return 1; }
	grep -q "cut at the snap length" cut.out || { fail "-s 100 cut no frame"; return 1; }
	# nothing dropped; every frame seen at the left end accepted or not by
	# the filter, all written
	[ "$(stats_of all.out cable0:left drop)" = 0 ] && [ "$(stats_of all.out cable0:right drop)" = 0 ] ||
		{ fail "copies were dropped"; return 1; }
	[ "$(stats_of filt.out cable0:left recv)" = $((2 * FRAMES_N)) ] &&
		[ "$(stats_of filt.out cable0:left delivered)" = "$(stats_of filt.out cable0:left accepted)" ] ||
		{ fail "the filtered capture's statistics do not add up"; return 1; }
	[ "$(frames_in all.pcapng)" = $((4 * FRAMES_N)) ] ||
		{ fail "tcpdump does not read the $((4 * FRAMES_N)) frames of the capture"; return 1; }
	say "tcpdump reads the $((4 * FRAMES_N)) frames of the capture"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_dir_clean xc.log "cable0 left->right" "$FRAMES_N"
}
TESTS+=(t_capture_frames)

# an ordinary user, no hugepage reserved: xcable runs --no-huge (where
# dpdk-dumpcap cannot attach) and its user captures the frames, byte for
# byte, through its control socket
t_capture_user_nohuge() {
	local s=$T/nobody saved cap rc
	chmod 0711 "$T"
	mkdir -m 0755 "$s" && chown nobody "$s" || { fail "cannot make nobody's directory"; return 1; }
	saved=$(cat /proc/sys/vm/nr_hugepages)
	echo 0 >/proc/sys/vm/nr_hugepages
	xc_start_as nobody xc.log --left "$s/l.sock" --right "$s/r.sock" --control "$s/x.ctl"
	wait_log xc.log "running;" 1 20; rc=$?
	echo "$saved" >/proc/sys/vm/nr_hugepages
	[ $rc = 0 ] || { cat xc.log; fail "xcable did not start as nobody"; return 1; }
	grep -q -- "EAL arguments:.* --no-huge" xc.log || { grep "EAL arguments" xc.log; fail "xcable did not run --no-huge"; return 1; }
	say "xcable as nobody: $(grep -m1 -o -- '--no-huge -m[0-9]*' xc.log), dpdk-dumpcap unavailable"
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$XCTL" -s "$s/x.ctl" capture cable0 -w "$s/cap.pcapng" 2>cap.err & cap=$!
	XC_PIDS+=("$cap")
	wait_log xc.log "capture of 2 end(s) started" 1 10 || { cat cap.err; fail "nobody's capture did not start"; return 1; }
	ensure_hugepages 256 || { fail "cannot reserve hugepages for the frontends"; return 1; }
	PEER_RECORD=$T/rec run_frames xc.log "$s/l.sock" "$s/r.sock" 2 1 || return 1
	sleep 0.5
	cap_end "$cap" cap.err || return 1
	cmp_capture cap.out "$s/cap.pcapng" cable0:left:in=rec-0.pcap cable0:left:out=rec-1.pcap \
		cable0:right:in=rec-1.pcap cable0:right:out=rec-0.pcap || return 1
	[ "$(stat -c %U:%a "$s/cap.pcapng")" = nobody:600 ] || { fail "the capture file is not nobody's alone"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable as nobody exited with $XC_RC"; return 1; }
}
TESTS+=(t_capture_user_nohuge)

# xcable started the DPDK way (EAL options, --vdev net_vhost ports): the
# capture is the same, byte for byte
t_capture_dpdk_mode() {
	local cap
	xc_start xc.log -l 0-1 --no-pci --no-huge -m 256 --no-shconf --file-prefix "xct$$" \
		--vdev "net_vhost0,iface=$T/a.sock" --vdev "net_vhost1,iface=$T/b.sock" -- --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	cap_start cap.pcapng cap.err -s "$T/x.ctl" capture cable0; cap=$CAP_PID
	wait_log xc.log "capture of 2 end(s) started" 1 10 || { cat cap.err; fail "the capture did not start"; return 1; }
	PEER_RECORD=$T/rec run_frames xc.log "$T/a.sock" "$T/b.sock" 2 1 || return 1
	sleep 0.5
	cap_end "$cap" cap.err || return 1
	# the first --vdev is the left end, the second the right, as the
	# capture names them (the counters name the ports)
	cmp_capture cap.out cap.pcapng cable0:left:in=rec-0.pcap cable0:left:out=rec-1.pcap \
		cable0:right:in=rec-1.pcap cable0:right:out=rec-0.pcap || return 1
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_capture_dpdk_mode)

# cap_counts CABLE - the frames the cable received and sent, both
# directions together (xcablectl show --json): "RX TX"
cap_counts() {
	"$XCTL" -s "$T/x.ctl" show "$1" --json | /usr/bin/python3 -c '
import json, sys
c = json.load(sys.stdin)["cables"][sys.argv[1]]["directions"].values()
print(sum(d["counters"]["rx-pkts"] for d in c), sum(d["counters"]["tx-pkts"] for d in c))' "$1"
}

# a cable of every kind of end (the rows of t_change.sh's matrix: each
# kind xcable --help lists, a socket's client mode too) captured whole
# while frames cross it both ways: every frame the cable received is in
# the file once as it entered an end, every frame it sent once as it left
# one (a frontend's first probes, sent before the far end is up, are
# received and dropped), nothing cut, no copy dropped
t_capture_every_kind() {
	local i=0 r rx0 tx0 rx1 tx1 cap in out trunc
	mx_lab lab.ini || return 1
	ip netns exec "$(mx_ns)" "$XC" --config lab.ini --control "$T/x.ctl" >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	i=0
	for r in $MX_ROWS; do
		MX_STEP="capture of mx$i ($r)"
		mx_front "$i" "$r" || return 1	# both ends up before counting
		read -r rx0 tx0 <<<"$(cap_counts "mx$i")"
		[ -n "$tx0" ] || { fail "no counters for mx$i"; return 1; }
		cap_start "c$i.pcapng" "c$i.err" -s "$T/x.ctl" capture "mx$i"; cap=$CAP_PID
		wait_log xc.log "capture of 2 end(s) started" $((i + 1)) 10 || { cat "c$i.err"; fail "$MX_STEP did not start"; return 1; }
		mx_front "$i" "$r" || return 1
		sleep 0.3
		read -r rx1 tx1 <<<"$(cap_counts "mx$i")"
		cap_end "$cap" "c$i.err" >/dev/null || return 1
		read -r in out trunc <<<"$("$TOP/tests/pcapng_sum.py" "c$i.pcapng" |
			awk '$1 == "in" { i = $2 } $1 == "out" { o = $2 } $1 == "truncated" { t = $2 } END { print i, o, t }')"
		say "$r (mx$i): $in frames in and $out out in the file; the cable received $((rx1 - rx0)) and sent $((tx1 - tx0)) meanwhile"
		[ "$in" = $((rx1 - rx0)) ] && [ "$out" = $((tx1 - tx0)) ] && [ "$out" -ge 48 ] && [ "$trunc" = 0 ] ||
			{ fail "$MX_STEP: the file does not hold every frame once at each end"; return 1; }
		grep -q "copies dropped for a slow reader: 0\b" "c$i.err" || { cat "c$i.err"; fail "$MX_STEP: copies dropped"; return 1; }
		i=$((i + 1))
	done
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_capture_every_kind)
SAN_ONCE+=(t_capture_every_kind)	# CI time: correctness alone; t_capture_frames runs on both

# cap_peer_frames OUT REC SOCK_A SOCK_B - a frontend sending the frame
# catalogue both ways (once $T/go exists), recorded as REC-0 and REC-1
cap_peer_frames() {
	"$XCPEER" $(peer_eal "$3" "$4") -- frames --rounds 1 --record "$2" \
		--wait-file "$T/go" >"$1" 2>&1
}

# under a supervisor, one end of a cable of worker 0 and one of worker 1
# in one capture: one file, the two ends its interfaces, the frames of
# each byte for byte what its frontends sent
t_capture_supervised() {
	local p0 p1 cap
	sup_start 17 || return 1
	cap_start cap.pcapng cap.err -s "$T/x.ctl" capture c0:left c16:right; cap=$CAP_PID
	wait_log xc.log "capture of 1 end(s) started" 2 10 || { cat cap.err; fail "the workers did not start the capture"; return 1; }
	rm -f "$T/go"
	cap_peer_frames p0.log "$T/a" "$T/c0-l.sock" "$T/c0-r.sock" & p0=$!
	cap_peer_frames p1.log "$T/b" "$T/c16-l.sock" "$T/c16-r.sock" & p1=$!
	wait_log xc.log "link up" 4 30 || { fail "the frontends did not connect"; return 1; }
	touch "$T/go"
	wait $p0 && wait $p1 || { tail -n 3 p0.log p1.log; fail "a frontend failed"; return 1; }
	sleep 0.5
	cap_end "$cap" cap.err || return 1
	cmp_capture cap.out cap.pcapng c0:left:in=a-0.pcap c0:left:out=a-1.pcap \
		c16:right:in=b-1.pcap c16:right:out=b-0.pcap || return 1
	[ "$(stats_of cap.out c0:left drop)" = 0 ] && [ "$(stats_of cap.out c16:right drop)" = 0 ] ||
		{ fail "copies were dropped"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_capture_supervised)

# a reader that stops reading for 3 s while frames circulate as fast as
# the cable takes them: the cable loses none, and the capture's drop
# count is exactly the copies missing from the file (seen = written +
# dropped, at each end), seen being every frame the cable counted
t_capture_slow_reader() {
	local cap lp n rate lr rl seen_l seen_r
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	cap_start cap.pcapng cap.err -s "$T/x.ctl" capture cable0; cap=$CAP_PID
	wait_log xc.log "capture of 2 end(s) started" 1 10 || { cat cap.err; fail "the capture did not start"; return 1; }
	"$XCPEER" $(peer_eal "$T/l.sock" "$T/r.sock") -- loop --size 64 --inflight 256 \
		--warmup 1 --seconds 5 >loop.log 2>&1 & lp=$!
	sleep 2
	kill -STOP "$cap"
	say "the reader stopped for 3 s"
	sleep 3
	kill -CONT "$cap"
	wait $lp || { tail -n 5 loop.log; fail "the frontend failed"; return 1; }
	sed 's/^/  peer: /' loop.log | tail -n 4
	sleep 1
	cap_end "$cap" cap.err || return 1
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_accounted xc.log 2 || { fail "frames not accounted for"; return 1; }
	lr=$(counter xc.log "cable0 left->right" rx-pkts)
	rl=$(counter xc.log "cable0 right->left" rx-pkts)
	# no drop but those of a frame in flight when the frontend left at the
	# end (peer-down: the receiving end was gone), which no reader causes
	for n in "left->right" "right->left"; do
		[ "$(counter xc.log "cable0 $n" dropped)" = "$(counter xc.log "cable0 $n" peer-down)" ] ||
			{ fail "the cable dropped frames ($n)"; return 1; }
	done
	"$CMP" cap.pcapng >cap.out 2>&1
	# the peer's rate, both directions: "... mpps 6.5545 gbps ..."
	rate=$(sed -nE 's/.* mpps ([0-9.]+) .*/\1/p' loop.log | head -n 1)
	seen_l=$(stats_of cap.out cable0:left recv); seen_r=$(stats_of cap.out cable0:right recv)
	grep '^stats' cap.out | sed 's/^/  /'
	say "the cable carried $lr + $rl frames (${rate:-?} Mpps), none dropped but $(( $(counter xc.log "cable0 left->right" peer-down) + $(counter xc.log "cable0 right->left" peer-down) )) as the frontend left (peer-down)"
	# what the issue asks the reader to fall behind: 1 Mpps or more
	awk -v r="${rate:-0}" 'BEGIN { exit !(r >= 1) }' ||
		{ fail "the frames flowed at ${rate:-?} Mpps, not 1 Mpps or more"; return 1; }
	# an end sees what it received and what was sent through it
	[ "$seen_l" = $((lr + $(counter xc.log "cable0 right->left" tx-pkts))) ] &&
		[ "$seen_r" = $((rl + $(counter xc.log "cable0 left->right" tx-pkts))) ] ||
		{ fail "the capture did not see every frame of the cable"; return 1; }
	for n in left right; do
		[ $(( $(stats_of cap.out cable0:$n delivered) + $(stats_of cap.out cable0:$n drop) )) = \
			"$(stats_of cap.out cable0:$n recv)" ] || { fail "cable0:$n: written + dropped is not what was seen"; return 1; }
	done
	[ "$(stats_of cap.out cable0:left drop)" -gt 0 ] || { fail "nothing was dropped: the reader's stop proved nothing"; return 1; }
	[ "$(frames_in cap.pcapng)" = \
		$(( $(stats_of cap.out cable0:left delivered) + $(stats_of cap.out cable0:right delivered) )) ] ||
		{ fail "the file does not hold the frames its statistics say were written"; return 1; }
	say "copies dropped while the reader slept: exactly those missing from the file"
}
TESTS+=(t_capture_slow_reader)
ONCE+=(t_capture_slow_reader)	# measures: as fast as build/ forwards

# capture_refused WHAT PATTERN ARGS... - xcablectl ARGS must exit 2 saying
# PATTERN
capture_refused() {
	local what=$1 pat=$2 rc; shift 2
	timeout 10 "$XCTL" "$@" >refused.out 2>&1; rc=$?
	if [ $rc = 2 ] && grep -q -- "$pat" refused.out; then
		say "$what: exit 2, $(head -n 1 refused.out)"
		return 0
	fi
	fail "$what: exit $rc: $(head -n 3 refused.out)"
}

# careless and hostile requests: refused with exit 2 and a reason, xcable
# unharmed; a cable removed under a capture ends its end's part (its
# statistics say why), the last one the capture; 8 captures at once and
# a 9th refused; clients that ask for a capture and vanish cost nothing
t_capture_refused() {
	local ok=0 c1 i n fds m=()
	printf '[cable c1]\nleft = %s/1l.sock\nright = %s/1r.sock\n[cable c2]\nleft = %s/2l.sock\nright = %s/2r.sock\n' \
		"$T" "$T" "$T" "$T" >lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	capture_refused "bad filter" "filter 'tcp port nonsense'" -s "$T/x.ctl" capture c1 -w x.pcapng -f 'tcp port nonsense' || ok=1
	[ -e x.pcapng ] && { fail "a refused capture left its file"; ok=1; }
	capture_refused "unknown cable" "no cable 'c9'" -s "$T/x.ctl" capture c9 -w x.pcapng || ok=1
	capture_refused "unknown end" "cable c1 has no end 'middle'" -s "$T/x.ctl" capture c1:middle -w x.pcapng || ok=1
	capture_refused "snap length too big" "expected a snap length from 1 to 262144" -s "$T/x.ctl" capture c1 -s 300000 -w x.pcapng || ok=1
	capture_refused "count 0" "expected a number of frames, at least 1" -s "$T/x.ctl" capture c1 -c 0 -w x.pcapng || ok=1
	capture_refused "bad duration" "expected duration:SECONDS" -s "$T/x.ctl" capture c1 -a 10 -w x.pcapng || ok=1
	capture_refused "no cable" "which cable" -s "$T/x.ctl" capture -w x.pcapng || ok=1
	capture_refused "unwritable file" "cannot write" -s "$T/x.ctl" capture c1 -w /nonexistent/x.pcapng || ok=1
	# -s 0: whole frames, as tcpdump's
	cap_start s0.pcapng s0.err -s "$T/x.ctl" capture c2 -s 0 -a duration:1
	wait "$CAP_PID" || { cat s0.err; fail "-s 0 -a duration:1 failed"; ok=1; }
	"$CMP" s0.pcapng >s0.out 2>&1 && grep -q "^stats c2:left" s0.out ||
		{ cat s0.out; fail "-a duration:1 did not end with statistics"; ok=1; }
	say "-s 0 -a duration:1: ended by itself, with its statistics"
	# a cable removed under a capture of two
	cap_start gone.pcapng gone.err -s "$T/x.ctl" capture c1 c2:left; c1=$CAP_PID
	wait_log xc.log "capture of 3 end(s) started" 1 10 || { cat gone.err; fail "the capture did not start"; return 1; }
	"$XCTL" -s "$T/x.ctl" del c1 >del.out 2>&1 || { cat del.out; fail "del c1 failed"; return 1; }
	wait_log xc.log "cable c1 was removed or made again" 2 5 || { fail "the capture did not see c1 go"; ok=1; }
	kill -0 "$c1" 2>/dev/null || { fail "the capture ended with c1 though c2 is in it"; ok=1; }
	"$XCTL" -s "$T/x.ctl" del c2 >del.out 2>&1 || { cat del.out; fail "del c2 failed"; return 1; }
	wait "$c1" || { cat gone.err; fail "the capture did not end once its cables went"; ok=1; }
	say "$(sed 's/^xcablectl: //' gone.err)"
	"$CMP" gone.pcapng >gone.out 2>&1
	[ "$(grep -c 'comment cable c[12] was removed' gone.out)" = 3 ] ||
		{ cat gone.out; fail "the statistics of the ends do not say their cables went"; ok=1; }
	# 8 at once, a 9th refused
	"$XCTL" -s "$T/x.ctl" add c3 left="$T/3l.sock" right="$T/3r.sock" >add.out 2>&1 || { cat add.out; fail "add c3 failed"; return 1; }
	fds=$(ls /proc/"$XC_PID"/fd | wc -l)
	for ((i = 0; i < 8; i++)); do
		cap_start m$i.pcapng m$i.err -s "$T/x.ctl" capture c3
		m+=("$CAP_PID")
	done
	wait_log xc.log "capture of 2 end(s) started" 8 10 || { fail "8 captures did not start"; ok=1; }
	capture_refused "a 9th capture" "8 captures run already" -s "$T/x.ctl" capture c3 -w x.pcapng || ok=1
	kill -INT "${m[@]}"
	for i in "${m[@]}"; do wait "$i" || { fail "a capture of the 8 failed"; ok=1; }; done
	n=$(grep -c "ended (the reader ended it)" xc.log)
	[ "$n" = 8 ] || { fail "$n of the 8 captures ended"; ok=1; }
	# 50 clients that ask for a capture and vanish at once
	for ((i = 0; i < 50; i++)); do
		python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.send(b"capture c3\n"); s.close()' "$T/x.ctl"
	done
	sleep 1.5
	n=$(ls /proc/"$XC_PID"/fd | wc -l)
	say "50 clients asked for a capture and vanished: xcable's fds $fds before, $n after"
	[ "$n" -le "$fds" ] || { fail "fds leaked"; ok=1; }
	cap_start last.pcapng last.err -s "$T/x.ctl" capture c3 -a duration:1
	wait "$CAP_PID" || { cat last.err; fail "a capture after them failed"; ok=1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	return $ok
}
TESTS+=(t_capture_refused)
SAN_ONCE+=(t_capture_refused)	# refused captures; t_capture_frames runs on both

# tshark in a mount namespace of its own, with $1 bound on Wireshark's
# extcap folder $2 (the host's folder is left as it is); its arguments
# after those two
EXTCAP_SH='mount --bind "$1" "$2" && shift 2 && exec tshark "$@"'
EXTCAP_DIR=/usr/lib/x86_64-linux-gnu/wireshark/extcap

# extcap_prep - the build's xcable-extcap in $T/extcap
extcap_prep() {
	mkdir -p "$T/extcap" && cp "$BUILD/config/xcable-extcap" "$T/extcap/" &&
		chmod 0755 "$T/extcap/xcable-extcap"
}

# extcap_tshark ARGS... - tshark ARGS with the build's xcable-extcap in
# Wireshark's extcap folder, running the build's xcablectl
extcap_tshark() {
	extcap_prep || return 1
	XCABLECTL=$XCTL unshare -m sh -c "$EXTCAP_SH" sh "$T/extcap" "$EXTCAP_DIR" "$@"
}

# Wireshark lists the cables: tshark -D shows both ends of each cable of
# the running xcable, and tshark -i captures one of them live, with a
# snap length and a filter set as the extcap's options: every frame the
# filter keeps, cut at 100 bytes, byte for byte what was sent, in its
# direction
t_extcap_tshark() {
	local ts pfx iface opt f='vlan or ether proto 0x88cc or ether dst 01:80:c2:00:00:00'
	command -v tshark >/dev/null || { fail "tshark is not installed (scripts/setup installs it)"; return 1; }
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	pfx=$(sed -nE 's/.*xcablectl -s .* \(or -p ([^)]*)\).*/\1/p' xc.log | head -n 1)
	extcap_tshark -D >d.out 2>d.err
	grep -F "xcable:$pfx:cable0:" d.out | sed 's/^/  tshark -D: /'
	[ "$(grep -c "xcable:$pfx:cable0:\(left\|right\)" d.out)" = 2 ] ||
		{ cat d.out d.err; fail "tshark -D does not list both ends of cable0"; return 1; }
	iface=xcable:$pfx:cable0:left
	# the extcap's options as Wireshark passes them (its preferences are
	# named after the interface, every other character made "_")
	opt=extcap.$(echo "$iface" | tr -c 'a-zA-Z0-9\n' '_')
	# not through a function: $! must be tshark itself, which Ctrl-C ends
	XCABLECTL=$XCTL unshare -m sh -c "$EXTCAP_SH" sh "$T/extcap" "$EXTCAP_DIR" \
		-i "$iface" -o "$opt.snaplen:100" -o "$opt.filter:$f" -w "$T/ts.pcapng" >ts.out 2>&1 & ts=$!
	XC_PIDS+=("$ts")
	wait_log xc.log "capture of 1 end(s) started" 1 20 || { cat ts.out; fail "tshark did not start the capture"; return 1; }
	grep -qF "capture cable0:left -s 100 -f $f" xc.log ||
		{ grep "capture for" xc.log; fail "the snap length and filter did not reach xcable"; return 1; }
	PEER_RECORD=$T/rec run_frames xc.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	sleep 1
	kill -INT "$ts"
	wait "$ts" || { cat ts.out; fail "tshark did not end cleanly on Ctrl-C"; return 1; }
	tcpdump -r rec-0.pcap -w f0.pcap "$f" 2>/dev/null && tcpdump -r rec-1.pcap -w f1.pcap "$f" 2>/dev/null ||
		{ fail "tcpdump cannot filter the records"; return 1; }
	say "tshark -o $opt.snaplen:100 -o $opt.filter:'$f': tcpdump keeps $(frames_in f0.pcap) + $(frames_in f1.pcap) of the frames sent"
	cmp_capture ts.cmp --prefix ts.pcapng "#0:in=f0.pcap" "#0:out=f1.pcap" || { cat ts.out; return 1; }
	grep -q "cut at the snap length" ts.cmp || { fail "snaplen 100 cut no frame"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_extcap_tshark)
