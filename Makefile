# The two commands: `make up` runs the whole service on http://127.0.0.1:3000, `make test` runs every check.
.PHONY: up test bench install lint typecheck unit deploy-check

node_modules/.package-lock.json: package.json package-lock.json $(wildcard libs/*/package.json services/*/package.json e2e/package.json)
	npm install --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json

up: install
	npm run up

lint: install
	npm run lint

typecheck: install
	npm run typecheck

unit: install
	npm run test

# Renders every kustomize overlay (k8s/) and validates it, and docker-compose.yml, offline.
deploy-check: install
	npm run deploy:check

test: lint typecheck deploy-check unit

bench: install
	npm run bench
