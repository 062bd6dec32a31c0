#!/bin/sh
# The dashboard's browser tests drive the machine's Chromium through playwright-core (no browser
# download). It comes with Debian's `chromium` package; this installs it when missing (as root, or
# through sudo) and says what to do where it cannot.
set -e
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0
if command -v apt-get >/dev/null 2>&1; then
  SUDO=
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "$CHROMIUM is missing: installing Debian's chromium package"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
echo "$CHROMIUM is missing: install Chromium (apt-get install chromium) or set CHROMIUM_PATH" >&2
exit 1
