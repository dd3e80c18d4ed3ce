/**
 * The message box: typing `/` opens the picker over it; choosing a command opens its option form.
 * Anything else is a message of the user's own, sent with Enter (`POST /channels/{id}/messages`).
 * The text field is the picker's combobox (ARIA 1.2): focus stays in it while ↑ ↓ move the choice.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import { filterGroups, firstLines, pickerGroups, type FormValues, type PickerEntry } from '../commands';
import type { CommandIndex } from '../types';
import { OptionForm, type Choice, type FormSources } from './option-form';
import { optionId, Picker, PICKER_ID } from './picker';

export interface ComposerProps {
  /** Where a message goes, as the user reads it: `#general`, `@Demo Bot`, a group DM's name. */
  placeLabel: string;
  index: CommandIndex | null;
  /** The picker opened: the index is read again (commands change while the console is open). */
  onOpen: () => void;
  sources: FormSources;
  autocomplete: (entry: PickerEntry, values: FormValues, focused: string) => Promise<Choice[]>;
  send: (entry: PickerEntry, values: FormValues) => Promise<string | null>;
  /** Sends the text as the user's message; resolves with a refusal's sentence, or null once sent. */
  say: (content: string) => Promise<string | null>;
}

/** Lines the picker renders at first (a few screens' worth); the rest come as the user moves or scrolls. */
const PICKER_PAGE = 60;

export function Composer({ placeLabel, index, onOpen, sources, autocomplete, send, say }: ComposerProps) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [entry, setEntry] = useState<PickerEntry | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [unsaid, setUnsaid] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const all = useMemo(() => (index ? pickerGroups(index) : []), [index]);
  const [limit, setLimit] = useState(PICKER_PAGE);
  const shown = useMemo(
    () => firstLines(open ? filterGroups(all, text.slice(1)) : [], limit),
    [all, open, text, limit],
  );
  const groups = shown.groups;
  const flat = useMemo(() => groups.flatMap((g) => g.entries), [groups]);
  // The picker renders a page of lines at a time: more as the choice or the scroll nears the end.
  const more = () => setLimit((l) => l + PICKER_PAGE);
  const choose = (chosen: PickerEntry) => {
    setOpen(false);
    setText('');
    setRefused(null);
    if (chosen.options.length > 0) {
      setEntry(chosen);
      return;
    }
    // Nothing to fill in: chosen is sent, as a client sends /ping at once. A refusal opens its form to say why.
    void send(chosen, {}).then((refusal) => {
      if (refusal === null) return;
      setRefused(refusal);
      setEntry(chosen);
    });
  };
  const close = () => {
    setEntry(null);
    input.current?.focus();
  };
  const showing = open && !entry;
  // A refused message stays in the box, with why it was refused.
  const sayText = () => {
    const content = text;
    setText('');
    setUnsaid(null);
    void say(content).then((refusal) => {
      if (refusal === null) return;
      setText(content);
      setUnsaid(refusal);
    });
  };
  return (
    <div class="composer">
      {showing && (
        <Picker
          groups={groups}
          hidden={shown.hidden}
          onMore={more}
          active={Math.min(active, Math.max(flat.length - 1, 0))}
          onChoose={choose}
          onHover={setActive}
          loading={!index}
        />
      )}
      {entry && (
        <OptionForm
          key={entry.key}
          entry={entry}
          sources={sources}
          autocomplete={(values, focused) => autocomplete(entry, values, focused)}
          send={async (values) => {
            const refused = await send(entry, values);
            if (refused === null) close();
            return refused;
          }}
          cancel={close}
          refused={refused}
        />
      )}
      {unsaid && (
        <p class="field-status" role="alert">
          {unsaid}
        </p>
      )}
      <input
        ref={input}
        class="composer-input"
        type="text"
        role="combobox"
        aria-label={`Message ${placeLabel}`}
        aria-autocomplete="list"
        aria-haspopup="listbox"
        aria-expanded={showing}
        aria-controls={PICKER_ID}
        aria-activedescendant={showing && flat.length > 0 ? optionId(Math.min(active, flat.length - 1)) : undefined}
        placeholder={`Message ${placeLabel}, or type / to use a command`}
        autoComplete="off"
        value={text}
        onInput={(e) => {
          const typed = e.currentTarget.value;
          setText(typed);
          const slash = typed.startsWith('/');
          if (slash && !open) onOpen();
          setOpen(slash);
          setActive(0);
          setLimit(PICKER_PAGE);
        }}
        onKeyDown={(e) => {
          if (!showing && !entry && e.key === 'Enter' && text.trim() !== '' && !text.startsWith('/')) {
            e.preventDefault();
            sayText();
            return;
          }
          if (!showing) return;
          const count = flat.length;
          if (e.key === 'ArrowDown' && active >= count - 1 && shown.hidden > 0) {
            more();
            setActive(count);
          } else if (e.key === 'ArrowDown') setActive((a) => (count === 0 ? 0 : (Math.min(a, count - 1) + 1) % count));
          else if (e.key === 'ArrowUp')
            setActive((a) => (count === 0 ? 0 : (Math.min(a, count - 1) - 1 + count) % count));
          else if ((e.key === 'Enter' || e.key === 'Tab') && count > 0) choose(flat[Math.min(active, count - 1)]!);
          else if (e.key === 'Escape') setOpen(false);
          else return;
          e.preventDefault();
        }}
      />
    </div>
  );
}
