#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what a fresh machine lacks, then runs every check.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts (minutes:seconds since the start), so a slow step shows in CI's log.
step() { printf '\n=== %s  [%d:%02d]\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

# Debian's packages the tests use: the browser, PDFs read back (pdftotext), XML checked against its
# schema (xmllint), the official EN 16931 rules run by Saxon HE on Java (bills/en16931.test.ts),
# PostgreSQL for the second server run (scripts/with-postgres.sh).
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v xmllint >/dev/null || missing+=(libxml2-utils)
command -v java >/dev/null || missing+=(default-jre-headless)
[ -f /usr/share/java/Saxon-HE.jar ] || missing+=(libsaxonhe-java)
if [ ${#missing[@]} -gt 0 ]; then
  step "installing Debian's ${missing[*]}"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
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
step "server tests on PostgreSQL (a throw-away cluster, scripts/with-postgres.sh)"
bash scripts/with-postgres.sh npx vitest run --project server
step "build"
npx vite build
step "size budgets"
npx tsx scripts/check-budgets.ts
step "end-to-end tests in Chromium"
npx playwright test
step "end-to-end journey on PostgreSQL: sign-in and an offline write (tests/e2e/postgres.spec.ts)"
# shellcheck disable=SC2016 # expanded by the inner shell, where with-postgres.sh has set TEST_DATABASE_URL
bash scripts/with-postgres.sh bash -c 'psql -qc "create database cockpit_e2e" &&
  E2E_DATABASE_URL="${TEST_DATABASE_URL%/*}/cockpit_e2e" npx playwright test tests/e2e/postgres.spec.ts'
step "all passed"
