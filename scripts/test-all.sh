#!/usr/bin/env bash
# Every check of the project: typecheck, lint, unit and integration tests (SQLite and PostgreSQL), e2e in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the browser tests"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
fi

mkdir -p test-results
echo "== typecheck"; npm run -s typecheck
echo "== lint"; npm run -s lint
echo "== build"; npm run -s build >/dev/null
echo "== unit and integration"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
echo "== e2e"
npx playwright test
node scripts/test-summary.mjs
