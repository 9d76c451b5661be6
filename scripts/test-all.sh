#!/usr/bin/env bash
# Every check of the project: typecheck, lint, unit and integration tests (SQLite and PostgreSQL), e2e in
# Chromium, and the deployment suite (nginx in front of two copies over PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's packages the tests use: chromium for the browser tests, nginx (and openssl) for the deployment suite,
# sqlite3 and PostgreSQL's client tools (pg_dump, pg_restore) for the backup tests.
MISSING=""
[ -x /usr/bin/chromium ] || MISSING="$MISSING chromium"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || MISSING="$MISSING nginx"
command -v openssl >/dev/null 2>&1 || MISSING="$MISSING openssl"
command -v sqlite3 >/dev/null 2>&1 || MISSING="$MISSING sqlite3"
command -v pg_dump >/dev/null 2>&1 || MISSING="$MISSING postgresql-client"
if [ -n "$MISSING" ]; then
  echo "Installing Debian's$MISSING for the tests"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $MISSING >/dev/null
fi
export PATH="$PATH:/usr/sbin"

mkdir -p test-results
echo "== typecheck"; npm run -s typecheck
echo "== lint"; npm run -s lint
echo "== build"; npm run -s build >/dev/null
echo "== unit and integration"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
echo "== e2e"
status=0
npx playwright test || status=1
echo "== deployment: nginx, two copies over PostgreSQL, the provider in its own process"
npx playwright test -c playwright.deploy.config.ts || status=1
node scripts/test-summary.mjs
exit $status
