/**
 * Where a global command is installed and usable: `integration_types` and `contexts` (
 * docs/v10-behaviour.md#contexts-integration-types-and-locales). Guild commands accept both and store neither (docs/v10-behaviour.md#compatibility-decisions).
 */
import { IntegrationType, InteractionContext } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import {
  APPLICATION_COMMAND_CONTEXT_PRIVATE_CHANNEL_INVALID,
  APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED,
} from '../io/codes.js';
import type { AppTraits, CommandRules } from './context.js';
import { fieldOf, isAbsent, type JsonRecord } from '../io/read.js';
import { INSTALL_LIST_LENGTH_MIN } from './limits.js';
import { readEnumList } from './lists.js';
import { report, type Issues } from '../io/report.js';
import {
  BULK_DEFAULT_CONTEXTS,
  BULK_DEFAULT_INTEGRATION_TYPES,
  INTEGRATION_TYPES,
  INTERACTION_CONTEXTS,
} from './values.js';

export interface InstallFields {
  integration_types: number[] | null;
  contexts: number[] | null;
}

/** Each entry the app does not support is reported at its index. */
function checkSupportedByApp(list: readonly unknown[], path: IssuePath, app: AppTraits, issues: Issues): void {
  list.forEach((entry, index) => {
    if (typeof entry === 'number' && INTEGRATION_TYPES.includes(entry) && !app.integration_types.includes(entry)) {
      report(
        issues,
        [...path, index],
        APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED,
        'The application does not support this integration type',
      );
    }
  });
}

/** PRIVATE_CHANNEL is meaningful only for user-installable commands (v10 API, Context types). */
function checkPrivateChannel(
  list: readonly unknown[],
  path: IssuePath,
  integrationTypes: readonly number[],
  issues: Issues,
): void {
  if (integrationTypes.includes(IntegrationType.UserInstall)) return;
  list.forEach((entry, index) => {
    if (entry === InteractionContext.PrivateChannel) {
      report(
        issues,
        [...path, index],
        APPLICATION_COMMAND_CONTEXT_PRIVATE_CHANNEL_INVALID,
        'PRIVATE_CHANNEL requires USER_INSTALL in integration_types',
      );
    }
  });
}

function defaultIntegrationTypes(rules: CommandRules): number[] {
  return rules.defaults === 'bulk' ? [...BULK_DEFAULT_INTEGRATION_TYPES] : [...rules.app.integration_types];
}

function defaultContexts(rules: CommandRules): number[] | null {
  return rules.defaults === 'bulk' ? [...BULK_DEFAULT_CONTEXTS] : null;
}

/** Defaults apply to what is omitted; what is given is checked against the enums (and on global commands, the app). */
export function readInstallFields(
  record: JsonRecord,
  path: IssuePath,
  rules: CommandRules,
  issues: Issues,
): InstallFields {
  const global = rules.scope === 'global';
  const typesPath = [...path, 'integration_types'];
  const contextsPath = [...path, 'contexts'];
  const rawTypes = fieldOf(record, 'integration_types');
  const rawContexts = fieldOf(record, 'contexts');

  let integrationTypes: number[] | null = global ? defaultIntegrationTypes(rules) : null;
  let typesValid = true;
  if (!isAbsent(rawTypes)) {
    const before = issues.length;
    const given = readEnumList(rawTypes, typesPath, INTEGRATION_TYPES, INSTALL_LIST_LENGTH_MIN, issues);
    if (global && Array.isArray(rawTypes)) checkSupportedByApp(rawTypes, typesPath, rules.app, issues);
    typesValid = issues.length === before;
    if (global && given) integrationTypes = given;
  }

  let contexts: number[] | null = global ? defaultContexts(rules) : null;
  if (!isAbsent(rawContexts)) {
    const given = readEnumList(rawContexts, contextsPath, INTERACTION_CONTEXTS, INSTALL_LIST_LENGTH_MIN, issues);
    if (global && given) {
      contexts = given;
      if (rules.contextsFromClient && typesValid && integrationTypes && Array.isArray(rawContexts)) {
        checkPrivateChannel(rawContexts, contextsPath, integrationTypes, issues);
      }
    }
  }
  return { integration_types: integrationTypes, contexts };
}
