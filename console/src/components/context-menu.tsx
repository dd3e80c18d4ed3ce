/**
 * The menu of a message or a user (right-click, or its menu button): Apps, then the MESSAGE or
 * USER commands of the channel's index the user may use there. A menu (ARIA) moved with ↑ ↓,
 * chosen with Enter, closed with Esc or a click outside.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { localName } from '../commands';
import type { CommandDef } from '../types';

export interface MenuItem {
  command: CommandDef;
  appName: string;
}

export function ContextMenu({
  title,
  items,
  anchor,
  choose,
  close,
}: {
  title: string;
  items: MenuItem[];
  anchor: HTMLElement;
  choose: (item: MenuItem) => void;
  close: () => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const rect = anchor.getBoundingClientRect();
  useEffect(() => {
    const element = menu.current;
    if (!element) return undefined;
    // Placed next to what opened it, inside the window (style set through the CSSOM: the CSP allows it).
    element.style.top = `${Math.min(rect.bottom + window.scrollY, window.scrollY + window.innerHeight - element.offsetHeight - 8)}px`;
    element.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - element.offsetWidth - 8))}px`;
    element.querySelector<HTMLElement>('[role=menuitem]')?.focus();
    const outside = (event: MouseEvent) => {
      if (!element.contains(event.target as Node)) close();
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, []);
  useEffect(() => {
    menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]')[active]?.focus();
  }, [active]);
  return (
    <div
      ref={menu}
      class="context-menu"
      role="menu"
      aria-label={title}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') setActive((a) => (a + 1) % Math.max(items.length, 1));
        else if (e.key === 'ArrowUp') setActive((a) => (a - 1 + items.length) % Math.max(items.length, 1));
        else if (e.key === 'Escape' || e.key === 'Tab') {
          close();
          anchor.focus();
        } else return;
        e.preventDefault();
      }}
    >
      <div class="menu-title" role="presentation">
        Apps
      </div>
      {items.length === 0 && (
        <div role="menuitem" aria-disabled="true" tabIndex={-1} class="menu-item muted">
          No apps here
        </div>
      )}
      {items.map((item, i) => (
        <div
          key={item.command.id}
          role="menuitem"
          tabIndex={i === active ? 0 : -1}
          class="menu-item"
          onClick={() => choose(item)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              choose(item);
            }
          }}
        >
          {localName(item.command)} <span class="muted">· {item.appName}</span>
        </div>
      ))}
    </div>
  );
}
