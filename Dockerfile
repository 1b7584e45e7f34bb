# syntax=docker/dockerfile:1
# Both stages run the official Node 24 (LTS) image, pinned by digest: a tag moves when the image is
# rebuilt, a digest does not. This one is node:24-bookworm-slim as docker-library/repo-info recorded it
# (repos/node/remote/24-bookworm-slim.md: Node 24.19.0, built 2026-08-25, the multi-platform index).
# To move to a newer build: docker buildx imagetools inspect node:24-bookworm-slim, and replace both.
# Build stage: install everything, compile, then drop the development dependencies.
FROM node:24-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: Node 24, production dependencies, the compiled service and the embedded dataset.
FROM node:24-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df
ENV NODE_ENV=production \
    PORT=3000 \
    METRICS_PORT=9464 \
    REQUIRE_HTTPS=true \
    LOG_PRETTY=false
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY data ./data
# The service writes nothing to disk (logs go to stdout), so it runs on a read-only root filesystem.
USER node
EXPOSE 3000 9464
HEALTHCHECK --interval=10s --timeout=2s CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# V8 lets the old space grow to 1.3 times the live heap between full collections; under load the
# requests that outlive two scavenges pile up there. 10 % keeps the peak about 5 MB lower at no
# measurable cost: with the little that gets promoted, a full collection stays rare
# (docs/performance.md, Memory). V8 takes this flag on the command line only, not in NODE_OPTIONS.
CMD ["node", "--heap-growing-percent=10", "dist/main.js"]
