/** Users as others see them, and the caller's guilds. */
import { defineResource } from '../resource.js';
import { userRoutes } from './routes.js';

export const usersResource = defineResource({
  name: 'users',
  apiRoutes: async (api, { services }) => {
    await api.register(userRoutes, { guilds: services.guilds });
  },
});
