/** The requester's locale from the request's headers, then the user's settings (docs/v10-behaviour.md#contexts-integration-types-and-locales). */
import type { FastifyRequest } from 'fastify';
import { resolveRequesterLocale, type Locale } from '../core/locales.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function requesterLocale(request: FastifyRequest, userLocale: string | null | undefined): Locale | null {
  return resolveRequesterLocale({
    serviceLocale: header(request, 'x-service-locale'),
    discordLocale: header(request, 'x-discord-locale'),
    acceptLanguage: header(request, 'accept-language'),
    userLocale,
  });
}
