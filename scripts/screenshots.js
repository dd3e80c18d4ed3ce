// Copies the console's screenshots, which the browser tests write to screenshots/ (ignored by git),
// into docs/images/, where the docs embed them. `npm run screenshots` runs the tests first; a plain
// `npm test` never changes a tracked file.
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const from = 'screenshots';
const to = join('docs', 'images');
const images = existsSync(from) ? readdirSync(from).filter((name) => name.endsWith('.png')) : [];
if (images.length === 0) {
  console.error(`no screenshots in ${from}/: run the console's browser tests first (npm run screenshots)`);
  process.exit(1);
}
for (const name of images) {
  copyFileSync(join(from, name), join(to, name));
  console.log(`${join(to, name)}`);
}
