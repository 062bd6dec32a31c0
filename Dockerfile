# One image for every process: the gateway, each service and the migration job differ only in the
# entry point given as the command (`services/<name>/src/main.ts`, `scripts/migrate.ts`).
# Node 24 runs the TypeScript sources directly (type stripping); there is no build step.

# The partner dashboard's static files (Vite), which the gateway serves at /dashboard.
FROM node:24-slim AS dashboard
WORKDIR /app
COPY . .
RUN npm install --no-audit --no-fund --workspace=dashboard && npm run build -w @coin/dashboard

FROM node:24-slim AS deps
WORKDIR /app
COPY . .
COPY --from=dashboard /app/dashboard/dist dashboard/dist
# Production dependencies of the deployables only (no test harness, no dev tools), then the
# sources nothing in production runs. `npm install` at the lock's versions rather than `npm ci`:
# the lock omits other platforms' optional binaries of dev tools, which `npm ci` refuses.
RUN npm install --omit=dev --no-audit --no-fund \
      --workspace=services/gateway --workspace=services/identity --workspace=services/onboarding \
      --workspace=services/rules --workspace=services/wallet --workspace=services/leaderboard \
      --workspace=services/webhooks \
  && rm -rf e2e bench deploy k8s libs/*/test services/*/test dashboard/src dashboard/test \
  && npm cache clean --force

FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app /app
# The runtime's memory settings, the same as make up's (libs/startup/src/runtime.ts says why; npm run
# deploy:check compares them): V8's heap sizing, the compile cache that spares each start the type
# stripping, glibc's fixed mmap threshold and two malloc arenas.
ENV NODE_COMPILE_CACHE=/app/.compile-cache MALLOC_MMAP_THRESHOLD_=1048576 MALLOC_ARENA_MAX=2
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
# The OpenTelemetry hook loads first; it does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
ENTRYPOINT ["node", "--max-semi-space-size=4", "--heap-growing-percent=30", "--no-allocation-site-pretenuring", "--import", "@coin/telemetry/register"]
CMD ["services/gateway/src/main.ts"]
