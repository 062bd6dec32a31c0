# The two commands: `make up` runs the whole service on http://127.0.0.1:3000, `make test` runs every check.
.PHONY: up test bench fuzz chaos chaos-short install tools browser lint typecheck unit deploy-check alerts audit docs

# npm itself runs on the machine's Node (20 here), whose version most dependencies' `engines` refuse
# (40 EBADENGINE warnings). Run it on the project's Node instead, the `node` devDependency's version.
NODE_VERSION := $(shell node -p "require('./package.json').devDependencies.node")
NPM := npm exec --yes --package=node@$(NODE_VERSION) -- npm

# `npm ci`: exactly the lock's versions, or a clear refusal when package.json asks for others.
node_modules/.package-lock.json: package.json package-lock.json $(wildcard libs/*/package.json services/*/package.json e2e/package.json dashboard/package.json)
	@$(NPM) ci --no-audit --no-fund || { \
	  echo "make install: npm ci failed. If package.json changed, package-lock.json no longer matches it: run" >&2; \
	  echo "  $(NPM) install" >&2; \
	  echo "then commit package-lock.json and run make install again." >&2; exit 1; }
	@touch $@

# Tools outside npm: promtool (Debian's prometheus package) for the alert rules. `make install` tries
# and goes on without it (`make up` does not need it); `make alerts` and `make test` require it.
tools:
	@sh scripts/install-promtool.sh

# The partner dashboard (Vite), served by the gateway at /dashboard; rebuilt when its sources change.
DASHBOARD_SOURCES := $(shell find dashboard/src libs/sdk/src libs/contracts/src -type f) dashboard/index.html dashboard/vite.config.ts
dashboard/dist/index.html: node_modules/.package-lock.json $(DASHBOARD_SOURCES)
	npm run build:dashboard

# The documentation site (VitePress and Redoc, docs/site), served by the gateway at /docs; rebuilt
# when a page it renders or its configuration changes.
DOCS_SOURCES := $(shell find docs/partners docs/site -type f -not -path 'docs/site/dist/*') docs/specification.md docs/glossary.md docs/reference/README.md docs/reference/openapi.json CHANGELOG.md libs/sdk/README.md libs/sdk/CHANGELOG.md
docs/site/dist/index.html: node_modules/.package-lock.json $(DOCS_SOURCES)
	npm run docs:build

docs: docs/site/dist/index.html

# Debian's Chromium for the dashboard's browser tests (playwright-core drives it; no browser download).
browser:
	@sh scripts/install-chromium.sh

# The commit-msg hook (.githooks/commit-msg) checks the commit convention; only in a git work tree.
# Last, the compile cache the services start with (scripts/warm-compile-cache.ts says why).
install: node_modules/.package-lock.json dashboard/dist/index.html docs/site/dist/index.html
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git config core.hooksPath .githooks; fi
	@sh scripts/install-promtool.sh || echo "(make alerts needs promtool)"
	@npm run --silent warm-compile-cache

up: install
	npm run up

lint: install
	npm run lint

typecheck: install
	npm run typecheck

unit: install browser
	npm run test

# Renders every kustomize overlay (k8s/) and validates it, and docker-compose.yml, offline.
deploy-check: install
	npm run deploy:check

# The alert rules: valid (promtool check rules), and each fires and stays quiet as its rule tests say.
alerts: tools
	promtool check rules deploy/alerts/coin-rewards.rules.yml
	promtool test rules deploy/alerts/coin-rewards.test.yml

# The production dependencies against the registry's advisories: a high or critical one fails unless
# audit-allowlist.json lists it with a reason (scripts/audit.ts).
audit: install
	npm run audit

test: lint typecheck deploy-check alerts audit unit chaos-short

bench: install
	npm run bench

# 10,000 generated and damaged requests through a full stack; prints the answers by status.
# SEED=<n> replays a run, SEED=<n> FUZZ_INDEX=<i> one request of it.
fuzz: install
	npm run fuzz

# Fault injection with a final read (chaos/): 2 replicas of every service and 2 gateways on private
# Postgres, NATS and Redis under a seeded workload and seeded kill -9 / SIGSTOP / server-restart faults,
# then healing, quiet and every invariant checked. RUNS=<n> SEED=<n> DURATION=<s>
# FAULTS=kill,pause,restart; exits 1 naming the seed of a failed run. TOPOLOGY=ha: Postgres as a
# primary and a synchronous standby behind a read-write endpoint, NATS as 3 JetStream nodes, with
# failovers, node kills and partitions (CHAOS_PG_SYNC=off: asynchronous, to show what it loses).
chaos: install
	npm run chaos

# The pass `make test` ends with: one 30 s run, kill -9 and pauses only (SEED=<n> replays one).
chaos-short: install
	DURATION=30 RUNS=1 FAULTS=kill,pause npm run chaos
