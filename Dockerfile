# One image for every slashd node (and for `slashd migrate`): the repository, built, without dev tools.
FROM node:20-bookworm-slim
WORKDIR /app
COPY . .
# `npm ci` builds dist/ through the prepare script; the dev packages go once it has.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev
USER node
ENTRYPOINT ["node", "bin/slashd.js"]
CMD ["serve", "--host", "0.0.0.0"]
