# Tributary API on Node 24 (glibc: the embedded PostgreSQL binaries need it, so no Alpine).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
RUN groupadd --system tributary && useradd --system --gid tributary --home /app tributary \
  && mkdir -p /data && chown tributary:tributary /data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY schema ./schema
COPY facades ./facades
# The dashboard's browser sources: the service bundles them on the first dashboard page (rolldown, a
# runtime dependency) and trusts the manifest of their GraphQL documents at start (docs/dashboard.md).
COPY packages/dashboard/package.json packages/dashboard/tsconfig.json ./packages/dashboard/
COPY packages/dashboard/src ./packages/dashboard/src
USER tributary
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/v1/status').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "facades/start.js"]
