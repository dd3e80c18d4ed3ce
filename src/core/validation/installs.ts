/**
 * Where a global command is installed and usable: `integration_types` and `contexts` (
 * docs/v10-behaviour.md#contexts-integration-types-and-locales). Guild commands accept both and store neither (docs/v10-behaviour.md#compatibility-decisions).
 * PRIVATE_CHANNEL in `contexts` without USER_INSTALL is accepted and stored, and simply has no
 * effect (the documented default `contexts` is `[0,1,2]`, and libraries send it with `[0]`).
 */
import type { IssuePath } from '../io/issue.js';
import { APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED } from '../io/codes.js';
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
  if (!isAbsent(rawTypes)) {
    const given = readEnumList(rawTypes, typesPath, INTEGRATION_TYPES, INSTALL_LIST_LENGTH_MIN, issues);
    if (global && Array.isArray(rawTypes)) checkSupportedByApp(rawTypes, typesPath, rules.app, issues);
    if (global && given) integrationTypes = given;
  }

  let contexts: number[] | null = global ? defaultContexts(rules) : null;
  if (!isAbsent(rawContexts)) {
    const given = readEnumList(rawContexts, contextsPath, INTERACTION_CONTEXTS, INSTALL_LIST_LENGTH_MIN, issues);
    if (global && given) contexts = given;
  }
  return { integration_types: integrationTypes, contexts };
}
