#!/usr/bin/env bash
# Builds jigsolve's static site into target/site/ (or the folder given),
# ready for any static host: the page of `jigsolve serve` (one page source,
# crates/serve/src/page/, here with its searches in this browser),
# jigsolve.wasm (crates/wasm, compiled for wasm32-unknown-unknown), the
# worker that runs it and the module that runs a search on every core
# (site/). Installs what the build needs from
# Debian's packages when it is missing: rustc-web and cargo-web (a Rust
# with the standard library's source, for -Zbuild-std), rust-web-src and
# lld-22 (wasm-ld-22). The rustup toolchain has no wasm32 target.
#   bash scripts/site.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/site}
need=()
[ -x /usr/bin/wasm-ld-22 ] || need+=(lld-22)
[ -d /usr/lib/rustlib/src/rust/library ] || need+=(rust-web-src)
/usr/bin/rustc --print target-list 2>/dev/null | grep -qx wasm32-unknown-unknown || need+=(rustc-web)
[ -x /usr/bin/cargo ] || need+=(cargo-web)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "site: installing ${need[*]} from Debian's packages" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        rustc-web cargo-web rust-web-src lld-22 >/dev/null
fi
# Debian's Rust, which has the wasm32 target and the standard library's
# source; nightly features (-Zbuild-std) switched on for this build only.
# No debug information: it would be most of the file.
PATH=/usr/bin:$PATH RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-22 \
    CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=true \
    cargo build --release --locked -p jigsolve-wasm --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort --target-dir target/wasm
mkdir -p "$out"
cp target/wasm/wasm32-unknown-unknown/release/jigsolve_wasm.wasm "$out/jigsolve.wasm"
cp site/worker.js site/jigsolve.js "$out/"
page=crates/serve/src/page
cp "$page/app.js" "$page/backends.js" "$page/style.css" "$out/"
# The same page; its searches run in the visitor's browser.
sed 's/<body data-backend="server">/<body data-backend="browser">/' "$page/index.html" > "$out/index.html"
grep -q 'data-backend="browser"' "$out/index.html"
size=$(wc -c < "$out/jigsolve.wasm")
gz=$(gzip -9 -c "$out/jigsolve.wasm" | wc -c)
page_bytes=$(cat "$out"/*.html "$out"/*.js "$out"/*.css | wc -c)
page_gz=$(for f in "$out"/*.html "$out"/*.js "$out"/*.css; do gzip -9 -c "$f"; done | wc -c)
echo "site: $out/jigsolve.wasm $((size / 1024)) KiB ($((gz / 1024)) KiB compressed), page $((page_bytes / 1024)) KiB ($((page_gz / 1024)) KiB compressed)" >&2
