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
