/** Worlds and requests for the attachment tests: a world where files may be sent and one user may not look. */
import type { World } from '../../src/core/world/types.js';
import { CAROL_ID, exampleWorld, GENERAL, NSFW_LOUNGE, TEST_GUILD_ID } from './world.js';

/** ATTACH_FILES (1 << 15). */
export const ATTACH_FILES_BIT = 32768n;
/** VIEW_CHANNEL (1 << 10). */
export const VIEW_CHANNEL_BIT = 1024n;

/**
 * The example world where @everyone (so the demo bot too) may attach files, except in #nsfw-lounge,
 * and where carol may not view #general.
 */
export function attachmentWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const everyone = guild.roles.find((r) => r.id === TEST_GUILD_ID)!;
  everyone.permissions = String(BigInt(everyone.permissions) | ATTACH_FILES_BIT);
  const general = guild.channels.find((c) => c.id === GENERAL)!;
  general.permission_overwrites = [{ id: CAROL_ID, type: 1, allow: '0', deny: String(VIEW_CHANNEL_BIT) }];
  const lounge = guild.channels.find((c) => c.id === NSFW_LOUNGE)!;
  lounge.permission_overwrites = [{ id: TEST_GUILD_ID, type: 0, allow: '0', deny: String(ATTACH_FILES_BIT) }];
  return world;
}

/** A multipart form as client libraries send it: `payload_json`, then `files[n]`. */
export function messageForm(payload: unknown, files: { name: string; bytes: Uint8Array; type?: string }[]): FormData {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  files.forEach((file, index) => {
    form.append(
      `files[${index}]`,
      new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  });
  return form;
}

/** The URL without its signature (`?ex&is&hm`): what only a reader's token opens. */
export function unsigned(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  return parsed.toString();
}

/** Downloads `url` as `auth` (a user or bot Authorization header): status, type and bytes. */
export async function download(
  url: string,
  auth?: string,
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url, auth ? { headers: { authorization: auth } } : {});
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
