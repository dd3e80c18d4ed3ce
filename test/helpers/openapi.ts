/**
 * The public v10 OpenAPI document (test/fixtures/openapi/openapi.json, MIT) as a schema oracle for tests,
 * with the relaxations of the docs/v10-behaviour.md#the-openapi-document, where the documentation wins over the document:
 * - `_errors[].code` is a string in real responses (the document says integer);
 * - 429 bodies may omit `code`;
 * - `default_member_permissions` is a decimal string (the document's requests say integer);
 * - string choice values are at most 100 characters (the document says 6000);
 * - the locale enum is the 32 supported locales (the document adds `ar` and `he`).
 * One more, documented here: a 50035 tree node may hold `_errors` and child keys at once (the
 * document's `ErrorDetails` allows only one or the other). And two of entitlements: their `type` is
 * any of the documentation's types (1 purchase to 8 application subscription; the document lists
 * only 8 and 10), and a guild's entitlement carries `guild_id` instead of `user_id`.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;
export type WireJson = Record<string, any>;

// ajv and ajv-formats are CommonJS: under NodeNext their default import is module.exports.
const Ajv2020 = (Ajv2020Module as unknown as { default: typeof Ajv2020Module.default }).default;
const addFormats = addFormatsModule.default;

/** The repository root: the first directory above this file that holds a package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('no package.json above the test helpers');
    dir = parent;
  }
}

/** A file the tests keep in `test/fixtures/` (the repository needs nothing beside it). */
export function fixturePath(...segments: string[]): string {
  return join(repoRoot(), 'test', 'fixtures', ...segments);
}

export const SUPPORTED_LOCALES = [
  'id',
  'da',
  'de',
  'en-GB',
  'en-US',
  'es-ES',
  'es-419',
  'fr',
  'hr',
  'it',
  'lt',
  'hu',
  'nl',
  'no',
  'pl',
  'pt-BR',
  'ro',
  'fi',
  'sv-SE',
  'vi',
  'tr',
  'cs',
  'el',
  'bg',
  'ru',
  'uk',
  'hi',
  'th',
  'zh-CN',
  'ja',
  'zh-TW',
  'ko',
] as const;

const DOCUMENT_ID = 'https://slashd.test/openapi.json';

function schemaOf(schemas: Json, name: string): Json {
  const schema = schemas[name];
  if (!schema || typeof schema !== 'object') throw new Error(`openapi.json has no schema ${name}`);
  return schema as Json;
}

/** Applies `fn` to every object in the tree (pre-order). */
function walk(value: unknown, fn: (node: Json) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, fn);
  } else if (value && typeof value === 'object') {
    fn(value as Json);
    for (const child of Object.values(value)) walk(child, fn);
  }
}

