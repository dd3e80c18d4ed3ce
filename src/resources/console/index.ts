/** The web console: its own reads (sandbox sign-in, members, live streams) and its built files. */
import { readStaticFolder } from '../../http/static-files.js';
import { defineResource } from '../resource.js';
import { consoleRoutes } from './routes.js';
import { ConsoleService } from './service.js';

declare module '../resource.js' {
  interface NodeServices {
    /** Its live streams end when the node drains. */
    console: ConsoleService;
  }
}

export const consoleResource = defineResource({
  name: 'console',
  services: {
    console: ({ store, bus, config, now }) =>
      new ConsoleService({
        world: store.world,
        members: store.members,
        interactions: store.interactions,
        now,
        bus,
        sandboxSignIn: config.sandboxSignIn === true,
      }),
  },
  rootRoutes: async (app, { services, options }) => {
    const files = options.consoleFolder === undefined ? null : readStaticFolder(options.consoleFolder);
    await app.register(consoleRoutes, { console: services.console, files });
  },
});
