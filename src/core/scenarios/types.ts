/**
 * A scenario: the steps users take against a bot, each followed by what must be observed. This
 * module is the format's one description, for the replay (`slashd test`, `runScenario`) and for
 * whatever writes scenarios (a person in YAML, the console's recorder): a recorder produces a
 * `Scenario` value and writes it as YAML; schemas/scenario.schema.json describes the same shape.
 * docs/testing.md#scenarios shows it in YAML.
 */

/**
 * A value as expected: a literal (a string, number or boolean equals; an object matches when each
 * of its fields does, extra observed fields allowed; a list matches when each expected item matches
 * some observed item), or a matcher for what varies.
 */
export type Expected = string | number | boolean | null | Matcher | Expected[] | { [field: string]: Expected };

/** What varies between runs: ids, timestamps, wording. */
export type Matcher =
  /** The observed string holds this text. */
  | { contains: string }
  /** The observed string matches this regular expression (JavaScript syntax, no flags; run in linear time, so no backreferences or lookarounds). */
  | { matches: string }
  /** Exactly this value, compared whole (objects and lists included: no extra fields allowed). */
  | { equals: unknown }
  /** Anything of this kind: `id` a snowflake, `timestamp` an ISO 8601 time, `value` anything present. */
  | { any: AnyKind };

export type AnyKind = 'id' | 'timestamp' | 'value';

export const MATCHER_KEYS = ['contains', 'matches', 'equals', 'any'] as const;
export const ANY_KINDS: readonly AnyKind[] = ['id', 'timestamp', 'value'];

/** Who acts, and where (a channel by name or id; the guild when several have a channel of that name). */
export interface Actor {
  /** A user of the world, by username or id. */
  as: string;
  /** A channel: its name (`general`, `#general`) or id; default: the previous step's channel. */
  in?: string;
  guild?: string;
}

/** The user types a slash command line (`/weather city:Paris`), as `slashd invoke` reads it. */
export interface InvokeStep extends Actor {
  invoke: string;
  /** A context-menu command's target: a user (name or id) or a message id. */
  target?: string;
}

/** The user uses a component of the last message the bot posted or updated: by custom_id, or by its label. */
export interface ClickStep extends Actor {
  click: string | { custom_id: string } | { label: string };
  /** A select's chosen values. */
  values?: string[];
}

/** The user submits the modal the previous step opened: a value per text input custom_id. */
export interface SubmitStep extends Actor {
  submit: Record<string, string>;
}

/** The user posts a message in the channel. */
export interface PostStep extends Actor {
  post: string;
}

/** The user reacts with an emoji (unicode, or `name:id` for a custom one) to the last message. */
export interface ReactStep extends Actor {
  react: string;
}

/** The user posts a message with a file (a path relative to the scenario file). */
export interface UploadStep extends Actor {
  upload: { file: string; content?: string; name?: string };
}

export type Action = InvokeStep | ClickStep | SubmitStep | PostStep | ReactStep | UploadStep;

/** The keys that name a step's action; each step has exactly one. */
export const ACTION_KEYS = ['invoke', 'click', 'submit', 'post', 'react', 'upload'] as const;
export type ActionKind = (typeof ACTION_KEYS)[number];

/** A message seen in the step's channel since the step began (or the clicked message, updated). */
export interface MessageExpectation {
  content?: Expected;
  /** Embeds: each expected embed matches some observed one (title, description, fields, ...). */
  embeds?: Expected;
  components?: Expected;
  /** The author: an application's or user's name, or an id. */
  author?: Expected;
  /** Any other field of the v10 message object. */
  [field: string]: Expected | undefined;
}

/** What must be seen after a step; each expectation has exactly one of these keys. */
export type Expectation =
  /** A message anyone in the channel sees. */
  | { message: MessageExpectation }
  /** An ephemeral answer (flag 64): the acting user sees it, another member of the channel does not. */
  | { ephemeral: MessageExpectation }
  /** The step was refused: the HTTP status and v10 error code, or the interaction failed for this reason. */
  | { refusal: { status?: number; code?: number; reason?: string } }
  /** The modal the step opened. */
  | { modal: { title?: Expected; custom_id?: Expected; components?: Expected } }
  /** A member's roles (names or ids) after the step: `has` each of, `lacks` each of. */
  | { member: { user: string; guild?: string; has?: string[]; lacks?: string[] } }
  /** A gateway event the bot under test received since the step began. */
  | { event: { type: string; data?: Expected } };

export const EXPECTATION_KEYS = ['message', 'ephemeral', 'refusal', 'modal', 'member', 'event'] as const;
export type ExpectationKind = (typeof EXPECTATION_KEYS)[number];

export type Step = Action & {
  /** A name for the report; default: the action in words. */
  name?: string;
  /** The longest wait for each expectation of this step, in ms (default: the scenario's). */
  timeout?: number;
  expect?: Expectation[];
};

export interface Scenario {
  name?: string;
  /**
   * The starting world: a world file (a path relative to the scenario file, docs/world.md), or
   * `{ snapshot: id }` (one taken through the admin API). Default: the state once the bot was ready.
   */
  world?: string | { snapshot: string };
  /** The application under test, by name or id (default: the world's first). */
  application?: string;
  /** The longest wait for each expectation, in ms (default DEFAULT_EXPECTATION_TIMEOUT_MS). */
  timeout?: number;
  steps: Step[];
}

/** The wait for one expectation by default, in ms: beyond v10's 3 s answer deadline. */
export const DEFAULT_EXPECTATION_TIMEOUT_MS = 5_000;

/** The kind of a step's action: the one action key it holds. */
export function actionKind(step: Action): ActionKind {
  return ACTION_KEYS.find((key) => Object.hasOwn(step, key))!;
}

/** The kind of an expectation: its one key. */
export function expectationKind(expectation: Expectation): ExpectationKind {
  return EXPECTATION_KEYS.find((key) => Object.hasOwn(expectation, key))!;
}
