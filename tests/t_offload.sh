# SPDX-License-Identifier: BSD-3-Clause
# tests/t_offload.sh - offloads: TSO and partial checksums passed through or
# done in software, lying metadata, frames too big, multiqueue
# (sourced by tests/run; each t_* function is one test)

t_unit_offload() {
	"$BUILD/tests/test_offload" >offload.log 2>&1; local rc=$?
	say "$(grep -c '^ok' offload.log) offload fix-up checks passed, $(grep -c '^FAIL' offload.log) failed"
	grep -E 'FAIL|^  ' offload.log | head -n 20
	grep -q "^ok no mbuf leaked" offload.log || { fail "mbufs leaked or the run died: $(tail -n 3 offload.log)"; return 1; }
	return $rc
}
TESTS+=(t_unit_offload)

# peer_run LOG UPS ARGS... - start an xcpeer with ARGS once xcable logged UPS
# "link up" lines, wait for it; its exit status is the function's
peer_run() {
	local log=$1 ups=$2 pp; shift 2
	rm -f "$T/go"
	"$XCPEER" "$@" --wait-file "$T/go" >"$T/peer.log" 2>&1 &
	pp=$!
	wait_log "$log" "link up" "$ups" 30 || { kill $pp; fail "xcable never saw the frontends"; return 1; }
	touch "$T/go"
	wait $pp
}

# dir_balance LOG DIR - the direction's counters, printed, and every frame
# accounted for ("unaccounted" 0 in $(stats_json LOG))
dir_balance() {
	/usr/bin/python3 - "$(stats_json "$1")" "$2" <<'PY'
import json, sys
cable, d = sys.argv[2].split(" ", 1)
v = json.load(open(sys.argv[1]))["cables"][cable]["directions"][d]
k = v["counters"]
rx, tx, dr = k["rx-pkts"], k["tx-pkts"], k["dropped"]
sf, so, cf = k["segmented"], k["segments-made"], k["checksums-filled"]
ci, co = k["segments-coalesced"], k["coalesced"]
# the reasons of the drops: every other counter that is not 0
work = ("rx-pkts", "rx-bytes", "tx-pkts", "tx-bytes", "dropped", "segmented",
        "segments-made", "checksums-filled", "coalesced", "segments-coalesced")
why = ", ".join("%s %d" % (n, v) for n, v in k.items() if n not in work and v)
print("  %s: rx %d, %d segmented into %d, %d checksums filled, %d segments coalesced into %d, tx %d, dropped %d%s" %
      (sys.argv[2], rx, sf, so, cf, ci, co, tx, dr, " (%s)" % why if why else ""))
sys.exit(0 if v["unaccounted"] == 0 else 1)
PY
}

t_offload_frontends() {
	local rx n=0 rc=0
	# three frontend runs one after the other: --no-link-propagation, as
	# in t_no_offloads_option (these frontends do not retry as QEMU does)
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	# the receiving frontend asks for no offloads, checksums only, then
	# checksums and TSO; the sender always sends TSO frames and partial
	# checksums (TCP and UDP, IPv4 and IPv6, VLAN and QinQ)
	for rx in none csum tso; do
		# each run brings both ends up twice: once as the frontend
		# connects, again when it sets its offloads; sending before the
		# second pair is seen raced with the receiver's queues (one
		# frame dropped as peer-down, seen once)
		n=$((n + 4))
		peer_run xc.log $n $(peer_eal "$T/l.sock" "$T/r.sock") -- offload --tx tso --rx $rx || rc=1
		say "receiver asking for '$rx': $(grep -c '^ok' "$T/peer.log") ok, $(grep -c '^FAIL' "$T/peer.log") failed"
		grep -E '^FAIL|^  ' "$T/peer.log" | head -n 5 | sed 's/^/  peer: /'
		grep -E '^ok (TCP/IPv6 TSO 60000|TCP/IPv4 TSO 30000)' "$T/peer.log" | sed 's/^/  peer: /'
	done
	say "xcable saw: $(grep -o 'right ([^)]*): link up.*' xc.log | sed 's/.*; //' | tr '\n' '|')"
	grep -q "right.*it takes csum tso4 tso6" xc.log || { fail "xcable never saw a receiver with TSO"; return 1; }
	grep -q "right.*it takes no offloads" xc.log || { fail "xcable never saw a receiver without offloads"; return 1; }
	xc_stop
	dir_balance xc.log "cable0 left->right" || { fail "counters do not add up"; return 1; }
	[ "$(counter xc.log 'cable0 left->right' dropped)" = 0 ] || { fail "frames were dropped"; return 1; }
	return $rc
}
TESTS+=(t_offload_frontends)

