/**
 * `slashd join CODE --user USER`: a world user accepts an invite, as the client does (`POST
 * /api/v10/invites/{code}` with the user's token; the user's token is found through the admin
 * API). Exit 0 joined (or a member already), 1 refused (the v10 error), 2 usage or an unreachable
 * server.
 */
import { ADMIN_TOKEN_OPTIONS, adminToken, fetchWorld, requestJson, serverUrl, type Env } from './client.js';
import { refusalLines } from './invoke/run.js';
import { findUser } from './invoke/resolve-world.js';
import { EXIT_FAILED, EXIT_OK, parseCommandLine, reportUsageError, UsageError, type Output } from './usage.js';

export async function runJoin(argv: string[], out: Output, env: Env = process.env): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine(argv, {
      user: { type: 'string' },
      url: { type: 'string' },
      ...ADMIN_TOKEN_OPTIONS,
    });
    const [code, ...extra] = positionals;
    if (code === undefined || code === '')
      throw new UsageError('no invite code: expected `slashd join CODE --user USER`');
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (typeof values.user !== 'string' || values.user === '') throw new UsageError('--user is required');
    const url = serverUrl(values.url as string | undefined, env);
    const world = await fetchWorld({ url, adminToken: adminToken(values, env) });
    const user = findUser(world, values.user);
    const answer = await requestJson(`${url}/api/v10/invites/${encodeURIComponent(code)}`, {
      method: 'POST',
      auth: user.token,
      body: {},
    });
    if (answer.status !== 200) {
      for (const line of refusalLines(answer)) out.error(line);
      return EXIT_FAILED;
    }
    const guild = String(answer.body.guild?.name ?? answer.body.guild_id);
    const channel = String(answer.body.channel?.name ?? '?');
    out.log(
      answer.body.new_member === false
        ? `${user.username} is already a member of ${guild}`
        : `${user.username} joined ${guild} (#${channel}) by invite ${code}`,
    );
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) return reportUsageError('join', error, out);
    throw error;
  }
}
