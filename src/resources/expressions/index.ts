/** A guild's emojis and stickers made by its bots, the standard sticker packs, and their images. */
import { defineResource } from '../resource.js';
import { expressionAssetsTable } from './migrations/2026-12-02-expression-assets.js';
import { expressionFileRoutes, expressionRoutes } from './routes.js';
import { ExpressionsService } from './service.js';
import { SqliteExpressionAssetStore } from './store.sqlite.js';
import { PostgresExpressionAssetStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    expressions: ExpressionsService;
  }
}

export const expressionsResource = defineResource({
  name: 'expressions',
  stores: {
    expressionAssets: {
      sqlite: ({ conn }) => new SqliteExpressionAssetStore(conn),
      postgres: ({ conn }) => new PostgresExpressionAssetStore(conn),
    },
  },
  services: {
    expressions: ({ store, ids }, { structureWrites }) =>
      new ExpressionsService({
        world: store.world,
        members: store.members,
        writes: structureWrites,
        assets: store.expressionAssets,
        applicationEmojiFiles: store.applicationEmojis,
        ids,
      }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(expressionRoutes, { expressions: services.expressions });
  },
  rootRoutes: async (app, { services }) => {
    await app.register(expressionFileRoutes, { expressions: services.expressions });
  },
  migrations: [expressionAssetsTable],
});
