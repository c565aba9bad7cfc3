#!/bin/sh
# Installs the Debian packages the toolkit builds and tests with, when missing
# (python3-doc, libstdc++-12-doc, libglib2.0-doc and wget2: the sites and the
# peer of B6 in make bench, whose links the unit tests also resolve against
# libcurl's; python3-scrapy, the peer of B8, is installed by that bench row;
# python3-html5lib and python3-protego: the reference implementations of the
# HTML tokenizer's and the robots.txt matcher's differential tests; time:
# /usr/bin/time, the peak memory of the tools in the e2e tests; chromium: the
# headless browser that lays out frontier-report's HTML page in
# tests/e2e/test_report_html.sh).
set -e
pkgs="g++ make pkg-config libcli11-dev libsqlite3-dev sqlite3 libsimdjson-dev libcurl4-openssl-dev
libxxhash-dev catch2 libpsl-dev libidn2-dev libxml2-dev libre2-dev zlib1g-dev python3 nginx-light python3-doc curl jq time
libpq-dev postgresql wget2 libstdc++-12-doc libglib2.0-doc python3-html5lib python3-protego openssl chromium"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing Debian packages:$missing (and what they depend on)" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# apt-get's own lines (what it installs, with dependencies: a PostgreSQL
# server among them) stay visible; only the package-list refresh is quiet.
$SUDO apt-get install -y -q --no-install-recommends $missing || {
    $SUDO apt-get update -q >/dev/null
    $SUDO apt-get install -y -q --no-install-recommends $missing
}
