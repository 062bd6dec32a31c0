# One image for every process: the gateway, each service and the migration job differ only in the
# entry point given as the command (`services/<name>/src/main.ts`, `scripts/migrate.ts`).
# Node 24 runs the TypeScript sources directly (type stripping); there is no build step.
# The base image is pinned by digest (scripts/pin-images.ts finds a tag's current digest), and every
# install is `npm ci`: the lock's versions exactly, or the build fails.

# The partner dashboard's static files (Vite), which the gateway serves at /dashboard.
FROM node:24-slim@sha256:cd84903a12dbd26b46f1f3b8144a2568c41c5d37ddd0c7a80a34c7a19786b35f AS dashboard
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund --workspace=dashboard && npm run build -w @coin/dashboard

# The documentation site (VitePress guides, Redoc reference), which the gateway serves at /docs.
FROM node:24-slim@sha256:cd84903a12dbd26b46f1f3b8144a2568c41c5d37ddd0c7a80a34c7a19786b35f AS docs
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run docs:build

FROM node:24-slim@sha256:cd84903a12dbd26b46f1f3b8144a2568c41c5d37ddd0c7a80a34c7a19786b35f AS deps
WORKDIR /app
COPY . .
COPY --from=dashboard /app/dashboard/dist dashboard/dist
COPY --from=docs /app/docs/site/dist docs/site/dist
# Production dependencies of the deployables only (no test harness, no dev tools), at the lock's
# versions, then the sources nothing in production runs.
RUN npm ci --omit=dev --no-audit --no-fund \
      --workspace=services/gateway --workspace=services/identity --workspace=services/onboarding \
      --workspace=services/rules --workspace=services/wallet --workspace=services/leaderboard \
      --workspace=services/webhooks --workspace=backup \
  && rm -rf e2e bench deploy k8s libs/*/test services/*/test dashboard/src dashboard/test \
  && npm cache clean --force

FROM node:24-slim@sha256:cd84903a12dbd26b46f1f3b8144a2568c41c5d37ddd0c7a80a34c7a19786b35f
ENV NODE_ENV=production
WORKDIR /app
# pg_dump and pg_restore for the backup CronJob (backup/): PostgreSQL's own repository's client, of a
# major version at least the server's (Debian's own is 15).
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
  && install -d /usr/share/postgresql-common/pgdg \
  && curl -fsSo /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc https://www.postgresql.org/media/keys/ACCC4CF8.asc \
  && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" > /etc/apt/sources.list.d/pgdg.list \
  && apt-get update && apt-get install -y --no-install-recommends postgresql-client-17 \
  && apt-get purge -y curl && apt-get autoremove -y && rm -rf /var/lib/apt/lists/*
COPY --from=deps /app /app
# The image's own compile cache, which spares each start the type stripping
# (docs/decisions/2026-11-23-compile-cache.md).
ENV NODE_COMPILE_CACHE=/app/.compile-cache
# The compile cache is filled here, so that no pod start strips types (an emptyDir would be empty at
# every start). Node keys it by the user's uid, so user 10001 fills it; then it is made read-only,
# which Node reads from and never writes to.
RUN mkdir .compile-cache && chown 10001:10001 .compile-cache
USER 10001:10001
RUN node scripts/warm-compile-cache.ts
USER root
RUN chown -R root:root .compile-cache && chmod -R a-w .compile-cache
# Non-root, numeric so Kubernetes can verify runAsNonRoot; the files stay root-owned and read-only.
USER 10001:10001
EXPOSE 3000 9464
# node as every service runs it, with the runtime flags written in that launcher only (it execs node:
# one process, which receives the signals).
ENTRYPOINT ["/bin/sh", "/app/libs/startup/bin/node-service.sh"]
CMD ["services/gateway/src/main.ts"]