function relax(components: Json): void {
  const schemas = components.schemas as Json;

  // `_errors[].code` is a string code in real responses.
  schemas.FormErrorItem = {
    type: 'object',
    properties: { code: { type: ['string', 'integer'] }, message: { type: 'string' } },
    required: ['code', 'message'],
  };
  const inner = schemaOf(schemas, 'InnerErrors');
  (inner.properties as Json)._errors = { type: 'array', items: { $ref: '#/components/schemas/FormErrorItem' } };
  // A node may carry its own `_errors` next to child keys.
  schemas.ErrorDetails = {
    type: 'object',
    minProperties: 1,
    properties: { _errors: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/FormErrorItem' } } },
    additionalProperties: { $ref: '#/components/schemas/ErrorDetails' },
  };

  // 429 bodies may omit `code`.
  schemas.RatelimitedResponse = {
    type: 'object',
    properties: {
      code: { type: 'integer' },
      message: { type: 'string' },
      retry_after: { type: 'number' },
      global: { type: 'boolean' },
    },
    required: ['message', 'retry_after', 'global'],
  };

  // `default_member_permissions`: a decimal string (both accepted in requests), or null.
  walk(components, (node) => {
    const props = node.properties as Json | undefined;
    const dmp = props?.default_member_permissions as Json | undefined;
    if (dmp && Array.isArray(dmp.type) && dmp.type.includes('integer')) {
      props!.default_member_permissions = {
        anyOf: [{ type: 'string', pattern: '^[0-9]+$' }, { type: 'integer', minimum: 0 }, { type: 'null' }],
      };
    }
  });

  // String choice values: at most 100 characters.
  for (const name of ['ApplicationCommandOptionStringChoice', 'ApplicationCommandOptionStringChoiceResponse']) {
    const value = (schemaOf(schemas, name).properties as Json).value as Json;
    value.maxLength = 100;
  }

  // Entitlement types: the documentation's (the document lists 8 and 10 only); a guild's has no user_id.
  schemas.EntitlementTypes = { type: 'integer', enum: [1, 2, 3, 4, 5, 6, 7, 8, 10] };
  const entitlement = schemaOf(schemas, 'EntitlementResponse');
  entitlement.required = (entitlement.required as string[]).filter((field) => field !== 'user_id');

  // Locales: the 32 of the docs/v10-behaviour.md#contexts-integration-types-and-locales.
  schemas.AvailableLocalesEnum = { type: 'string', enum: [...SUPPORTED_LOCALES] };
}

let ajvInstance: InstanceType<typeof Ajv2020> | null = null;
const validators = new Map<string, ValidateFunction>();

function ajv(): InstanceType<typeof Ajv2020> {
  if (ajvInstance) return ajvInstance;
  const document = JSON.parse(readFileSync(fixturePath('openapi', 'openapi.json'), 'utf8')) as Json;
  const components = document.components as Json;
  relax(components);
  const instance = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(instance);
  instance.addFormat('snowflake', /^(0|[1-9][0-9]*)$/);
  instance.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  instance.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  instance.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  instance.addFormat('nonce', true);
  // Only the components: the paths are not needed and would only slow compilation down.
  instance.addSchema({ $id: DOCUMENT_ID, components });
  ajvInstance = instance;
  return instance;
}

function validatorFor(name: string): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    const instance = ajv();
    validate = instance.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${name}` });
    validators.set(name, validate);
  }
  return validate;
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 30)
    .map((e) => `  ${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)} [${e.schemaPath}]`)
    .join('\n');
}

/** Throws an AssertionError listing Ajv's errors unless `value` matches the named schema. */
export function assertMatchesSchema(name: string, value: unknown): void {
  const validate = validatorFor(name);
  if (validate(value)) return;
  const shown = JSON.stringify(value);
  assert.fail(
    `value does not match OpenAPI schema ${name}:\n${describe(validate.errors)}\nvalue: ${
      shown !== undefined && shown.length > 2000 ? `${shown.slice(0, 2000)}...` : shown
    }`,
  );
}

/** True when `value` matches the named schema (for tests of the helper itself). */
export function matchesSchema(name: string, value: unknown): boolean {
  return validatorFor(name)(value);
}

/** Every command of a response (one command or a list) against ApplicationCommandResponse. */
export function assertCommandResponse(value: unknown): void {
  if (Array.isArray(value)) {
    for (const command of value) assertMatchesSchema('ApplicationCommandResponse', command);
  } else {
    assertMatchesSchema('ApplicationCommandResponse', value);
  }
}

/** A v10 error body: ErrorResponse, or RatelimitedResponse for 429. */
export function assertErrorBody(status: number, body: unknown): void {
  assertMatchesSchema(status === 429 ? 'RatelimitedResponse' : 'ErrorResponse', body);
}

// ---- the v10 command object, beyond what the schema requires ---------------------------------

const COMMAND_KEYS = new Set([
  'id',
  'application_id',
  'version',
  'default_member_permissions',
  'type',
  'name',
  'name_localized',
  'name_localizations',
  'description',
  'description_localized',
  'description_localizations',
  'guild_id',
  'dm_permission',
  'contexts',
  'integration_types',
  'options',
  'nsfw',
  'handler',
  'default_permission',
]);

const SNOWFLAKE = /^(0|[1-9][0-9]{0,19})$/;

export interface WireCommandExpectation {
  applicationId: string;
  /** null: a global command. */
  guildId: string | null;
  /** 'full' (single-command and bulk responses, dictionaries) or 'list' (localized view). */
  view?: 'full' | 'list';
}

/**
 * A command exactly as v10 returns it ("Commands endpoints"): the schema, plus every documented
 * field present, `default_member_permissions` null or a decimal string, `description: ""` on USER
 * and MESSAGE commands, `contexts`/`integration_types` on global commands, ids and versions as
 * snowflake strings, and nothing that v10 does not return.
 */
export function assertWireCommand(value: unknown, expected: WireCommandExpectation): asserts value is WireJson {
  assertMatchesSchema('ApplicationCommandResponse', value);
  const c = value as Json;
  const label = `command ${JSON.stringify(c.name)}`;
  for (const key of Object.keys(c)) assert.ok(COMMAND_KEYS.has(key), `${label}: unexpected field ${key}`);
  for (const key of ['id', 'application_id', 'version']) {
    assert.equal(typeof c[key], 'string', `${label}: ${key} is a string`);
    assert.match(c[key] as string, SNOWFLAKE, `${label}: ${key} is a snowflake`);
  }
  assert.equal(c.application_id, expected.applicationId, `${label}: application_id`);
  for (const key of ['default_member_permissions', 'type', 'name', 'description', 'version', 'nsfw']) {
    assert.ok(key in c, `${label}: ${key} present`);
  }
  assert.ok(
    c.default_member_permissions === null ||
      (typeof c.default_member_permissions === 'string' && /^[0-9]+$/.test(c.default_member_permissions)),
    `${label}: default_member_permissions is null or a decimal string`,
  );
  assert.equal(typeof c.nsfw, 'boolean', `${label}: nsfw is a boolean`);
  if ((expected.view ?? 'full') === 'full') {
    assert.ok('name_localizations' in c, `${label}: name_localizations present`);
    assert.ok('description_localizations' in c, `${label}: description_localizations present`);
  }
  if (c.type === 2 || c.type === 3) {
    assert.equal(c.description, '', `${label}: USER and MESSAGE commands have description ""`);
    assert.ok(c.options === undefined || (Array.isArray(c.options) && c.options.length === 0), `${label}: no options`);
  }
  if (expected.guildId === null) {
    assert.equal(c.guild_id, undefined, `${label}: a global command has no guild_id`);
    assert.ok('contexts' in c, `${label}: contexts present on a global command`);
    assert.ok(Array.isArray(c.integration_types), `${label}: integration_types present on a global command`);
  } else {
    assert.equal(c.guild_id, expected.guildId, `${label}: guild_id`);
  }
}

/** Every command of a list. */
export function assertWireCommands(value: unknown, expected: WireCommandExpectation): asserts value is WireJson[] {
  assert.ok(Array.isArray(value), 'a list of commands');
  for (const command of value) assertWireCommand(command, expected);
}

// ---- every response of a test server, checked --------------------------------------------------

const COMMAND_ROUTE = /^\/applications\/[^/]+(?:\/guilds\/[^/]+)?\/commands(?:\/[^/]+)?$/;
const PERMISSIONS_ROUTE = /^\/applications\/[^/]+\/guilds\/[^/]+\/commands(?:\/[^/]+)?\/permissions$/;
const APPLICATION_ROUTES = new Set(['/applications/@me', '/oauth2/applications/@me']);

/**
 * Checks one response against the schema its route promises: commands (ApplicationCommandResponse),
 * command permissions (CommandPermissionsResponse, each of a list),
 * `/users/@me` (UserPIIResponse), the current application (PrivateApplicationResponse), and every
 * error (ErrorResponse; RatelimitedResponse for 429). The OAuth2 token endpoint has OAuth2's own
 * error shape and is left to its tests. `path` is a full URL or a path under /api/v10.
 */
export function assertResponseMatchesSchema(
  path: string,
  response: { status: number; body: unknown; text?: string },
): void {
  const pathname = path.startsWith('http') ? new URL(path).pathname : `/api/v10${path.split('?')[0]}`;
  const api = /^\/api\/v(?:9|10)(\/.*)$/.exec(pathname)?.[1];
  if (api?.startsWith('/oauth2/token')) return;
  if (response.status >= 400) {
    assertErrorBody(response.status, response.body);
    return;
  }
  if (api === undefined || response.body === undefined) return;
  if (PERMISSIONS_ROUTE.test(api)) {
    for (const object of Array.isArray(response.body) ? response.body : [response.body]) {
      assertMatchesSchema('CommandPermissionsResponse', object);
    }
  } else if (COMMAND_ROUTE.test(api)) assertCommandResponse(response.body);
  else if (api === '/users/@me') assertMatchesSchema('UserPIIResponse', response.body);
  else if (APPLICATION_ROUTES.has(api)) assertMatchesSchema('PrivateApplicationResponse', response.body);
}

type Requester = (method: string, path: string, options?: any) => Promise<{ status: number; body: any; text: string }>;

/** The same server, whose `request` checks every response with `assertResponseMatchesSchema`. */
export function withSchemaChecks<T extends { request: Requester }>(server: T): T {
  const request = server.request.bind(server);
  const checked: Requester = async (method, path, options) => {
    const response = await request(method, path, options);
    try {
      assertResponseMatchesSchema(path, response);
    } catch (error) {
      (error as Error).message = `${method} ${path} -> ${response.status}: ${(error as Error).message}`;
      throw error;
    }
    return response;
  };
  return { ...server, request: checked };
}

let documentPaths: Json | null = null;

/** A schema of the document's paths with its `#/components/...` references pointed at the compiled document. */
function withDocumentRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withDocumentRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? [key, `${DOCUMENT_ID}${value}`]
        : [key, withDocumentRefs(value)],
    ),
  );
}

