#!/usr/bin/env bash
# Every check of the project: typecheck, lint, unit and integration tests (SQLite and PostgreSQL), e2e in
# Chromium, the main path in Firefox ESR, the deployment suite (nginx in front of two copies over PostgreSQL),
# and the app's start, sign-in and one fill on each other supported Node line. Run through
# scripts/with-node.sh (npm run test:all), so on a supported Node.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's packages the tests use: chromium-headless-shell and firefox-esr for the browser tests, nginx (and openssl) for the
# deployment suite, sqlite3 and PostgreSQL's client tools (pg_dump, pg_restore) for the backup tests.
MISSING=""
[ -x /usr/bin/chromium-headless-shell ] || MISSING="$MISSING chromium-headless-shell"
[ -x /usr/bin/firefox-esr ] || MISSING="$MISSING firefox-esr"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || MISSING="$MISSING nginx"
command -v openssl >/dev/null 2>&1 || MISSING="$MISSING openssl"
command -v sqlite3 >/dev/null 2>&1 || MISSING="$MISSING sqlite3"
command -v pg_dump >/dev/null 2>&1 || MISSING="$MISSING postgresql-client"
# The export's statistics scripts run for real in the tests (docs/decisions/041-statistics-scripts.md); R
# and PSPP without their recommended packages (compilers, documentation), which the scripts do not use.
STATS=""
command -v Rscript >/dev/null 2>&1 || STATS="$STATS r-base-core"
command -v pspp >/dev/null 2>&1 || STATS="$STATS pspp"
if [ -n "$MISSING$STATS" ]; then
  echo "Installing Debian's$MISSING$STATS for the tests"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # Another apt run (a machine's own updates at boot) holds the lock for a while: wait for it.
  APT="$SUDO apt-get -o DPkg::Lock::Timeout=600"
  export DEBIAN_FRONTEND=noninteractive
  $APT update -qq
  [ -z "$MISSING" ] || $APT install -y -qq $MISSING >/dev/null
  [ -z "$STATS" ] || $APT install -y -qq --no-install-recommends $STATS >/dev/null
fi
export PATH="$PATH:/usr/sbin"

mkdir -p test-results && rm -f test-results/node-*.json test-results/node-*.log test-results/firefox.json
# Each part's start, with the minutes since the run began: the whole must stay under 20 minutes.
step() { echo "== $1 [$((SECONDS / 60)) min $((SECONDS % 60)) s]"; }
# The typecheck, the lint and the build side by side (the first two use one core each, the build waits on the
# disk much of its time); each one's output after the others'. A failure here ends the run.
step "typecheck, lint and build"
npm run -s typecheck > test-results/typecheck.log 2>&1 &
typecheck=$!
npm run -s lint > test-results/lint.log 2>&1 &
lint=$!
npm run -s build > test-results/build.log 2>&1 &
build=$!
checks=0
wait $typecheck || { checks=1; echo "-- typecheck failed"; }
cat test-results/typecheck.log
wait $lint || { checks=1; echo "-- lint failed"; }
cat test-results/lint.log
wait $build || { checks=1; echo "-- build failed"; cat test-results/build.log; }
[ $checks -eq 0 ] || exit 1
# A failing suite does not stop the ones after it: the run ends with every suite's result, and fails.
status=0
step "unit and integration"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=1
step "e2e"
npx playwright test || status=1
step "Firefox ESR: sign-in, a fill with every question kind, offline with a reload, the sync"
npx vitest run -c vitest.firefox.config.ts \
  --reporter=default --reporter=json --outputFile.json=test-results/firefox.json || status=1
step "deployment: nginx, two copies over PostgreSQL, the provider in its own process"
npx playwright test -c playwright.deploy.config.ts || status=1
# The other supported Node lines side by side: each starts the app on ports and in a folder of its own.
own=$(node -p 'process.versions.node.split(".")[0]')
lines=()
for line in 22 24 26; do
  [ "$line" = "$own" ] && continue
  lines+=("$line")
done
step "Node $(IFS=/; echo "${lines[*]}"): the app's start, sign-in and one fill, side by side"
pids=()
for line in "${lines[@]}"; do
  bash scripts/with-node.sh --line "$line" npx vitest run tests/server/runtime-line.test.ts \
    --reporter=default --reporter=json --outputFile.json="test-results/node-$line.json" \
    > "test-results/node-$line.log" 2>&1 &
  pids+=($!)
done
for i in "${!lines[@]}"; do
  wait "${pids[$i]}" || status=1
  echo "-- Node ${lines[$i]}"
  cat "test-results/node-${lines[$i]}.log"
done
step "summary"
node scripts/test-summary.mjs
exit $status
