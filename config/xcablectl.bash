# SPDX-License-Identifier: BSD-3-Clause
# bash completion for xcablectl: its options and commands, the cable names
# of the running xcable (asked with xcablectl list, 2 s at most), and the
# keys of add and impair. Installed as
# /usr/share/bash-completion/completions/xcablectl.

# _xcablectl_cables ARGS... - the cable names the running xcable lists
# (ARGS: the -s/-p options given on the line)
_xcablectl_cables() {
	xcablectl "$@" -t 2 list 2>/dev/null | sed -nE 's/^([^ ]+): .*/\1/p'
}

# _xcablectl_add_keys - the keys of a [cable NAME] section, as xcable
# --help lists them (each end's as left-KEY and right-KEY; a list that
# wraps goes on on lines that start with spaces only)
_xcablectl_add_keys() {
	local blocks cable ends k
	blocks=$(xcable --help 2>/dev/null | awk '
		on && /^$/ { exit }
		/^Config file keys/ { on = 1; next }
		on && /^                        / { sub(/^ +/, ""); printf " %s", $0; next }
		on { printf "\n%s", $0 }
		END { print "" }')
	cable=$(sed -nE 's/^  \[cable NAME\] +//p' <<<"$blocks" | sed -E 's/\(.*//')
	ends=$(sed -nE 's/^    per end +//p' <<<"$blocks" | sed -E 's/\(.*//')
	for k in $cable; do echo "$k="; done
	for k in "" $ends; do
		echo "left${k:+-$k}="
		echo "right${k:+-$k}="
	done
}

_xcablectl() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local i cmd="" where=() n=0
	local cmds
	# the requests, as xcablectl --help lists them (its command table)
	cmds=$(xcablectl --help 2>/dev/null | sed -n '/^REQUEST:/,/^[A-Z]/s/^       \([a-z]*\).*/\1/p')

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-s|-p) where+=("${COMP_WORDS[i]}" "${COMP_WORDS[i + 1]}"); i=$((i + 1)) ;;
		-t|--timeout) i=$((i + 1)) ;;
		-*) ;;
		*) [ -z "$cmd" ] && cmd=${COMP_WORDS[i]} || n=$((n + 1)) ;;
		esac
	done
	case $prev in
	-s) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-p) COMPREPLY=($(compgen -W "$(ls /var/run/dpdk "${XDG_RUNTIME_DIR:-/nonexistent}/dpdk" 2>/dev/null)" -- "$cur")); return ;;
	-t|--timeout) return ;;
	esac
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "-s -p -t --timeout --version --help $cmds" -- "$cur"))
		return
	fi
	case $cmd in
	list) COMPREPLY=($(compgen -W "--json" -- "$cur")) ;;
	show) [ $n = 0 ] && COMPREPLY=($(compgen -W "$(_xcablectl_cables "${where[@]}")" -- "$cur")) ||
		COMPREPLY=($(compgen -W "--json" -- "$cur")) ;;
	clear|down|up|del|flap)
		[ $n = 0 ] && COMPREPLY=($(compgen -W "$(_xcablectl_cables "${where[@]}")" -- "$cur")) ;;
	impair)
		if [ $n = 0 ]; then
			COMPREPLY=($(compgen -W "$(_xcablectl_cables "${where[@]}")" -- "$cur"))
		else
			compopt -o nospace 2>/dev/null
			COMPREPLY=($(compgen -W "to-right to-left none delay= jitter= loss= ge= rate= dup= corrupt= limit=" -- "$cur"))
		fi ;;
	add)	[ $n -ge 1 ] && { compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$(_xcablectl_add_keys)" -- "$cur")); } ;;
	events) COMPREPLY=($(compgen -W "--json" -- "$cur")) ;;
	capture)
		case $prev in
		-w) COMPREPLY=($(compgen -f -- "$cur")) ;;
		-f|-s|-c) ;;
		-a) COMPREPLY=($(compgen -W "duration:" -- "$cur")); compopt -o nospace 2>/dev/null ;;
		*) local c ends=""
		   for c in $(_xcablectl_cables "${where[@]}"); do ends="$ends $c $c:left $c:right"; done
		   COMPREPLY=($(compgen -W "$ends -w -f -s -c -a" -- "$cur")) ;;
		esac ;;
	esac
}
complete -F _xcablectl xcablectl
