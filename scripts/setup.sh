#!/usr/bin/env bash
# Installs the system packages jigsolve's tests and recipes use (none are
# needed to build or run jigsolve itself). Safe to run repeatedly.
set -euo pipefail
need=()
# (filled in as features need them)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi
