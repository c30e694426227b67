#!/usr/bin/env bash
# Rebuilds the font embedded in jigsolve-render for PNG pictures:
# crates/render/fonts/DejaVuSans-subset.ttf, DejaVu Sans (Debian's
# fonts-dejavu-core) cut down with fontTools to the characters pictures use
# (Latin-1, Latin Extended-A, Greek, dashes, quotes, arrows, a few math
# signs) and without hinting (the rasteriser does not use it). The result is
# checked in, so building and testing jigsolve need none of this; run it only
# to change the set of characters. The font's licence (Bitstream Vera; DejaVu
# changes are public domain) allows modified copies under a name without
# "Bitstream" or "Vera": crates/render/fonts/LICENSE. The Coptic letters
# U+03E2-03EF come from the Arev fonts under another licence and are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
if ! [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] \
  || ! env -i PATH=/usr/bin:/bin /usr/bin/python3 -c 'import fontTools' 2>/dev/null; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fonts-dejavu-core python3-fonttools
fi
# Debian's own python3, which has Debian's fontTools (not a pyenv or venv one).
env -i PATH=/usr/bin:/bin /usr/bin/python3 -m fontTools.subset \
  /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
  --unicodes="U+0020-007E,U+00A0-017F,U+0370-03E1,U+03F0-03FF,U+2010-2027,U+2030-203A,U+2190-21BB,U+2212,U+221A,U+2260-2265,U+25A0-25CF" \
  --layout-features='kern' --no-hinting --desubroutinize \
  --output-file=crates/render/fonts/DejaVuSans-subset.ttf
ls -l crates/render/fonts/DejaVuSans-subset.ttf
