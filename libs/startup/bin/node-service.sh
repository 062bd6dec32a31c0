#!/bin/sh
# How every service process runs node: the image's ENTRYPOINT (so Kubernetes and docker compose too),
# make up, the test harness, chaos and the compile cache's warm-up all start node through this file,
# so the flags below are written here only. `$NODE_BINARY` picks the node (default: node on PATH).
# The reasons are in docs/decisions/, each setting's record named beside it.

# glibc: a fixed mmap threshold returns argon2's 19 MiB blocks to the system instead of keeping one
# per thread (2026-11-23-glibc-malloc-settings.md); two arenas bound what threads keep (same record).
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-1048576}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"

# V8 (these are V8 flags, which NODE_OPTIONS refuses): 4 MB semi-spaces keep the young generation
# small from the start (2026-11-23-semi-space-size.md); the old generation grows 30 % past its live
# size, not 4x (2026-11-23-heap-growing-percent.md); no allocation-site pretenuring, which sent one
# gateway start in seven into frequent full collections (2026-11-24-no-allocation-site-pretenuring.md).
# Then the OpenTelemetry hook, before the service's modules; it does nothing without OTLP settings.
exec "${NODE_BINARY:-node}" \
  --max-semi-space-size=4 \
  --heap-growing-percent=30 \
  --no-allocation-site-pretenuring \
  --import @coin/telemetry/register \
  "$@"
