# shellcheck shell=bash
# A munged of the test's own, for the Slurm tests: its key, socket, pid and
# log under a directory the test made, nothing in /etc/munge or /run/munge.
# Sourced, not run:
#
#   . "$here/../lib/munge.sh"
#   munge_start "$T" || fail "munged did not start"   # socket: $T/run-munge/munge.sock
#   cleanup() { ...; munge_pid "$T" && stop_pid "$(munge_pid "$T")"; }
#
# munge_start DIR    DIR/munge (the key, munge's own, 0700) and
#                    DIR/run-munge (socket, pid, log: reachable by all, as
#                    munged wants, what /run/munge is on an installed
#                    system); a new key; munged started as the munge user.
#                    1, with why on stderr, when it cannot be.
# munge_pid DIR      munged's pid, once it wrote it (else 1)

munge_start() {
	local d=$1
	mkdir -p "$d/munge" "$d/run-munge" &&
		chown munge:munge "$d/munge" "$d/run-munge" &&
		chmod 700 "$d/munge" &&
		chmod 755 "$d/run-munge" || return 1
	runuser -u munge -- mungekey -c -k "$d/munge/munge.key" || {
		echo "mungekey failed" >&2
		return 1
	}
	runuser -u munge -- munged --key-file="$d/munge/munge.key" \
		--socket="$d/run-munge/munge.sock" --pid-file="$d/run-munge/munged.pid" \
		--log-file="$d/run-munge/munged.log" --seed-file="$d/munge/munged.seed"
}

munge_pid() {
	[ -s "$1/run-munge/munged.pid" ] && cat "$1/run-munge/munged.pid"
}
