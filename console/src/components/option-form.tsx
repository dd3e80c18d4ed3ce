/**
 * The options of the chosen command: an input fit for each option type, required ones first, the
 * errors shown next to their field before anything is sent, and autocomplete asked of the app
 * (a type 4 interaction) as the user types, debounced.
 */
import { chooseFile } from '../uploads';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formErrors, formOrder, localDescription, localName, type FormValues, type PickerEntry } from '../commands';
import { OptionType, type OptionDef } from '../types';

/** Keystrokes within this long make one autocomplete request. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 250;

export interface Choice {
  name: string;
  value: string | number;
}

export interface FormSources {
  members: { id: string; name: string }[];
  roles: { id: string; name: string }[];
  channels: { id: string; name: string; type: number }[];
}

export interface OptionFormProps {
  entry: PickerEntry;
  sources: FormSources;
  /** The app's choices for the focused option; rejects with a sentence when the app did not answer. */
  autocomplete: (values: FormValues, focused: string) => Promise<Choice[]>;
  /** Sends the command; resolves with a refusal's sentence, or null once sent. */
  send: (values: FormValues) => Promise<string | null>;
  cancel: () => void;
  /** The refusal of a send made before the form opened (a command without options is sent when chosen). */
  refused?: string | null;
}

function fieldId(option: OptionDef): string {
  return `option-${option.name}`;
}

