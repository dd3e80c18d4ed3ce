/**
 * The web console in Debian's Chromium, for the console's tests: a page per user (its own browser
 * context, so its own sign-in), the steps a person takes (sign in, type `/`, choose a command),
 * the accessibility check of a screen (axe-core: no serious or critical violation), and the
 * screenshots the docs embed (written to screenshots/, which git ignores, so a test run changes no
 * tracked file; `npm run screenshots` copies them into docs/images/ when the docs should show them).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';

/** screenshots/ of the repository (ignored by git), from dist/test/helpers. */
export const SCREENSHOTS = fileURLToPath(new URL('../../../screenshots/', import.meta.url));

export interface PageOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
}

/** A fresh context (no shared storage) on the console's page. */
export async function openConsole(browser: Browser, baseUrl: string, options: PageOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 900, height: options.height ?? 640 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A CSP refusal is a console error: the page must work within its own policy.
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) errors.push(message.text());
  });
  (page as Page & { consoleErrors: string[] }).consoleErrors = errors;
  await page.goto(`${baseUrl}/console`);
  return page;
}

/** What went wrong in the page so far (uncaught errors, CSP refusals). */
export function pageErrors(page: Page): string[] {
  return (page as Page & { consoleErrors?: string[] }).consoleErrors ?? [];
}

/** Sandbox sign-in: the user's button on the sign-in screen; then the chat screen is shown. */
export async function signInAs(page: Page, username: string): Promise<void> {
  await page.getByRole('button', { name: username, exact: true }).click();
  await composer(page).waitFor();
}

/** The composer, where `/` opens the picker (`Message #general`, `Message @Demo Bot`, `Message trio`). */
export function composer(page: Page) {
  return page.getByRole('combobox', { name: /^Message / });
}

/** Types `/` and what follows, and waits for the picker. */
export async function openPicker(page: Page, typed = ''): Promise<void> {
  await composer(page).click();
  await composer(page).fill('');
  await composer(page).pressSequentially(`/${typed}`);
  await page.getByRole('listbox', { name: 'Commands' }).waitFor();
}

/** The message (list item) whose text contains `text`. */
export function messageWith(page: Page, text: string | RegExp) {
  return page.locator('li.message').filter({ hasText: text });
}

/** axe-core on the page as it is: no serious or critical violation (WCAG 2 A and AA rules). */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `accessibility violations on ${screen}`,
  );
}

/** A screenshot for the docs: screenshots/<name>.png, which `npm run screenshots` copies to docs/images/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

/** An image's decoded size in pixels: what the bytes it was served are. */
export function naturalSize(image: Locator): Promise<number[]> {
  return image.evaluate((img) => {
    const element = img as unknown as { decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
    return element.decode().then(() => [element.naturalWidth, element.naturalHeight]);
  });
}
