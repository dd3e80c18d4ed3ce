/**
 * A bot's own profile (docs/v10-behaviour.md#bot-users): `PATCH /users/@me` renames it and sets or
 * removes its avatar and banner, then tells the bot's sessions (USER_UPDATE); the images are served
 * as v10's CDN serves them. Every later read of the bot shows the profile: the world store's
 * application reads carry it (`Application.bot_profile`).
 */
import type { GatewayUserUpdateDispatchData } from 'discord-api-types/v10';
import { apiError } from '../../core/io/errors.js';
import { orThrow, type Result } from '../../core/io/result.js';
import type { WorldEvent } from '../../core/world/dispatch.js';
import { toWireBotUser } from '../../core/world/wire.js';
import type { WirePayload } from '../../core/wire-payload.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { StoredApplication, WorldStore } from '../../store/store.js';
import { imageHashOf, planBotProfileEdit, readBotProfileEdit, type BotProfileWrite } from './rules.js';
import type { BotImage, BotImageKind, BotProfileStore } from './store.js';

declare module '../../core/world/dispatch-payloads.js' {
  interface WorldDispatchPayloads {
    /** The bot's own user changed (v10: to the bot's sessions alone, whatever their intents). */
    USER_UPDATE: GatewayUserUpdateDispatchData;
  }
}

export interface BotProfileDeps {
  profiles: BotProfileStore;
  world: Pick<WorldStore, 'getApplication'>;
  events: Pick<WorldEvents, 'publishAll'>;
  now: () => number;
}

/** USER_UPDATE to the sessions of the bot it names, and no one else (no guild: the recipients decide). */
function userUpdate(applicationId: string, d: WirePayload<GatewayUserUpdateDispatchData>): WorldEvent {
  return {
    kind: 'dispatch',
    event: { t: 'USER_UPDATE', guildId: null, channelId: null, recipientIds: [applicationId], d },
  };
}

export class BotProfileService {
  constructor(private readonly deps: BotProfileDeps) {}

  /** `PATCH /users/@me` with a bot token: the bot's user object as it is after the edit. */
  async update(app: StoredApplication, body: unknown): Promise<WirePayload<GatewayUserUpdateDispatchData>> {
    const edit = orThrow(readBotProfileEdit(body));
    const planned = await this.deps.profiles.mutateBotProfile<Result<BotProfileWrite>>(app.id, (current) => {
      const plan = planBotProfileEdit(current, app.name, edit, this.deps.now());
      return { write: plan.ok ? plan.value : null, outcome: plan };
    });
    orThrow(planned);
    const edited = await this.deps.world.getApplication(app.id);
    if (!edited) throw apiError('Unauthorized');
    const user = toWireBotUser(edited);
    this.deps.events.publishAll([userUpdate(app.id, user)]);
    return user;
  }

  /** `GET /avatars/{id}/{hash}` or `/banners/{id}/{hash}` of a bot, or null when the bot has no such image. */
  async image(userId: string, kind: BotImageKind, file: string): Promise<BotImage | null> {
    return this.deps.profiles.getBotImage(userId, kind, imageHashOf(file));
  }
}
