/**
 * The one place an explanation (explain.ts) becomes words: the endpoint sends this text next to the
 * data, so the console and any other reader show the same sentence. English only, addressed to
 * the member the explanation is for ("you").
 */
import { AccessReason } from './engine.js';
import type {
  CommandExplanation,
  ExplainedOverwrite,
  ExplanationReason,
  NamedEntity,
  VerdictValue,
} from './explain.js';
import { InvocationReason } from './invocation.js';
import { UserInstallReason } from './user-install.js';

const VERDICT_WORDS: Readonly<Record<VerdictValue, string>> = {
  shown: 'Shown',
  hidden: 'Hidden',
  refused: 'Refused',
};

const CONTEXT_NAMES: Readonly<Record<number, string>> = { 0: 'GUILD', 1: 'BOT_DM', 2: 'PRIVATE_CHANNEL' };
const INTEGRATION_TYPE_NAMES: Readonly<Record<number, string>> = { 0: 'GUILD_INSTALL', 1: 'USER_INSTALL' };
/** The places a user install's reason is about, by interaction context. */
const PLACE_NAMES: Readonly<Record<number, string>> = { 0: 'servers', 1: 'DMs with the bot', 2: 'group DMs' };

/** "servers", or with the context's name "servers (GUILD)"; a reason without a context is a group DM's. */
function placeWords(context: number | undefined, named: boolean): string {
  const at = context ?? 2;
  const place = PLACE_NAMES[at] ?? `context ${at}`;
  return named ? `${place} (${CONTEXT_NAMES[at] ?? at})` : place;
}

function channelWords(channel: NamedEntity | undefined): string {
  if (!channel) return 'this channel';
  return channel.name === null ? `channel ${channel.id}` : `#${channel.name}`;
}

function list(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? 'none';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function numbered(values: readonly number[] | undefined, names: Readonly<Record<number, string>>): string {
  return values && values.length > 0 ? list(values.map((value) => names[value] ?? String(value))) : 'none';
}

/** "role Muted", "roles Muted and Quiet", "@everyone", "#general", "All channels", "you (bob)". */
function overwriteSubject(overwrites: readonly ExplainedOverwrite[]): string {
  const first = overwrites[0];
  if (!first) return 'an overwrite';
  switch (first.target) {
    case 'role': {
      const names = [...new Set(overwrites.map((o) => o.name ?? o.id))];
      return `${names.length > 1 ? 'roles' : 'role'} ${list(names)}`;
    }
    case 'everyone':
      return '@everyone';
    case 'channel':
      return `channel #${first.name ?? first.id}`;
    case 'all_channels':
      return 'All channels';
    case 'user':
      return `you (${first.name ?? first.id})`;
  }
}

function overwriteSentence(reason: ExplanationReason, allowed: boolean): string {
  const overwrites = reason.overwrites ?? [];
  const level = overwrites[0]?.level === 'app' ? 'app level' : 'command level';
  const subject = overwriteSubject(overwrites);
  const verb = subject.startsWith('you ') ? (allowed ? 'are allowed' : 'are denied') : allowed ? 'allowed' : 'denied';
  return `${subject} ${verb} at ${level}`;
}

/** The sentence for a reason, without the verdict. */
function reasonWords(reason: ExplanationReason, allowed: boolean): string {
  const missing = list(reason.missing_permissions ?? []);
  const required = list(reason.required_permissions ?? []);
  const where = channelWords(reason.channel);
  switch (reason.kind) {
    case AccessReason.OtherGuild:
      return 'a command of another server';
    case AccessReason.Context:
      return `the command's contexts (${numbered(reason.contexts, CONTEXT_NAMES)}) leave out servers (GUILD)`;
    case AccessReason.IntegrationType:
      return `the command's integration types (${numbered(reason.integration_types, INTEGRATION_TYPE_NAMES)}) leave out server installs (GUILD_INSTALL)`;
    case AccessReason.NotInstalled:
      return 'the app is not installed in this server for commands';
    case AccessReason.EntryPointWithoutActivities:
      return 'an entry point command of an app without Activities';
    case AccessReason.NsfwUser:
      return 'age-restricted command, and you are not age-verified';
    case AccessReason.NsfwChannel:
      return `age-restricted command, and ${where} is not an age-restricted channel`;
    case AccessReason.Owner:
      return 'you own the server: owners use every command';
    case AccessReason.Administrator: {
      const roles = (reason.roles ?? []).map((role) => role.name ?? role.id);
      const from =
        roles.length === 0
          ? 'you have'
          : roles.length === 1
            ? `role ${list(roles)} grants`
            : `roles ${list(roles)} grant`;
      return `${from} ADMINISTRATOR: administrators use every command`;
    }
    case AccessReason.MissingUseApplicationCommands:
      return `you lack ${missing} in ${where}`;
    case AccessReason.DefaultPermissionFalse:
      return 'default_permission is false: administrators only';
    case AccessReason.DefaultMemberPermissionsNull:
      return 'no overwrite applies and the command requires no permission';
    case AccessReason.DefaultMemberPermissionsZero:
      return 'default_member_permissions is "0": administrators only';
    case AccessReason.DefaultMemberPermissionsMet:
      return `you have ${required} in ${where}, which the command requires`;
    case AccessReason.MissingDefaultMemberPermissions:
      return `needs ${required} in ${where} (default_member_permissions); you lack ${missing}`;
    case InvocationReason.MissingSendMessages:
      return `USER commands need ${missing} in ${where}: listed, but using it fails`;
    case InvocationReason.TimedOut:
      return 'you are timed out: a timed-out member uses no command until the timeout ends';
    case UserInstallReason.NotInstalledForUser:
      return 'the app is not installed to your account: its user-install commands do not follow you here';
    case UserInstallReason.IntegrationType:
      return `the command's integration types (${numbered(reason.integration_types, INTEGRATION_TYPE_NAMES)}) leave out user installs (USER_INSTALL)`;
    case UserInstallReason.Context:
      return `the command's contexts (${numbered(reason.contexts, CONTEXT_NAMES)}) leave out ${placeWords(reason.context, true)}`;
    case UserInstallReason.EntryPoint:
      return 'an entry point command of an app without Activities';
    case UserInstallReason.AgeRestricted:
      return 'age-restricted command, and you are not age-verified';
    case UserInstallReason.Allowed:
      return `you installed the app to your account, and the command works in ${placeWords(reason.context, false)}`;
    default:
      return overwriteSentence(reason, allowed);
  }
}

/** "Hidden: role Muted denied at command level." */
export function explanationText(explanation: Pick<CommandExplanation, 'verdict' | 'reason'>): string {
  const words = reasonWords(explanation.reason, explanation.verdict !== 'hidden');
  return `${VERDICT_WORDS[explanation.verdict]}: ${words}.`;
}
