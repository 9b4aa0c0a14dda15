# One image for every role; ROLE=api|worker|all picks what a container runs.
# Node 22 LTS here; the project itself runs and is tested on Node 20.19+ as well (package.json engines).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY actors ./actors
COPY schemas ./schemas
COPY bench ./bench
# The typed client (client/): the server's build compiles it and the console calls the API through it.
COPY client ./client
# The operator console (Vite builds it into dist/console; it shows the plan table of actors/identity).
COPY console ./console
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
# HOST: listen on every interface, or `docker run -p` reaches nothing (127.0.0.1 is the container's
# own loopback). DATA_DIR: the embedded stores, generated secrets and the mail outbox live in /data,
# a volume, not under /app (root's, read-only to the service).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY scripts/healthcheck.js ./scripts/healthcheck.js
# Created and given to `node` (uid 1000) before VOLUME: a new named volume starts as a copy of it,
# owner included, so the service can write there. A bind mount keeps its host owner: give it to
# uid 1000 (or run with --user).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# /livez: is the process alive. Not /readyz: an outage of the database must not get every container
# restarted by an orchestrator that acts on health (docker-compose.yml probes /readyz for the api).
# Node, not curl (the slim image has none); a worker serves no HTTP and passes while it runs.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "scripts/healthcheck.js", "/livez"]
# The same Node flags as `npm start` (docs/architecture.md, "Node flags"): a larger young
# generation, for fewer garbage collections under bursts of requests.
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
