/** Dark or light: the system's choice until the user picks, then theirs (kept in localStorage). */
const THEME_KEY = 'slashd.console.theme';

export function applyTheme(): void {
  const chosen = localStorage.getItem(THEME_KEY);
  if (chosen === 'dark' || chosen === 'light') document.documentElement.dataset.theme = chosen;
}

export function toggleTheme(): void {
  const dark = document.documentElement.dataset.theme
    ? document.documentElement.dataset.theme === 'dark'
    : window.matchMedia('(prefers-color-scheme: dark)').matches;
  const next = dark ? 'light' : 'dark';
  localStorage.setItem(THEME_KEY, next);
  document.documentElement.dataset.theme = next;
}
