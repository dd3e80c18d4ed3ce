// A small discord.js bot, the "bot under test" of docs/testing.md: /ping answers pong, /button
// shows a button that updates its message when pressed, /feedback opens a modal and thanks the
// user with what they wrote. Nothing here knows about slashd but the REST base URL it is given.
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';

export const COMMANDS = [
  { name: 'ping', description: 'Answers pong' },
  { name: 'button', description: 'Shows a button' },
  { name: 'feedback', description: 'Asks for feedback' },
];

async function handle(interaction) {
  if (interaction.isChatInputCommand()) {
    if (interaction.commandName === 'ping') return interaction.reply('pong');
    if (interaction.commandName === 'button') {
      const button = new ButtonBuilder().setCustomId('press').setLabel('Press me').setStyle(ButtonStyle.Primary);
      return interaction.reply({
        content: 'press the button',
        components: [new ActionRowBuilder().addComponents(button)],
      });
    }
    if (interaction.commandName === 'feedback') {
      const input = new TextInputBuilder().setCustomId('text').setLabel('Your feedback').setStyle(TextInputStyle.Short);
      const modal = new ModalBuilder()
        .setCustomId('feedback')
        .setTitle('Feedback')
        .addComponents(new ActionRowBuilder().addComponents(input));
      return interaction.showModal(modal);
    }
  }
  if (interaction.isButton() && interaction.customId === 'press') {
    return interaction.update({ content: `pressed by ${interaction.user.username}`, components: [] });
  }
  if (interaction.isModalSubmit() && interaction.customId === 'feedback') {
    return interaction.reply(`thanks for "${interaction.fields.getTextInputValue('text')}"`);
  }
  return undefined;
}

/** Deploys the bot's commands (global), as a bot does at start-up. */
export async function deployCommands(client) {
  await client.application.commands.set(COMMANDS);
}

/** Logs the bot in with `token` against the REST API at `restUrl` (`https://discord.com/api` in production). */
export async function startBot({ token, restUrl }) {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: restUrl } });
  client.on(Events.InteractionCreate, (interaction) => {
    handle(interaction).catch((error) => client.emit(Events.Error, error));
  });
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(token);
  await ready;
  await deployCommands(client);
  return client;
}
