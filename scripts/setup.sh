#!/usr/bin/env bash
# Installs the system packages jigsolve's tests and recipes use (none are
# needed to build or run jigsolve itself): GNU parallel, the reference engine
# for running shards on many cores and machines; Debian's Chromium and
# ChromeDriver, the real browser the tests of `jigsolve serve` drive. Safe
# to run repeatedly.
set -euo pipefail
need=()
command -v parallel >/dev/null 2>&1 || need+=(parallel)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  echo "setup: installing ${need[*]} from Debian's packages" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
