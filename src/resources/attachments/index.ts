/** Message files: their bytes stored with the message, served at their signed URL. */
import { defineResource } from '../resource.js';
import { urlSigningKey } from './migrations/2026-12-02-url-signing-key.js';
import { attachmentApiRoutes, attachmentRoutes } from './routes.js';
import { AttachmentsService } from './service.js';
import { SqliteAttachmentStore } from './store.sqlite.js';
import { PostgresAttachmentStore } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    attachments: AttachmentsService;
  }
}

export const attachmentsResource = defineResource({
  name: 'attachments',
  channelOwnedTables: ['attachment_chunks', 'attachment_files'],
  stores: {
    attachments: {
      sqlite: ({ conn }) => new SqliteAttachmentStore(conn),
      postgres: ({ conn }) => new PostgresAttachmentStore(conn),
    },
  },
  services: {
    attachments: ({ store, ids, now, attachmentUrls }) =>
      new AttachmentsService({ store, world: store.world, members: store.members, ids, now, urls: attachmentUrls }),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(attachmentApiRoutes, { attachments: services.attachments });
  },
  rootRoutes: async (app, { services }) => {
    await app.register(attachmentRoutes, { attachments: services.attachments });
  },
  migrations: [urlSigningKey],
});
