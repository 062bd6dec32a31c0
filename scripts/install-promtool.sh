#!/bin/sh
# promtool checks the alert rules offline (`make alerts`). It comes with Debian's `prometheus` package;
# this installs it when missing (as root, or through sudo) and says what to do where it cannot.
set -e
command -v promtool >/dev/null 2>&1 && exit 0
if command -v apt-get >/dev/null 2>&1; then
  SUDO=
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "promtool is missing: installing Debian's prometheus package"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  command -v promtool >/dev/null 2>&1 && exit 0
fi
echo "promtool is missing: install Prometheus (it ships promtool), e.g. apt-get install prometheus" >&2
exit 1