/**
 * Throws unless `value` matches what the document's operation `method template` (e.g. `POST`,
 * `/channels/{channel_id}/webhooks`) says of its JSON request body (`'request'`) or of its answer
 * with `status`: for operations whose schemas are written inline rather than named. A form's
 * fields (`multipart/form-data` as `mediaType`) are checked as an object of its parts.
 */
export function assertMatchesOperation(
  method: string,
  template: string,
  part: 'request' | number,
  value: unknown,
  mediaType = 'application/json',
): void {
  documentPaths ??= (JSON.parse(readFileSync(fixturePath('openapi', 'openapi.json'), 'utf8')) as Json).paths as Json;
  const operation = ((documentPaths[template] as Json | undefined)?.[method.toLowerCase()] ?? null) as Json | null;
  assert.ok(operation, `the document has no ${method} ${template}`);
  const content = (
    part === 'request'
      ? (operation.requestBody as Json | undefined)?.content
      : ((operation.responses as Json)[String(part)] as Json | undefined)?.content
  ) as Json | undefined;
  const schema = (content?.[mediaType] as Json | undefined)?.schema;
  assert.ok(schema, `the document gives ${method} ${template} no ${mediaType} schema for ${part}`);
  const key = `${method} ${template} ${part} ${mediaType}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv().compile(withDocumentRefs(schema) as Json);
    validators.set(key, validate);
  }
  if (validate(value)) return;
  assert.fail(
    `value does not match ${key}:\n${describe(validate.errors)}\nvalue: ${JSON.stringify(value).slice(0, 2000)}`,
  );
}
