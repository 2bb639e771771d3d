#!/bin/sh
# Man pages from the program's own --help, so that they cannot drift from
# the parser: rdmadoctor(8) from `rdmadoctor --help`, and rdmadoctor-CMD(8)
# from `rdmadoctor CMD --help` for every command that list names.
#
#   gen-man.sh BINARY OUTDIR VERSION
#
# --help text has a fixed shape that this turns into roff: a "usage:" block
# (the synopsis), paragraphs, "Heading:" lines, and entries indented by two
# spaces whose term is followed by two or more spaces (an option, or a
# command in the list), with deeper-indented continuation lines.
set -eu
bin=$1 out=$2 version=$3
mkdir -p "$out"
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)

# roff from --help on stdin; $1 the page's name, $2 its one-line summary
help2roff() {
	awk -v name="$1" -v summary="$2" -v version="$version" -v date="$date" '
	function esc(s) {
		gsub(/\\/, "\\e", s)
		gsub(/-/, "\\-", s)
		if (s ~ /^[.\x27]/) s = "\\&" s
		return s
	}
	function indent(s) { match(s, /^ */); return RLENGTH }
	{ L[++n] = $0 }
	END {
		printf ".TH %s 8 \"%s\" \"rdmadoctor %s\" \"System Administration\"\n", esc(toupper(name)), date, version
		print ".SH NAME"
		print esc(name) " \\- " esc(summary)
		print ".SH SYNOPSIS"
		print ".nf"
		for (i = 1; i <= n && L[i] != ""; i++) {
			line = L[i]; sub(/^usage: +/, "", line); sub(/^ +/, "", line); print esc(line)
		}
		print ".fi"
		print ".SH DESCRIPTION"
		literal = 0; blank = 0
		for (; i <= n; i++) {
			line = L[i]
			if (line == "") {
				if (literal) { print ".fi"; literal = 0 }
				blank = 1; continue
			}
			if (line ~ /^[A-Za-z][^:]*:$/) {
				if (literal) { print ".fi"; literal = 0 }
				sub(/:$/, "", line); print ".SS " esc(line); blank = 0; continue
			}
			# an entry: two spaces, then an option, or a command of the list
			if (line ~ /^  -/ || (line ~ /^  [a-z]/ && heading_list)) {
				if (literal) { print ".fi"; literal = 0 }
				rest = substr(line, 3)
				# continuation lines stand in the description column
				col = (i < n && indent(L[i + 1]) > 2) ? indent(L[i + 1]) - 2 : 0
				if (match(rest, /[^ ]  +[^ ]/)) {
					term = substr(rest, 1, RSTART); desc = substr(rest, RSTART + 1)
				} else if (col > 0 && col < length(rest)) {
					term = substr(rest, 1, col); desc = substr(rest, col + 1)
				} else {
					term = rest; desc = ""
				}
				sub(/ +$/, "", term); sub(/^ +/, "", desc)
				while (i < n && indent(L[i + 1]) > 2 && L[i + 1] !~ /^  +-/) {
					c = L[++i]; sub(/^ +/, "", c); desc = desc " " c
				}
				print ".TP"; print ".B " esc(term); if (desc != "") print esc(desc)
				blank = 0; continue
			}
			if (line ~ /^ /) {
				if (!literal) { print ".nf"; literal = 1 }
				print esc(line); blank = 0; continue
			}
			if (literal) { print ".fi"; literal = 0 }
			if (blank) print ".PP"
			print esc(line); blank = 0
		}
		if (literal) print ".fi"
		print ".SH SEE ALSO"
		if (name == "rdmadoctor") print "Each command has its own page: \\fBrdmadoctor\\-\\fICOMMAND\\fR(8)."
		else print "\\fBrdmadoctor\\fR(8)"
		print ".PP"
		print "The site file \\fI/etc/rdmadoctor/rdmadoctor.conf\\fR and the example machines under"
		print "\\fI/usr/share/rdmadoctor/examples/\\fR (replay one with \\fB\\-\\-root\\fR)."
	}' heading_list="${3:-0}"
}

"$bin" --help >"$out/.top" 2>&1 || true
help2roff rdmadoctor "check, measure and record the RDMA network of GPU machines" 1 \
	<"$out/.top" >"$out/rdmadoctor.8"
# the command list: entries under "commands:" up to the next blank line
awk '/^commands:$/ { on = 1; next } on && /^$/ { exit } on { sub(/^ +/, ""); print }' \
	"$out/.top" | while read -r cmd summary; do
	# a command's --help exits 0; anything else is a broken page, not one to ship
	"$bin" "$cmd" --help >"$out/.cmd" 2>&1 ||
		{ echo "gen-man.sh: '$bin $cmd --help' failed" >&2; exit 1; }
	help2roff "rdmadoctor-$cmd" "$summary" <"$out/.cmd" >"$out/rdmadoctor-$cmd.8"
done
rm -f "$out/.top" "$out/.cmd"
