/**
 * The command picker: what `/` opens. The channel's command index as the user may use it, grouped
 * by app, subcommands as lines of their own; a listbox driven from the composer's combobox
 * (↑ ↓ move, Enter or Tab choose, Esc close), so focus stays in the text field.
 */
import { useLayoutEffect } from 'preact/hooks';
import type { PickerEntry, PickerGroup } from '../commands';

export const PICKER_ID = 'command-picker';

export function optionId(index: number): string {
  return `${PICKER_ID}-${index}`;
}

export function Picker({
  groups,
  hidden,
  onMore,
  active,
  onChoose,
  onHover,
  loading,
}: {
  groups: PickerGroup[];
  /** Lines matching but not rendered yet. */
  hidden: number;
  onMore: () => void;
  active: number;
  onChoose: (entry: PickerEntry) => void;
  onHover: (index: number) => void;
  loading: boolean;
}) {
  // The active line stays in view as the keyboard moves it, in the same render (not a frame later).
  useLayoutEffect(() => {
    document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  let n = 0;
  const empty = groups.length === 0;
  return (
    <div
      class="picker"
      role="listbox"
      id={PICKER_ID}
      aria-label="Commands"
      onScroll={(e) => {
        const box = e.currentTarget;
        if (hidden > 0 && box.scrollTop + box.clientHeight >= box.scrollHeight - 40) onMore();
      }}
    >
      {empty && (
        <p class="picker-empty" role="presentation">
          {loading ? 'Loading commands…' : 'No command matches.'}
        </p>
      )}
      {groups.map((group) => (
        <div role="group" key={group.appId} aria-labelledby={`${PICKER_ID}-app-${group.appId}`} class="picker-group">
          <div class="picker-app" id={`${PICKER_ID}-app-${group.appId}`} role="presentation">
            {group.appName}
          </div>
          {group.entries.map((entry) => {
            const index = n++;
            return (
              <div
                key={entry.key}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                class={index === active ? 'picker-option active' : 'picker-option'}
                onMouseDown={(e) => {
                  e.preventDefault();
                  onChoose(entry);
                }}
                onMouseMove={() => index !== active && onHover(index)}
              >
                <span class="picker-label">{entry.label}</span>
                <span class="picker-description">{entry.description}</span>
              </div>
            );
          })}
        </div>
      ))}
      {hidden > 0 && (
        <p class="picker-empty muted" role="presentation">
          {hidden} more: keep typing to narrow, or scroll
        </p>
      )}
    </div>
  );
}
