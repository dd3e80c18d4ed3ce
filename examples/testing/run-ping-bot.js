// Starts the example bot (ping-bot.js) from its environment, as `slashd test --bot` and CI start a
// bot under test: SLASHD_BOT_TOKEN and SLASHD_REST_URL (`https://discord.com/api` in production).
import { startBot } from './ping-bot.js';

const client = await startBot({ token: process.env.SLASHD_BOT_TOKEN, restUrl: process.env.SLASHD_REST_URL });
process.once('SIGTERM', () => {
  void client.destroy().then(() => process.exit(0));
});
