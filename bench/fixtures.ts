import type { Application, User } from '../src/core/world/types.js';

/** Command lists the benchmarks deploy: realistic slash commands with options and choices. */
export function slashCommand(name: string, variant = 0): Record<string, unknown> {
  return {
    name,
    description: `Does ${name} things (variant ${variant})`,
    options: [
      { type: 3, name: 'query', description: 'What to look for', required: true, max_length: 100 },
      {
        type: 3,
        name: 'mode',
        description: 'How to look',
        choices: [
          { name: 'Fast', value: 'fast' },
          { name: 'Thorough', value: 'thorough' },
        ],
      },
      { type: 4, name: 'limit', description: 'How many results', min_value: 1, max_value: 50 },
      { type: 7, name: 'channel', description: 'Where to post', channel_types: [0, 5] },
    ],
  };
}

export function slashCommands(count: number, prefix = 'cmd', variant = 0): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => slashCommand(`${prefix}-${i}`, variant));
}

/** 130 commands: the largest bulk list (100 CHAT_INPUT, 15 USER, 15 MESSAGE). */
export function fullBulkList(variant: number): Record<string, unknown>[] {
  return [
    ...slashCommands(100, 'cmd', variant),
    ...Array.from({ length: 15 }, (_, i) => ({ type: 2, name: `User Action ${i}` })),
    ...Array.from({ length: 15 }, (_, i) => ({ type: 3, name: `Message Action ${i}` })),
  ];
}

/** A guild-install app of the benchmarks' worlds: `token` is its bot token, `${token}-secret` its client secret. */
export function benchApplication(id: string, name: string, ownerId: string, token: string): Application {
  return {
    id,
    name,
    owner_id: ownerId,
    bot_token: token,
    client_secret: `${token}-secret`,
    public_client: false,
    redirect_uris: [],
    flags: 0,
    integration_types: [0],
    discoverable: false,
    interactions_endpoint_url: null,
  };
}

/** `count` users of the benchmarks' worlds, the i-th with id `idOf(i)` and token `tokenOf(i)`. */
export function benchUsers(count: number, idOf: (i: number) => string, tokenOf: (i: number) => string): User[] {
  return Array.from({ length: count }, (_, i) => ({
    id: idOf(i),
    username: `user${i}`,
    token: tokenOf(i),
    locale: 'en-US',
    age_verified: false,
  }));
}
