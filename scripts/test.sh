#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what a fresh machine lacks, then runs every check.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

if [ ! -x /usr/bin/chromium ]; then
  step "installing Debian's chromium for the browser tests"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ ! -d node_modules ]; then
  step "npm install"
  npm install --no-audit --no-fund
fi

step "typecheck"
npx tsc -p tsconfig.json --noEmit
step "formatting"
npx prettier --check . --log-level warn
step "lint"
npx eslint .
step "unit and server tests"
npx vitest run
step "build"
npx vite build
step "size budgets"
npx tsx scripts/check-budgets.ts
step "end-to-end tests in Chromium"
npx playwright test
