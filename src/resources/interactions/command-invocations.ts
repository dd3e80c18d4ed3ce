/**
 * A command invoked by a user (types 2 and 4): checked before anything reaches the app (access,
 * the command's version, its options against the world), then built into the interaction record
 * the invocations service stores and delivers.
 */
import { InteractionContextType, InteractionType } from 'discord-api-types/v10';
import type { APIAttachment } from 'discord-api-types/v10';
import { randomBytes } from 'node:crypto';
import { CommandType } from '../../core/commands/model.js';
import { toWireCommand } from '../commands/rules/wire.js';
import { APPLICATION_COMMAND_OUTDATED } from '../../core/io/codes.js';
import { apiError, invalidFormBody, type ApiError } from '../../core/io/errors.js';
import { issue } from '../../core/io/issue.js';
import { buildInteraction } from './rules/build-interaction.js';
import { checkInvocation } from './rules/check-invocation.js';
import { invokedName } from './rules/invoked-name.js';
import { userIdsNamedBy } from './rules/named-ids.js';
import type { ChannelMessage, StoredMessage } from '../messages/rules/messages.js';
import { makeInteractionToken, type InteractionRecord } from './rules/lifecycle.js';
import { dmAuthorization } from './rules/dm-access.js';
import type { InvokeRequest } from './rules/request.js';
import { appChannelPermissions, channelPermissions } from '../../core/permissions/channel-permissions.js';
import { heldByTimeout } from '../members/rules/member-rules.js';
import { formatPermissions } from '../../core/permissions/bits.js';
import { evaluateCommandInvocation } from '../../core/permissions/invocation.js';
import {
  BOT_DM_APP_PERMISSIONS,
  GROUP_DM_APP_PERMISSIONS,
  userInstallAllowsInGroupDm,
  userInstallInvocationAllowed,
} from '../../core/permissions/user-install.js';
import { isSnowflake, type SnowflakeGenerator } from '../../core/snowflake.js';
import type { User } from '../../core/world/types.js';
import type { Store } from '../../store/store.js';
import {
  loadScene,
  mayReadHistory,
  messageReadableIn,
  viewableGuild,
  withNamedMembers,
  type InvocationScene,
} from './invocation-scene.js';
import { interactionEntitlements } from '../entitlements/rules.js';

export interface CommandInvocationsDeps {
  store: Pick<Store, 'world' | 'members' | 'oauth2Grants' | 'commands' | 'interactions' | 'dms' | 'entitlements'>;
  ids: SnowflakeGenerator;
  now: () => number;
}

/** A checked command invocation: where it happens, and the interaction record to store and deliver. */
export interface PreparedInvocation {
  scene: InvocationScene;
  record: InteractionRecord;
}

/** Read-repair: the client's copy of the command is stale; the error names the current version. */
function outdatedCommand(scene: InvocationScene): ApiError {
  const stale = issue(
    ['data', 'version'],
    APPLICATION_COMMAND_OUTDATED,
    'This command is outdated, please try again in a few minutes',
  );
  return invalidFormBody([stale], {
    current_version: scene.command.version,
    application_command: toWireCommand(scene.command),
  });
}

/** v10: a timed-out member uses no command until the timeout ends (the owner and administrators are never timed out). */
function checkTimeout(scene: InvocationScene, nowMs: number): void {
  if (!scene.inGuild) return;
  const { guild, member } = scene.inGuild;
  if (heldByTimeout(guild, member, nowMs)) throw apiError('MissingPermissions');
}

/**
 * Which integrations authorize the invocation (v10's `authorizing_integration_owners`), or a 403
 * when none does. In a guild: its install of the app (`"0"`: the guild id), the user's install
 * (`"1"`: the user id), or both; in the bot's DM: the user's install, else the guild-install side
 * (`"0"`: `"0"`).
 */
function authorizingOwners(scene: InvocationScene): Record<string, string> {
  if (scene.groupDm) {
    // No app is in a group DM: only the user's own install authorizes a command there.
    if (!scene.userInstalled || !userInstallAllowsInGroupDm(scene.app, scene.user, scene.command)) {
      throw apiError('MissingPermissions');
    }
    return { '1': scene.user.id };
  }
  if (!scene.inGuild) {
    const authorization = dmAuthorization(scene.command, scene.userInstalled);
    if (!authorization) throw apiError('MissingPermissions');
    return authorization === 'user_install' ? { '1': scene.user.id } : { '0': '0' };
  }
  const { guild, member, channel, installed, commandPermissions, appPermissions } = scene.inGuild;
  const decision = evaluateCommandInvocation({
    app: scene.app,
    command: scene.command,
    commandPermissions,
    appPermissions,
    guild,
    member,
    user: scene.user,
    channel,
    installed,
  });
  const owners: Record<string, string> = {};
  if (decision.allowed) owners['0'] = guild.id;
  const userScene = { app: scene.app, guild, member, user: scene.user, channel };
  if (scene.userInstalled && userInstallInvocationAllowed(userScene, scene.command)) owners['1'] = scene.user.id;
  if (Object.keys(owners).length === 0) throw apiError('MissingPermissions');
  return owners;
}

/** The world's messages of the invocation's channel, when the invoker may read them. */
function readableWorldMessages(scene: InvocationScene): ChannelMessage[] {
  if (!scene.inGuild || !mayReadHistory(scene)) return [];
  return scene.inGuild.guild.messages.filter((m) => m.channel_id === scene.channel.id);
}

