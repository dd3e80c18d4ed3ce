/** Message files: their bytes stored with the message, served at their URL. */
import { defineResource } from '../resource.js';
import { attachmentRoutes } from './routes.js';
import { AttachmentsService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    attachments: AttachmentsService;
  }
}

export const attachmentsResource = defineResource({
  name: 'attachments',
  services: {
    attachments: ({ store, ids, now, origin }) =>
      new AttachmentsService({ store, world: store.world, members: store.members, ids, now, origin }),
  },
  rootRoutes: async (app, { services }) => {
    await app.register(attachmentRoutes, { attachments: services.attachments });
  },
});
