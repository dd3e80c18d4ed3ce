/**
 * A slashd in a child process for multi-process tests: `node slashd-child.js <db> <nodeIdHint>`.
 * It prints one JSON line `{url, nodeId}` once listening, and closes cleanly on SIGTERM.
 */
import { createSlashd } from '../../src/app.js';
import { ADMIN_TOKEN } from './world.js';

const [db, hint] = process.argv.slice(2);
const slashd = await createSlashd({ db: db!, adminToken: ADMIN_TOKEN, nodeIdHint: Number(hint) });
const url = await slashd.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url, nodeId: slashd.ids.nodeId })}\n`);
process.once('SIGTERM', () => {
  slashd.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
