/** Command permissions of a guild, edited with a user's Bearer token. */
import { defineResource } from '../resource.js';
import { commandPermissionRoutes } from './routes.js';
import { PermissionsService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    permissions: PermissionsService;
  }
}

export const commandPermissionsResource = defineResource({
  name: 'command-permissions',
  services: {
    permissions: ({ store, bus }) => new PermissionsService(store.commands, bus),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(commandPermissionRoutes, { permissions: services.permissions, guilds: services.world });
  },
});
