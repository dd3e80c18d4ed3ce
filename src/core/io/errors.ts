/**
 * The one table of errors slashd answers with (like Fastify's lib/errors.js): every v10 error body
 * `{code, message}` and its HTTP status, by name. Code throws `apiError('UnknownChannel')`; nothing
 * else builds an `ApiError`, so a status, code or message is written once. docs/errors.md lists this
 * table and test/error-registry.test.ts keeps the two equal.
 */
import { formErrorTree, type Issue } from './issue.js';

export interface ErrorSpec {
  readonly status: number;
  /** The numeric JSON code of the body (0 for a general HTTP error). */
  readonly code: number;
  /** The body's message; `{name}` placeholders are filled from the `params` of `apiError`. */
  readonly message: string;
}

export const ERRORS = {
  // General HTTP errors: code 0, the message names the status.
  BadRequest: { status: 400, code: 0, message: '400: Bad Request' },
  BodyIdMismatch: { status: 400, code: 0, message: 'The id in the body differs from the id in the path' },
  Unauthorized: { status: 401, code: 0, message: '401: Unauthorized' },
  NotFound: { status: 404, code: 0, message: '404: Not Found' },
  /** v10's CDN answer to an attachment URL whose signature is expired or wrong, or whose file is gone. */
  ContentNoLongerAvailable: { status: 404, code: 0, message: 'This content is no longer available.' },
  MethodNotAllowed: { status: 405, code: 0, message: '405: Method Not Allowed' },
  /** A path no route serves, named without its ids and tokens (src/core/v10-routes/describe.ts). */
  UnservedRoute: { status: 404, code: 0, message: '404: Not Found (slashd does not serve {route})' },
  /** An API path that is no v10 route either (or a method v10 does not serve there). */
  UnservedNonV10Route: {
    status: 404,
    code: 0,
    message: '404: Not Found (slashd does not serve {route}, and neither does v10)',
  },
  /** A method v10 serves on a path where slashd serves others. */
  UnservedMethod: { status: 405, code: 0, message: '405: Method Not Allowed (slashd does not serve {route})' },
  BatchEditDisabled: {
    status: 405,
    code: 0,
    message: 'Batch editing application command permissions is disabled; edit them per command.',
  },
  RequestTimeout: { status: 408, code: 0, message: '408: Request Timeout' },
  TooLarge: { status: 413, code: 0, message: 'Request entity too large' },
  /** An upload past v10's file or request size limit (`src/core/attachments/limits.ts`). */
  UploadTooLarge: { status: 413, code: 40005, message: 'Request entity too large' },
  /** A Host slashd does not answer to (DNS rebinding; docs/security.md#host-names); `{host}` is quoted or a phrase. */
  MisdirectedRequest: {
    status: 421,
    code: 0,
    message: '421: Misdirected Request (slashd does not answer to the host {host}: allow it with --allowed-hosts)',
  },
  HeaderFieldsTooLarge: { status: 431, code: 0, message: '431: Request Header Fields Too Large' },
  /** Any other 4xx status Fastify reports; `statusError` fills in the status and its reason phrase. */
  ClientError: { status: 400, code: 0, message: '{status}: {reason}' },
  InternalServerError: { status: 500, code: 0, message: '500: Internal Server Error' },
  /** A request that reaches a node while it drains (SIGTERM): sent with `Connection: close`, to be retried elsewhere. */
  ShuttingDown: { status: 503, code: 0, message: 'The server is shutting down; send the request again' },
  /** A dependency (the database, Redis) refused, stalled or timed out, the request's deadline passed, or the node is draining. */
  ServiceUnavailable: { status: 503, code: 0, message: '503: Service Unavailable' },

  // Snapshots of the admin API (slashd's own, not v10): code 0.
  UnknownSnapshot: { status: 404, code: 0, message: 'Unknown snapshot' },
  MaxSnapshots: { status: 400, code: 0, message: 'Maximum number of snapshots reached ({limit}); delete one first' },
  NoStartSnapshot: {
    status: 400,
    code: 0,
    message: 'No start-up snapshot to reset to: start slashd with --snapshot-at-start, or send the world to reset to',
  },

  // Unknown objects: 404.
  UnknownApplication: { status: 404, code: 10002, message: 'Unknown Application' },
  UnknownChannel: { status: 404, code: 10003, message: 'Unknown Channel' },
  UnknownGuild: { status: 404, code: 10004, message: 'Unknown Guild' },
  UnknownMember: { status: 404, code: 10007, message: 'Unknown Member' },
  UnknownMessage: { status: 404, code: 10008, message: 'Unknown Message' },
  UnknownUser: { status: 404, code: 10013, message: 'Unknown User' },
  // v10 answers an emoji it does not know (or cannot read) with 400, not 404.
  UnknownEmoji: { status: 400, code: 10014, message: 'Unknown Emoji' },
  UnknownSticker: { status: 404, code: 10060, message: 'Unknown Sticker' },
  UnknownStickerPack: { status: 404, code: 10061, message: 'Unknown Sticker Pack' },
  UnknownBan: { status: 404, code: 10026, message: 'Unknown Ban' },
  /** An invite that never was, was deleted, expired or was used up. */
  UnknownInvite: { status: 404, code: 10006, message: 'Unknown Invite' },
  /** A SKU the application does not have. */
  UnknownSku: { status: 404, code: 10027, message: 'Unknown SKU' },
  /** An entitlement of no one, or of another application. */
  UnknownEntitlement: { status: 404, code: 10029, message: 'Unknown Entitlement' },
  /** An Activity instance the application never launched (or another application's). */
  UnknownActivityInstance: { status: 404, code: 10082, message: 'Unknown Activity Instance' },
  UnknownOverwrite: { status: 404, code: 10009, message: 'Unknown Overwrite' },
  UnknownRole: { status: 404, code: 10011, message: 'Unknown Role' },
  UnknownWebhook: { status: 404, code: 10015, message: 'Unknown Webhook' },
  UnknownScheduledEvent: { status: 404, code: 10070, message: 'Unknown Guild Scheduled Event' },
  /** A rule of no guild the path names (v10 answers a rule's id of another guild alike). */
  UnknownAutoModerationRule: { status: 404, code: 10066, message: 'Unknown auto moderation rule' },
  UnknownInteraction: { status: 404, code: 10062, message: 'Unknown interaction' },
  UnknownApplicationCommand: { status: 404, code: 10063, message: 'Unknown application command' },
  UnknownApplicationCommandPermissions: {
    status: 404,
    code: 10066,
    message: 'Unknown application command permissions',
  },

  // Refusals.
  BotsCannotUseEndpoint: { status: 403, code: 20001, message: 'Bots cannot use this endpoint' },
  NotAuthorizedForApplication: {
    status: 403,
    code: 20012,
    message: 'You are not authorized to perform this action on this application',
  },
  MissingAccess: { status: 403, code: 50001, message: 'Missing Access' },
  /** A bot's DM to a user it shares no guild with (docs/decisions.md, "DMs"). */
  CannotMessageUser: { status: 403, code: 50007, message: 'Cannot send messages to this user' },
  CannotEditOtherUsersMessage: { status: 403, code: 50005, message: 'Cannot edit a message authored by another user' },
  MissingPermissions: { status: 403, code: 50013, message: 'Missing Permissions' },
  /** A member write (the admin API) naming a user banned from the guild. */
  UserBanned: { status: 403, code: 40007, message: 'The user is banned from this guild.' },
  /** A bulk ban that banned no one: v10's code, with a 4xx status as its OpenAPI document lists (docs/decisions.md, "Bans"). */
  BulkBanFailed: { status: 400, code: 500000, message: 'Failed to ban users.' },
  /** A thread started from a message that already has one. */
  ThreadAlreadyCreated: { status: 400, code: 160004, message: 'A thread has already been created for this message' },
  /** Posting in (or joining, or adding to) an archived thread. */
  ThreadArchived: { status: 400, code: 50083, message: 'Operation is not allowed on an archived thread' },
  /** Posting in a locked thread without MANAGE_THREADS. */
  ThreadLocked: { status: 403, code: 160005, message: 'Thread is locked' },
  /** A thread asked for in a channel that holds none (a voice channel, a category, a thread). */
  WrongChannelType: { status: 400, code: 50024, message: 'Cannot execute action on this channel type' },
  /** A member edit naming a voice channel: no one is ever connected to voice in slashd (docs/decisions.md, "Members"). */
  TargetNotInVoice: { status: 400, code: 40032, message: 'Target user is not connected to voice.' },
  MissingOAuth2Scope: { status: 403, code: 50026, message: 'Missing required OAuth2 scope' },
  /** An access token in a body (`PUT /guilds/{g}/members/{u}`) that is not the app's for that user. */
  InvalidOAuth2Token: { status: 403, code: 50025, message: 'Invalid OAuth2 access token' },
  /** A crosspost of a message published before (it carries CROSSPOSTED). */
  MessageAlreadyCrossposted: { status: 400, code: 40033, message: 'This message has already been crossposted.' },
  /** A crosspost of a message that is not a user's or bot's own post (a system message, a crosspost copy). */
  InvalidMessageType: { status: 400, code: 50068, message: 'Invalid message type' },
  /** The owner leaving their own guild (v10 answers it so). */
  InvalidGuild: { status: 400, code: 50055, message: 'Invalid Guild' },
  BulkDeleteTooOld: {
    status: 400,
    code: 50034,
    message: 'You can only bulk delete messages that are under 14 days old',
  },
  InvalidWebhookToken: { status: 401, code: 50027, message: 'Invalid Webhook Token' },
  /** A vote on a poll that has ended, or ending one again (docs/v10-behaviour.md#polls). */
  PollExpired: { status: 400, code: 520001, message: 'Poll expired' },
  /** An edit carrying a `poll`: a poll is made with its message and never changed. */
  CannotEditAPollMessage: { status: 400, code: 520003, message: 'Cannot edit a poll message' },
  /** `POST …/polls/{m}/expire` on a message without a poll. */
  CannotExpireANonPollMessage: { status: 400, code: 520006, message: 'Cannot expire a non-poll message' },

  // Limits and state.
  MaxPins: { status: 400, code: 30003, message: 'Maximum number of pins reached ({limit})' },
  MaxWebhooks: { status: 400, code: 30007, message: 'Maximum number of webhooks reached ({limit})' },
  /** A guild's emoji slots of one kind (static or animated) at its boost level are full. */
  MaxEmojis: { status: 400, code: 30008, message: 'Maximum number of emojis reached ({limit})' },
  /** A guild's sticker slots at its boost level are full. */
  MaxStickers: { status: 400, code: 30039, message: 'Maximum number of stickers reached ({limit})' },
  MaxReactions: { status: 400, code: 30010, message: 'Maximum number of reactions reached ({limit})' },
  MaxGuildRoles: { status: 400, code: 30005, message: 'Maximum number of guild roles reached ({limit})' },
  MaxScheduledEvents: {
    status: 400,
    code: 30038,
    message: 'Maximum number of uncompleted guild scheduled events reached ({limit})',
  },
  /** Completed and canceled events take no edit and no new interested user (v10). */
  CannotUpdateFinishedEvent: { status: 400, code: 180002, message: 'Cannot update a finished event' },
  /** A user's message an auto moderation rule blocked; `custom_message` (slashd's) carries the rule's text, for the client to show. */
  MessageBlockedByAutoModeration: { status: 400, code: 200000, message: 'Message was blocked by automatic moderation' },
  MaxGuildChannels: { status: 400, code: 30013, message: 'Maximum number of guild channels reached ({limit})' },
  MaxInvites: { status: 400, code: 30016, message: 'Maximum number of invites reached ({limit})' },
  /** Accepting an invite of a guild whose invites are paused (its INVITES_DISABLED feature). */
  InvitesDisabled: { status: 403, code: 40006, message: 'This feature has been temporarily disabled server-side' },
  /** Creating or unarchiving a thread in a guild at its cap of active threads. */
  MaxActiveThreads: { status: 400, code: 160006, message: 'Maximum number of active threads reached ({limit})' },
  WebhookForumPostNeedsThread: {
    status: 400,
    code: 220001,
    message: 'Webhooks posted to forum channels must have a thread_name or thread_id',
  },
  /** Deleting @everyone, or moving it (docs/decisions.md, "Roles and channels"). */
  InvalidRole: { status: 400, code: 50028, message: 'Invalid Role' },
  /** A message's `sticker_ids` names a sticker that is neither the guild's nor a standard one. */
  InvalidSticker: { status: 400, code: 50081, message: 'Invalid sticker sent' },
  MaxApplicationCommands: {
    status: 400,
    code: 30032,
    message: 'Maximum number of application commands reached ({limit})',
  },
  /** Carries `retry_after` (seconds until the day ends, UTC) and `global: false`. */
  MaxDailyApplicationCommandCreates: {
    status: 429,
    code: 30034,
    // v10's message, then slashd's hint: how to lift the limit or start it afresh.
    message:
      'Max number of daily application command creates has been reached ({limit}) (slashd: `slashd serve --daily-command-creates N` or `off` lifts it; DELETE /admin/applications/{application}/command-creates resets it)',
  },
  /** A channel's slowmode holds the sender; carries `retry_after` (seconds) and `global: false`. */
  SlowmodeRateLimited: { status: 429, code: 20016, message: 'Slowmode rate limit' },
  /** A v10 rate limit (docs/rate-limits.md); carries `retry_after` (seconds) and `global`. */
  RateLimited: { status: 429, code: 0, message: 'You are being rate limited.' },
  TooManyStreams: { status: 429, code: 0, message: 'Too many live streams are open for this user' },
  ApplicationCommandNameExists: {
    status: 400,
    code: 40041,
    message: 'An application command with that name already exists',
  },
  InteractionAlreadyAcknowledged: { status: 400, code: 40060, message: 'Interaction has already been acknowledged.' },
  CannotRemoveEntryPoint: {
    status: 400,
    code: 50240,
    message:
      "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
  },

  // Bodies.
  CannotSendEmptyMessage: { status: 400, code: 50006, message: 'Cannot send an empty message' },
  CannotSendInNonTextChannel: { status: 400, code: 50008, message: 'Cannot send messages in a non-text channel' },
  /** Carries the issue tree as `errors` (docs/errors.md#codes). */
  InvalidFormBody: { status: 400, code: 50035, message: 'Invalid Form Body' },
  InvalidApiVersion: { status: 400, code: 50041, message: 'Invalid API version' },
  InvalidJson: { status: 400, code: 50109, message: 'The request body contains invalid JSON.' },

  // Injected faults (/admin/faults, docs/faults.md): the statuses a `server_error` fault answers
  // with, worded so that neither a client's developer nor `statusError` mistakes them for real ones.
  InjectedInternalServerError: { status: 500, code: 0, message: 'Injected fault: 500 Internal Server Error' },
  InjectedBadGateway: { status: 502, code: 0, message: 'Injected fault: 502 Bad Gateway' },
  InjectedServiceUnavailable: { status: 503, code: 0, message: 'Injected fault: 503 Service Unavailable' },
  InjectedGatewayTimeout: { status: 504, code: 0, message: 'Injected fault: 504 Gateway Timeout' },
  /** The fault table, or the application's share of it, is full (src/core/faults/limits.ts). */
  FaultTableFull: { status: 400, code: 0, message: 'The fault table is full; remove faults or let them expire' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorName = keyof typeof ERRORS;

/**
 * A failure that maps to one v10 error response; built only by the functions below. It carries no
 * stack: it is an answer, not a fault (its kind says where it came from), and capturing a stack was
 * the largest single cost of a 429 (docs/benchmarks.md, issue 27), the path an abusive client drives.
 */
export class ApiError extends Error {
  constructor(
    /** The entry of the table this error was built from. */
    readonly kind: ErrorName,
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
    /** Extra top-level fields of the body (e.g. `retry_after`). */
    readonly extra?: Record<string, unknown>,
  ) {
    const stackFrames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackFrames;
    this.name = 'ApiError';
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { message: this.message, code: this.code };
    if (this.errors) body.errors = this.errors;
    if (this.extra) Object.assign(body, this.extra);
    return body;
  }
}

export interface ApiErrorOptions {
  /** Values for the `{name}` placeholders of the message. */
  readonly params?: Readonly<Record<string, string | number>>;
  /** The 50035 error tree. */
  readonly errors?: Record<string, unknown>;
  /** Extra top-level fields of the body. */
  readonly extra?: Record<string, unknown>;
}

function fill(template: string, params: Readonly<Record<string, string | number>> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    params && key in params ? String(params[key]) : whole,
  );
}

export function apiError(name: ErrorName, options: ApiErrorOptions = {}): ApiError {
  const spec: ErrorSpec = ERRORS[name];
  return new ApiError(name, spec.status, spec.code, fill(spec.message, options.params), options.errors, options.extra);
}

/** 50035 with every issue in its tree; `extra` adds top-level fields (e.g. a command's current version). */
export function invalidFormBody(issues: readonly Issue[], extra?: Record<string, unknown>): ApiError {
  return apiError(
    'InvalidFormBody',
    extra ? { errors: formErrorTree(issues), extra } : { errors: formErrorTree(issues) },
  );
}

/**
 * A general error for an HTTP status (code 0): the table's entry for that status when it has one,
 * otherwise ClientError (4xx) or InternalServerError, worded `{status}: {reason}`.
 */
export function statusError(status: number, reason: string | undefined): ApiError {
  const named = (Object.keys(ERRORS) as ErrorName[]).find(
    (name) =>
      ERRORS[name].code === 0 && ERRORS[name].status === status && ERRORS[name].message.startsWith(`${status}:`),
  );
  if (named) return apiError(named);
  if (status < 400 || status >= 500) return apiError('InternalServerError');
  const error = apiError('ClientError', { params: { status, reason: reason ?? 'Client Error' } });
  return new ApiError('ClientError', status, error.code, error.message);
}