t_tso_burst_lossless() {
	# a fresh cable's pool is small (256 mbufs, pool.c) and a 64 KB TSO
	# frame takes 33 of them as a chain: a guest's burst of such frames
	# must wait in its ring while the pool grows, not be lost inside the
	# vhost library (which drops a frame whose chain runs dry and counts
	# it nowhere: TCP between two guests retransmitted whole TSO frames)
	local out sent got dr
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation --log-level=xcable.pool:debug
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	peer_run xc.log 2 $(peer_eal "$T/l.sock" "$T/r.sock") -- goodput --tx tso --rx tso --burst 32 --warmup 0 --seconds 3 ||
		{ fail "goodput run failed"; return 1; }
	xc_stop
	out=$(grep '^goodput ' "$T/peer.log")
	sent=$(sed -nE 's/.* sent ([0-9]+) .*/\1/p' <<<"$out")
	got=$(sed -nE 's/.* received ([0-9]+)$/\1/p' <<<"$out")
	dr=$(counter xc.log "cable0 left->right" dropped)
	say "64 KB TSO frames: sent $sent, received $got, xcable counted $dr dropped; $(grep -c 'failed to allocate memory for mbuf' xc.log) vhost allocation failures logged"
	say "pool: $(grep -oE 'xc_pool0\.[0-9]+: grown to [0-9]+' xc.log | tail -n 1)"
	[ -n "$sent" ] && [ "$sent" -gt 1000 ] || { fail "too few frames sent to tell"; return 1; }
	[ "$got" = $((sent - dr)) ] || { fail "$((sent - dr - got)) frames lost without a count"; return 1; }
	! grep -q 'failed to allocate memory for mbuf' xc.log || { fail "the vhost library ran out of mbufs mid-frame"; return 1; }
	dir_balance xc.log "cable0 left->right" || { fail "counters do not add up"; return 1; }
}
TESTS+=(t_tso_burst_lossless)

t_no_offloads_option() {
	local j pp
	# two frontend runs one after the other: with link propagation the
	# first one's leaving may unplug the right end (its socket goes) until
	# a left frontend is back, and these frontends do not retry as QEMU does
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-offloads --no-link-propagation
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	# frontends that ask for every offload get none, and plain frames work
	peer_run xc.log 2 $(peer_eal "$T/l.sock" "$T/r.sock") -- frames --rounds 1 --rx tso --tx csum ||
		{ grep -E 'FAIL|xcpeer' "$T/peer.log" | head -n 5; fail "frames did not cross"; return 1; }
	say "peer: $(grep catalogue "$T/peer.log")"
	# what two such frontends negotiated, asked while they are connected
	"$XCPEER" $(peer_eal "$T/l.sock" "$T/r.sock") -- stream --pps 10 --seconds 4 --rx tso --tx tso >stream.log 2>&1 & pp=$!
	wait_log xc.log "link up" 4 20 || { fail "frontends did not come back"; return 1; }
	sleep 0.5
	j=$(tel "xcable-$XC_PID" /xcable/cable,cable0)
	wait $pp
	xc_stop
	say "xcable saw: $(grep -o 'left ([^)]*): link up.*' xc.log | sed 's/.*; //' | head -n 1)"
	/usr/bin/python3 - "$j" <<'PY' || { fail "offload features were negotiated"; return 1; }
import json, sys
t = json.loads(sys.argv[1])["/xcable/cable"]
offl = (1 << 0) | (1 << 1) | (0xff << 7)
for e in ("end0", "end1"):
    f = t[e + "/virtio_features"]
    print("  %s negotiated features 0x%x, offload bits 0x%x, takes '%s'" % (e, f, f & offl, t[e + "/takes_offloads"]))
    assert f & (1 << 32) and not f & offl and t[e + "/takes_offloads"] == ""
PY
}
TESTS+=(t_no_offloads_option)

t_too_big_dropped() {
	local tb
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	# the right frontend has no mergeable buffers and no offloads: it takes
	# frames of up to 1518 bytes; the catalogue's 1522, 9014 and 9018-byte
	# frames towards it must be dropped and counted, everything else arrive
	peer_run xc.log 2 $(peer_eal "$T/l.sock" "$T/r.sock,mrg_rxbuf=0") -- frames --rounds 2 --drop-over 1518 --mtu 1500 ||
		{ grep -E 'FAIL' "$T/peer.log" | head -n 5 | sed 's/^/  peer: /'; fail "frames lost, changed or delivered too big"; return 1; }
	say "peer: $(grep catalogue "$T/peer.log")"
	xc_stop
	say "xcable saw: $(grep -o 'right ([^)]*): link up.*' xc.log | sed 's/.*; //')"
	tb=$(counter xc.log "cable0 left->right" too-big)
	say "left->right too-big: $tb (expected 6: three kinds, two rounds)"
	[ "$tb" = 6 ] || { fail "too-big count wrong"; return 1; }
	[ "$(counter xc.log 'cable0 right->left' dropped)" = 0 ] || { fail "right->left dropped frames"; return 1; }
	dir_balance xc.log "cable0 left->right" || { fail "counters do not add up"; return 1; }
}
TESTS+=(t_too_big_dropped)

t_fuzz_short() {
	# each libFuzzer target (command line, config file, offload path,
	# steering's flow hash, VXLAN header and addresses, control requests)
	# for 3 s from its corpus, regression inputs included; scripts/fuzz
	# 600 runs them longer
	"$TOP/scripts/fuzz" 3 >fuzz.out 2>&1; local rc=$?
	sed 's/^/  /' fuzz.out
	[ $rc = 0 ] || fail "a fuzz target crashed or could not run"
	[ "$(grep -c 'no crash' fuzz.out)" = 6 ] || fail "not every target ran"
}
TESTS+=(t_fuzz_short)
ONCE+=(t_fuzz_short)
