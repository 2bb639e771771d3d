# shellcheck shell=bash
# What the bw/lat tests against a server on loopback share (sourced, bash):
#   $tmp          a scratch directory, removed at exit
#   pids+=(PID)   a background server (or attacker) killed and reaped at exit
#   free_port     a TCP port of 127.0.0.1 that nothing listens on now
#   wait_port P   until a server listens on P (at most 10 s), seen without
#                 connecting: a probe would be a client of the server
#   fail          0; a test sets it to 1 on a failure and exits with it
tmp=$(mktemp -d) || exit 1
pids=()
fail=0
bw_loopback_cleanup() {
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap bw_loopback_cleanup EXIT
trap 'exit 1' INT TERM

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() {
	for _ in $(seq 100); do
		[ -n "$(ss -ltnH "sport = :$1" 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	echo "FAIL: no server on port $1"; return 1
}
