/** OAuth2 and OpenID Connect: authorization, tokens, the consent pages and who is signed in on them. */
import { defineResource } from '../resource.js';
import { authorizationsByUser } from './migrations/2026-12-02-authorizations-by-user.js';
import { ConsentSessions } from './consent-sessions.js';
import { OidcService } from './oidc-service.js';
import { oauth2PageRoutes } from './page-routes.js';
import { oauth2Routes } from './routes.js';
import { OAuth2Service } from './service.js';
import { SqliteOAuth2Grants } from './store.sqlite.js';
import { PostgresOAuth2Grants } from './store.postgres.js';

declare module '../resource.js' {
  interface NodeServices {
    oauth2: OAuth2Service;
    /** OpenID Connect: discovery, JWKS, ID tokens. */
    oidc: OidcService;
    /** Who is signed in on the consent page. */
    consentSessions: ConsentSessions;
  }
}

export const oauth2Resource = defineResource({
  name: 'oauth2',
  stores: {
    oauth2Grants: {
      sqlite: ({ conn }) => new SqliteOAuth2Grants(conn),
      postgres: ({ conn }) => new PostgresOAuth2Grants(conn),
    },
  },
  services: {
    oidc: ({ store, address, now }) => new OidcService(store.oauth2Grants, address, now),
    oauth2: ({ store, now }, { oidc, world }) =>
      new OAuth2Service({ world: store.world, members: store.members, grants: store.oauth2Grants }, now, oidc, world),
    consentSessions: ({ store, now, config }, { oidc }) =>
      new ConsentSessions(store.world, () => oidc.sharedSecret(), now, config.sandboxSignIn === true),
  },
  apiRoutes: async (api, { services }) => {
    await api.register(oauth2Routes, { oauth2: services.oauth2 });
  },
  rootRoutes: async (app, { services }) => {
    await app.register(oauth2PageRoutes, {
      oauth2: services.oauth2,
      oidc: services.oidc,
      sessions: services.consentSessions,
    });
  },
  migrations: [authorizationsByUser],
});
