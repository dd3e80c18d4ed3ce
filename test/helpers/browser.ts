/**
 * Debian's Chromium driven by playwright-core, for the tests of pages (the console, the consent
 * page, the SDK's sample app). Never a downloaded browser: `SLASHD_CHROMIUM` or `/usr/bin/chromium`
 * (CI's script installs Debian's `chromium` when it is missing).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's package puts the browser. */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Flags that keep a headless Chromium off the network it would otherwise reach for at start. */
const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function chromiumPath(): string {
  const path = process.env.SLASHD_CHROMIUM ?? DEBIAN_CHROMIUM;
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path}: install Debian's chromium package`);
  return path;
}

/** A fresh headless browser; close it in the test's `after`. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: QUIET_FLAGS });
}
