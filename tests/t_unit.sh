# SPDX-License-Identifier: BSD-3-Clause
# tests/t_unit.sh - the unit tests of the forwarding modules, run as an
# ordinary user: the forwarding loop on net_ring ports, trunks, the
# impairment queue, multiqueue steering, the tunnel socket; and meson's whole 'unit' suite
# (sourced by tests/run; each t_* function is one test)

# as_user CMD... - run CMD as user nobody when root, to show that it
# needs no root (nor hugepages); as is otherwise
as_user() {
	if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
		(cd / && runuser -u nobody -- "$@")
	else
		"$@"
	fi
}

# unit_run NAME WHAT - run tests/test_NAME as nobody, say what it checked
unit_run() {
	local name=$1 what=$2 rc
	as_user "$BUILD/tests/test_$name" >"$name.log" 2>&1; rc=$?
	say "$(grep -c '^ok' "$name.log") $what checks passed as user $(as_user id -un), $(grep -c '^FAIL' "$name.log") failed"
	grep -E '^FAIL|^  ' "$name.log" | head -n 20
	grep -q "^ok no mbuf leaked" "$name.log" ||
		{ fail "mbufs leaked or the run died: $(tail -n 3 "$name.log")"; return 1; }
	return $rc
}

t_unit_fwd() { unit_run fwd "forwarding loop"; }
t_unit_trunk() { unit_run trunk "trunk tag and gathering"; }
t_unit_impair() { unit_run impair "impairment queue"; }
t_unit_steer() { unit_run steer "multiqueue steering"; }
t_unit_vxlan() { unit_run vxlan "tunnel socket"; }
TESTS+=(t_unit_fwd t_unit_trunk t_unit_impair t_unit_steer t_unit_vxlan)

# every test registered with meson in the unit suite passes (options and
# offload included), within meson's timeouts
t_unit_suite() {
	local rc
	meson test -C "$BUILD" --suite unit --no-rebuild >suite.log 2>&1; rc=$?
	grep -E '^ *[0-9]+/[0-9]+ ' suite.log | sed -E 's/ +/ /g; s/^ */  /'
	grep -qE '^Ok: +[1-9]' suite.log || { fail "no unit test ran"; return 1; }
	[ $rc = 0 ] || { grep -A 20 -E 'FAIL|TIMEOUT' suite.log | head -n 30; fail "meson test --suite unit failed"; }
}
TESTS+=(t_unit_suite)
