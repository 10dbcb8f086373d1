# Deckforge in a container: `docker build -t deckforge .` (`--build-arg PREVIEWS=false` leaves LibreOffice out:
# a much smaller image whose server refuses PDF and PNG previews). The same image runs every role:
#   docker run … deckforge                  serve (API + jobs)       docker run … deckforge worker
#   docker run … deckforge serve --no-worker                          docker run … deckforge migrate
# See the README ("Running on several machines") and compose.yaml.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The client's workspace (packages/client) is part of the lockfile: npm ci needs its package.json.
COPY packages/client/package.json packages/client/
# Without scripts: `prepare` would build before the sources are here. Then the one package that needs its own:
# esbuild (its binary, used by the build). On Node 24 SQLite is better-sqlite3 13, which ships ready to load
# (src/adapters/sqlite/driver.ts); version 12, compiled for Node 20, is neither compiled nor used here.
RUN npm ci --ignore-scripts && npm rebuild esbuild
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ARG PREVIEWS=true
# Previews: LibreOffice Impress driven through Python's UNO bridge, poppler for the PNGs, the
# metric-compatible fonts PowerPoint templates ask for (docs/previews.md), and bubblewrap, which runs each
# renderer without network and with a read-only system (docs/security.md, "Rendering untrusted decks": the
# container must be allowed to create namespaces; /healthz says `"isolated": false` where it is not).
RUN if [ "$PREVIEWS" = "true" ]; then \
      apt-get update && apt-get install -y --no-install-recommends libreoffice-impress python3-uno poppler-utils bubblewrap \
        fonts-crosextra-carlito fonts-crosextra-caladea fonts-liberation2 fonts-noto-core \
      && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/docs ./docs
# The data directory: the SQLite file, job files and link secret of a one-machine install (mount a volume here),
# and each process's scratch folder in every set-up.
RUN mkdir /data && chown node:node /data
ENV HOST=0.0.0.0 PORT=8080 DECKFORGE_DATA_DIR=/data
USER node
EXPOSE 8080
# Only `serve` answers HTTP: a `worker` or `migrate` container disables this check (compose.yaml does).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/deckforge.js"]
CMD ["serve"]
