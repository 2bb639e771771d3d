#!/bin/sh
# The rdmadoctor container image, with nothing pulled from a registry: a
# root file system that mmdebstrap makes from Debian packages alone (the
# rdmadoctor .deb, the libraries it depends on, and ibverbs-providers,
# without which libibverbs opens no NIC), imported by podman as an image
# whose entrypoint is the binary and whose command is the exporter.
#
# The tree is mmdebstrap's `extract` variant: the packages' files, no
# maintainer script run, so no dpkg, apt or shell in the image either.
# Left out: man pages, translations, info, the bundled example machines
# (29,000 small files of sysfs trees for --root demonstrations: an exporter
# reads its own machine), and every program but rdmadoctor: the user and
# group tools (passwd's setuid ones among them) and debconf's scripts that
# libibverbs1 depends on for a maintainer script, which never runs here.
# Kept: /usr/share/doc (the licences).
#
#   build-image.sh RDMADOCTOR_DEB [IMAGE [MIRROR...]]
# IMAGE: default localhost/rdmadoctor:VERSION (the .deb's version).
# MIRROR: mmdebstrap mirror arguments (a URL, a sources.list line or
# file); default this machine's apt sources.  The suite is this machine's
# Debian release, which the .deb was built for.
# $PODMAN: the podman command (default `podman`; a test points it at a
# storage of its own).  Prints the image's name on its last line.
set -eu
deb=${1:?usage: build-image.sh RDMADOCTOR_DEB [IMAGE [MIRROR...]]}
[ -f "$deb" ] || { echo "build-image.sh: no file $deb" >&2; exit 2; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
version=$(dpkg-deb -f "$deb" Version)
image=${2:-localhost/rdmadoctor:$version}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
if [ $# -eq 0 ]; then
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -s "$f" ] && grep -qE '^[[:space:]]*(deb |Types:)' "$f" && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || { echo "build-image.sh: no apt sources here: name a mirror" >&2; exit 2; }
fi
# shellcheck source=/dev/null
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}")

# what the .deb depends on, by name (the first of each alternative): apt
# picks the versions from the mirrors, and the .deb itself is unpacked into
# the tree (dpkg-deb -x), which needs no copy of it inside
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' |
	grep -v '^$' | tr '\n' ',')

work=$(mktemp -d "${TMPDIR:-/tmp}/rdimage.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The mount points of /proc, /sys, serve's /run/rdmadoctor (where a pod
# mounts a memory volume, daemonset.yaml), /var/lib/rdmadoctor (its
# memory, docs/state.md; a hostPath) and the agent's NFD features.d (a
# hostPath): an extracted tree has none, and
# a runtime that mounts the root read-only cannot make them (and
# mmdebstrap's cleanup would empty /run).  The hooks' "$1" is the tree,
# expanded by mmdebstrap's shell.
# shellcheck disable=SC2016
RDMADOCTOR_DEB=$deb mmdebstrap --variant=extract --quiet --skip=cleanup/run \
	--include=ibverbs-providers --include="$depends" \
	--extract-hook='dpkg-deb -x "$RDMADOCTOR_DEB" "$1"' \
	--extract-hook='rm -rf "$1"/usr/share/man "$1"/usr/share/locale "$1"/usr/share/info \
		"$1"/usr/share/rdmadoctor/examples "$1"/sbin "$1"/usr/sbin' \
	--extract-hook='find "$1"/usr/bin -mindepth 1 ! -name rdmadoctor -delete' \
	--extract-hook='mkdir -p "$1"/proc "$1"/sys "$1"/run/rdmadoctor "$1"/var/lib/rdmadoctor "$1"/tmp \
		"$1"/etc/kubernetes/node-feature-discovery/features.d' \
	"$suite" "$work/rootfs.tar" "$@"

# serve's default is loopback; in a pod on the host's network the node's
# Prometheus has to reach it (contrib/kubernetes/daemonset.yaml)
${PODMAN:-podman} import \
	--change 'ENTRYPOINT ["/usr/bin/rdmadoctor"]' \
	--change 'CMD ["serve", "--listen=0.0.0.0:9879", "--state=/var/lib/rdmadoctor"]' \
	--change 'EXPOSE 9879/tcp' \
	--change 'STOPSIGNAL SIGTERM' \
	--change "LABEL org.opencontainers.image.title=rdmadoctor" \
	--change "LABEL org.opencontainers.image.version=$version" \
	--change "LABEL org.opencontainers.image.base.name=debian:$suite (mmdebstrap, extract)" \
	--quiet "$work/rootfs.tar" "$image" >/dev/null
echo "$image"
