import type { Client } from 'discord.js';

export declare const COMMANDS: { name: string; description: string }[];
export declare function deployCommands(client: Client<true>): Promise<void>;
export declare function startBot(options: { token: string; restUrl: string }): Promise<Client<true>>;