export class CommandInvocations {
  constructor(private readonly deps: CommandInvocationsDeps) {}

  /** Checks the invocation (a 403 or a 50035 naming the field when refused) and builds its record. */
  async prepare(
    user: User,
    request: InvokeRequest,
    attachments?: Record<string, APIAttachment>,
  ): Promise<PreparedInvocation> {
    const scene = await loadScene(this.deps.store, user, request);
    const owners = authorizingOwners(scene);
    checkTimeout(scene, this.deps.now());
    if (request.data.version !== scene.command.version) throw outdatedCommand(scene);
    return { scene, record: await this.record(scene, owners, request, attachments) };
  }

  /**
   * slashd's own message a MESSAGE command targets, when this user can see it: looked up by id, so
   * that any message of the channel can be targeted and other invocations read no messages at all.
   */
  private async targetedMessage(scene: InvocationScene, request: InvokeRequest): Promise<StoredMessage | null> {
    const targetId = request.data.target_id;
    if (scene.command.definition.type !== CommandType.Message || !isSnowflake(targetId)) return null;
    const message = await this.deps.store.interactions.getMessage(scene.channel.id, targetId);
    return message && messageReadableIn(scene, message) ? message : null;
  }

  /**
   * The world file's messages of the channel as the API left them: a targeted one the API edited is
   * read from its copy (`targetedMessage`), a deleted one is gone. Only the target is looked up.
   */
  private async currentWorldMessages(scene: InvocationScene, request: InvokeRequest): Promise<ChannelMessage[]> {
    const messages = readableWorldMessages(scene);
    const targetId = request.data.target_id;
    if (scene.command.definition.type !== CommandType.Message || !isSnowflake(targetId)) return messages;
    if (!messages.some((m) => m.id === targetId)) return messages;
    const changed = await this.deps.store.interactions.changedWorldMessages(scene.channel.id, [targetId]);
    return changed.length === 0 ? messages : messages.filter((m) => m.id !== targetId);
  }

  /** `attachments`: the files the user attached (ATTACHMENT options), `data.resolved.attachments` by id. */
  private async record(
    invoked: InvocationScene,
    owners: Record<string, string>,
    request: InvokeRequest,
    attachments?: Record<string, APIAttachment>,
  ): Promise<InteractionRecord> {
    const kind = request.type === InteractionType.ApplicationCommandAutocomplete ? 'autocomplete' : 'command';
    // A MESSAGE command may target the world's messages and slashd's own that this user can see.
    const messages: ChannelMessage[] = await this.currentWorldMessages(invoked, request);
    const own = await this.targetedMessage(invoked, request);
    if (own) messages.push(own);
    // Only the users the request can name: never every user of the world (nor every member). The
    // command's own id and version are snowflakes that name no user: looked up, they missed the
    // user cache on every invocation.
    const named = userIdsNamedBy({ ...request.data, id: null, version: null }, messages);
    const users = await this.deps.store.world.getUsers(named);
    const scene = await withNamedMembers(
      this.deps.store,
      invoked,
      users.map((u) => u.id),
    );
    const guild = scene.inGuild?.guild ?? null;
    const checked = checkInvocation(scene.command, request.data, kind, {
      guild: viewableGuild(scene),
      channel: scene.channel,
      messages,
      users,
    });
    if (!checked.ok) throw invalidFormBody(checked.issues);
    const id = this.deps.ids.next();
    const token = makeInteractionToken(scene.app.id, id, randomBytes(32).toString('base64url'));
    const member = scene.inGuild?.member ?? null;
    const owned = await this.deps.store.entitlements.listOwnedEntitlements(
      scene.app.id,
      guild ? [scene.user.id, guild.id] : [scene.user.id],
    );
    const payload = buildInteraction({
      id,
      token,
      kind,
      app: scene.app,
      command: scene.command,
      checked: checked.value,
      user: scene.user,
      guild,
      member,
      channel: scene.channel,
      locale: scene.user.locale,
      messages,
      users,
      authorizingIntegrationOwners: owners,
      context: guild
        ? InteractionContextType.Guild
        : scene.groupDm
          ? InteractionContextType.PrivateChannel
          : InteractionContextType.BotDM,
      // An app not in the guild is what a member without roles is there: @everyone's bits in the channel.
      appPermissions: formatPermissions(
        guild
          ? appChannelPermissions(guild, scene.app.id, scene.channel)
          : scene.groupDm
            ? GROUP_DM_APP_PERMISSIONS
            : BOT_DM_APP_PERMISSIONS,
      ),
      memberPermissions: guild && member ? formatPermissions(channelPermissions(guild, member, scene.channel)) : null,
      entitlements: interactionEntitlements(owned, this.deps.now()),
      ...(attachments ? { attachments } : {}),
    });
    const record: InteractionRecord = {
      id,
      application_id: scene.app.id,
      type: request.type,
      token,
      user_id: scene.user.id,
      guild_id: guild?.id ?? null,
      channel_id: scene.channel.id,
      command_id: scene.command.id,
      command_name: invokedName(scene.command.definition.name, request.data.options),
      command_type: scene.command.definition.type,
      nonce: request.nonce,
      state: 'pending',
      failure_reason: null,
      response: null,
      created_at: this.deps.now(),
      original_message_id: null,
      focused_option: checked.value.focused?.option ?? null,
      activity_instance_id: null,
      payload,
    };
    return record;
  }
}
