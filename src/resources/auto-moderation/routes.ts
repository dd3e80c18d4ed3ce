/**
 * Auto moderation (v10): `GET/POST /guilds/{g}/auto-moderation/rules` and `GET/PATCH/DELETE
 * .../rules/{r}`, for bots and users with MANAGE_GUILD (the service decides who may).
 */
import type { FastifyInstance } from 'fastify';
import { reasonOf } from '../../http/audit-reason.js';
import { requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { parseJsonBodyKeepingIds } from '../../http/json-body.js';
import type { AutoModerationService } from './service.js';

export interface AutoModerationRoutesOptions {
  autoModeration: AutoModerationService;
}

interface GuildParams {
  guildId: string;
}
interface RuleParams extends GuildParams {
  ruleId: string;
}

/** A rule at its largest: 1,000 keywords of 60 characters (a few bytes each in JSON), 10 patterns, 100 allowed words, 5 actions. */
const RULE_BODY_LIMIT_BYTES = 512 * 1024;

const CALLER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };

export async function autoModerationRoutes(
  api: FastifyInstance,
  { autoModeration }: AutoModerationRoutesOptions,
): Promise<void> {
  // discord.py sends ids (an alert's channel, exempt roles) as JSON integers.
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBodyKeepingIds);
  const base = '/guilds/:guildId/auto-moderation/rules';

  api.get<{ Params: GuildParams }>(base, CALLER, async (request) =>
    autoModeration.list(viewerOf(request), request.params.guildId),
  );

  api.post<{ Params: GuildParams }>(base, { ...CALLER, bodyLimit: RULE_BODY_LIMIT_BYTES }, async (request) =>
    autoModeration.create(viewerOf(request), request.params.guildId, request.body, reasonOf(request)),
  );

  api.get<{ Params: RuleParams }>(`${base}/:ruleId`, CALLER, async (request) =>
    autoModeration.get(viewerOf(request), request.params.guildId, request.params.ruleId),
  );

  api.patch<{ Params: RuleParams }>(
    `${base}/:ruleId`,
    { ...CALLER, bodyLimit: RULE_BODY_LIMIT_BYTES },
    async (request) =>
      autoModeration.edit(
        viewerOf(request),
        request.params.guildId,
        request.params.ruleId,
        request.body,
        reasonOf(request),
      ),
  );

  api.delete<{ Params: RuleParams }>(`${base}/:ruleId`, CALLER, async (request, reply) => {
    await autoModeration.delete(viewerOf(request), request.params.guildId, request.params.ruleId, reasonOf(request));
    return reply.code(204).send();
  });
}
