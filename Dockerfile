# syntax=docker/dockerfile:1
# Build: the same commands CI runs (npm ci, npm run build). npm ci runs the
# install scripts (the Node.js check and the Prisma client's generation), so
# what they read comes first.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc .nvmrc prisma.config.ts ./
COPY scripts ./scripts
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

# Run: production dependencies, the build, the migrations and the Node.js
# check the service runs first (scripts/check-node.js); no root. The
# embedded database (no DATABASE_URL) lives in the volume /data.
FROM node:24-bookworm-slim
# Every address of the container: it is reached through its published port.
ENV NODE_ENV=production HOST=0.0.0.0 DATA_DIR=/data/pglite
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/.nvmrc ./
COPY --from=build --chown=node:node /app/scripts/check-node.js ./scripts/
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/prisma ./prisma
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Migrations are applied at start (MIGRATE_ON_START, default true). SIGTERM
# stops accepting connections, lets requests in flight finish, then exits.
# The Node.js flags are scripts/service-flags.js's (a unit test compares).
CMD ["node", "--max-semi-space-size=16", "--liftoff-only", "--no-allocation-site-pretenuring", "--v8-pool-size=1", "dist/main.js"]