function AutocompleteInput({
  option,
  value,
  invalid,
  describedBy,
  onValue,
  ask,
}: {
  option: OptionDef;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onValue: (value: string) => void;
  ask: (typed: string) => Promise<Choice[]>;
}) {
  const [choices, setChoices] = useState<Choice[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [status, setStatus] = useState<string | null>(null);
  const sequence = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const listId = `${fieldId(option)}-choices`;
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  // The active choice stays in view as the arrows move it (the list scrolls), in the same render:
  // an effect would scroll a frame later, after the choice was already shown out of view.
  useLayoutEffect(() => {
    if (open) document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [open, active, choices]);
  const request = (typed: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const mine = ++sequence.current;
      setStatus('Loading options…');
      ask(typed).then(
        (list) => {
          if (mine !== sequence.current) return;
          setChoices(list);
          setActive(0);
          setOpen(true);
          setStatus(list.length === 0 ? 'No options.' : null);
        },
        (failure: unknown) => {
          if (mine !== sequence.current) return;
          setChoices([]);
          setStatus(failure instanceof Error ? failure.message : 'Loading options failed.');
        },
      );
    }, AUTOCOMPLETE_DEBOUNCE_MS);
  };
  const pick = (choice: Choice) => {
    onValue(String(choice.value));
    setOpen(false);
  };
  return (
    <div class="autocomplete">
      <input
        id={fieldId(option)}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-controls={listId}
        aria-expanded={open && choices.length > 0}
        aria-activedescendant={open && choices.length > 0 ? `${listId}-${active}` : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        aria-required={option.required === true}
        value={value}
        onInput={(e) => {
          const typed = e.currentTarget.value;
          onValue(typed);
          request(typed);
        }}
        onFocus={() => request(value)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (!open || choices.length === 0) return;
          if (e.key === 'ArrowDown') setActive((a) => (a + 1) % choices.length);
          else if (e.key === 'ArrowUp') setActive((a) => (a - 1 + choices.length) % choices.length);
          else if (e.key === 'Enter' || e.key === 'Tab') pick(choices[active]!);
          else if (e.key === 'Escape') setOpen(false);
          else return;
          if (e.key !== 'Tab') e.preventDefault();
        }}
      />
      <ul
        class="choices"
        role="listbox"
        id={listId}
        aria-label={`Choices for ${localName(option)}`}
        hidden={!open || choices.length === 0}
      >
        {choices.map((choice, i) => (
          <li
            key={`${i}-${choice.value}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? 'active' : undefined}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(choice);
            }}
          >
            {choice.name}
          </li>
        ))}
      </ul>
      {status && (
        <p class="field-status" role="status">
          {status}
        </p>
      )}
    </div>
  );
}

function Field({
  option,
  value,
  error,
  sources,
  onValue,
  ask,
}: {
  option: OptionDef;
  value: string;
  error: string | undefined;
  sources: FormSources;
  onValue: (value: string) => void;
  ask: (typed: string) => Promise<Choice[]>;
}) {
  const id = fieldId(option);
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const describedBy = error ? `${descriptionId} ${errorId}` : descriptionId;
  const common = {
    id,
    'aria-invalid': error !== undefined,
    'aria-describedby': describedBy,
    'aria-required': option.required === true,
    value,
  };
  const onInput = (e: Event) => onValue((e.currentTarget as HTMLInputElement).value);
  const select = (entries: { value: string; label: string }[]) => (
    <select {...common} onChange={onInput}>
      <option value="">{option.required ? 'Choose…' : '(none)'}</option>
      {entries.map((entry) => (
        <option key={entry.value} value={entry.value}>
          {entry.label}
        </option>
      ))}
    </select>
  );
  let input;
  if (option.autocomplete) {
    input = (
      <AutocompleteInput
        option={option}
        value={value}
        invalid={error !== undefined}
        describedBy={describedBy}
        onValue={onValue}
        ask={ask}
      />
    );
  } else if (option.choices && option.choices.length > 0) {
    input = select(option.choices.map((c) => ({ value: String(c.value), label: localName(c) })));
  } else {
    switch (option.type) {
      case OptionType.Boolean:
        input = select([
          { value: 'true', label: 'True' },
          { value: 'false', label: 'False' },
        ]);
        break;
      case OptionType.Integer:
      case OptionType.Number:
        input = (
          <input
            {...common}
            type="number"
            inputMode={option.type === OptionType.Integer ? 'numeric' : 'decimal'}
            step={option.type === OptionType.Integer ? 1 : 'any'}
            min={option.min_value}
            max={option.max_value}
            onInput={onInput}
          />
        );
        break;
      case OptionType.User:
        input = select(sources.members.map((m) => ({ value: m.id, label: `@${m.name}` })));
        break;
      case OptionType.Role:
        input = select(sources.roles.map((r) => ({ value: r.id, label: `@${r.name}` })));
        break;
      case OptionType.Mentionable:
        input = select([
          ...sources.members.map((m) => ({ value: m.id, label: `@${m.name}` })),
          ...sources.roles.map((r) => ({ value: r.id, label: `@${r.name}` })),
        ]);
        break;
      case OptionType.Channel:
        input = select(
          sources.channels
            .filter((c) => !option.channel_types || option.channel_types.includes(c.type))
            .map((c) => ({ value: c.id, label: `#${c.name}` })),
        );
        break;
      case OptionType.Attachment:
        input = (
          <input
            id={id}
            type="file"
            aria-invalid={error !== undefined}
            aria-describedby={describedBy}
            aria-required={option.required === true}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              onValue(file ? chooseFile(file) : '');
            }}
          />
        );
        break;
      default:
        input = (
          <input
            {...common}
            type="text"
            minLength={option.min_length}
            maxLength={option.max_length}
            onInput={onInput}
          />
        );
    }
  }
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>
        {localName(option)}
        {option.required && <span class="required"> (required)</span>}
      </label>
      {input}
      <p class="field-description" id={descriptionId}>
        {localDescription(option)}
      </p>
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

export function OptionForm({ entry, sources, autocomplete, send, cancel, refused = null }: OptionFormProps) {
  const options = formOrder(entry.options);
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(refused);
  const [sending, setSending] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, [entry.key]);
  const latest = useRef(values);
  latest.current = values;
  const submit = async (event: Event) => {
    event.preventDefault();
    const found = formErrors(options, values);
    setErrors(found);
    const first = options.find((o) => found[o.name]);
    if (first) {
      form.current?.querySelector<HTMLElement>(`#${fieldId(first)}`)?.focus();
      return;
    }
    setSending(true);
    const refused = await send(values);
    setSending(false);
    setRefusal(refused);
  };
  return (
    <form
      class="option-form"
      ref={form}
      aria-label={`Options of ${entry.label}`}
      noValidate
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') cancel();
      }}
    >
      <div class="option-form-head">
        <strong>{entry.label}</strong> <span class="muted">{entry.description}</span>{' '}
        <span class="muted">· {entry.appName}</span>
      </div>
      {options.length === 0 && <p class="muted">This command has no options.</p>}
      <div class="fields">
        {options.map((option) => (
          <Field
            key={option.name}
            option={option}
            value={values[option.name] ?? ''}
            error={errors[option.name]}
            sources={sources}
            onValue={(value) => {
              setValues((v) => ({ ...v, [option.name]: value }));
              if (errors[option.name])
                setErrors((e) => Object.fromEntries(Object.entries(e).filter(([name]) => name !== option.name)));
            }}
            ask={(typed) => autocomplete({ ...latest.current, [option.name]: typed }, option.name)}
          />
        ))}
      </div>
      {refusal && (
        <p class="form-refusal" role="alert">
          {refusal}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={sending}>
          Send {entry.label}
        </button>
        <button type="button" class="button secondary" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
