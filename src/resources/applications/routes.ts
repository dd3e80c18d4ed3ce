/** Who am I: the endpoints client libraries call to log in (docs/v10-behaviour.md#endpoints). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../core/io/errors.js';
import { toWireBotUser, toWireCurrentUser } from '../../core/world/wire.js';
import type { ApplicationService } from './service.js';
import { appOf, principalOf, requireAnyCaller, requireApp, requireBot } from '../../http/guards.js';

export interface IdentityRoutesOptions {
  applications: ApplicationService;
}

export async function identityRoutes(api: FastifyInstance, { applications }: IdentityRoutesOptions): Promise<void> {
  api.get('/users/@me', { onRequest: requireAnyCaller }, async (request) => {
    const principal = principalOf(request);
    if (principal.kind === 'bot') return toWireBotUser(principal.app);
    if (!principal.user) throw apiError('Unauthorized');
    return toWireCurrentUser(principal.user);
  });

  const currentApplication = async (request: FastifyRequest) => applications.current(appOf(request));
  api.get('/applications/@me', { onRequest: requireApp }, currentApplication);
  api.get('/oauth2/applications/@me', { onRequest: requireApp }, currentApplication);

  api.patch('/applications/@me', { onRequest: requireBot }, async (request) =>
    applications.update(appOf(request), request.body),
  );

  // The same object by the app's id (v10 `GET/PATCH /applications/{id}`): the caller's own only.
  api.get<{ Params: AppParams }>('/applications/:applicationId', { onRequest: requireApp }, async (request) =>
    applications.current(ownApp(request)),
  );
  api.patch<{ Params: AppParams }>('/applications/:applicationId', { onRequest: requireBot }, async (request) =>
    applications.update(ownApp(request), request.body),
  );
}

interface AppParams {
  applicationId: string;
}

/** The caller's app, when the path names it; another's is 20012 (nothing of it is read). */
function ownApp(request: FastifyRequest<{ Params: AppParams }>) {
  const app = appOf(request);
  if (app.id !== request.params.applicationId) throw apiError('NotAuthorizedForApplication');
  return app;
}
