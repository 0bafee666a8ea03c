#!/usr/bin/env bash
# Runs bungogood/bgci against this checkout's gulbara: builds bgci from a
# checkout of its repository (its path dependency on bkgm replaced by
# bkgm = "=0.6.0" from crates.io), writes bgci's engine aliases
# (scripts/bgci/config.toml, with the path of target/release/gulbara) into a
# temporary XDG_CONFIG_HOME, then runs `bgci check gulbara` and a duel
# against bgci's built-in engines. docs/CLIENTS.md shows a run.
#
#   scripts/bgci.sh --bgci DIR [--games N] [--against pubeval,random]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bgci_dir="" games=1000 against="pubeval,random"
while [ $# -gt 0 ]; do
  case "$1" in
    --bgci) bgci_dir=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --against) against=$2; shift 2 ;;
    *) echo "usage: $0 --bgci DIR [--games N] [--against pubeval,random]" >&2; exit 2 ;;
  esac
done
[ -n "$bgci_dir" ] && [ -f "$bgci_dir/Cargo.toml" ] || { echo "$0: --bgci DIR must be a checkout of bungogood/bgci" >&2; exit 2; }
if grep -q 'bkgm = { path' "$bgci_dir/Cargo.toml"; then
  sed -i 's|bkgm = { path = "../bkgm" }|bkgm = "=0.6.0"|' "$bgci_dir/Cargo.toml"
fi
(cd "$bgci_dir" && cargo build --release --quiet)
(cd "$here" && cargo build --release --quiet)
xdg=$(mktemp -d)
trap 'rm -rf "$xdg"' EXIT
mkdir -p "$xdg/bgci"
sed "s|\"gulbara\", \"--variant\"|\"$here/target/release/gulbara\", \"--variant\"|" \
  "$here/scripts/bgci/config.toml" > "$xdg/bgci/config.toml"
export XDG_CONFIG_HOME=$xdg
bgci="$bgci_dir/target/release/bgci"
"$bgci" check gulbara
IFS=, read -ra opponents <<< "$against"
for b in "${opponents[@]}"; do
  echo "== bgci duel: gulbara vs $b, $games games, sides swapped"
  "$bgci" duel -a gulbara -b "$b" -g "$games" -p 1 -s 11 -w
done
