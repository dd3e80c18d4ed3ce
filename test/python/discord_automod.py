"""discord.py (Debian's python3-discord) as a moderation bot over slashd's gateway, unmodified:
only Route.BASE and DiscordWebSocket.DEFAULT_GATEWAY point at slashd. On "create" it makes a
keyword rule with `guild.create_automod_rule` (a block with a custom message, an alert channel);
it reports `on_automod_rule_create` and `on_automod_action`; on "finish" it reads the rules
(`fetch_automod_rules`, `fetch_automod_rule`), edits one (`rule.edit`), has a lookahead refused,
and deletes it (`rule.delete`). One JSON object per line for the TypeScript test."""
import asyncio
import sys
import traceback

import discord
import yarl

from bot_process import emit, read_commands, run

api, gateway, token, guild_id, alert_id = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class Bot(discord.Client):
    def __init__(self):
        intents = discord.Intents.none()
        intents.guilds = True
        intents.auto_moderation = True
        super().__init__(intents=intents)
        self.rule_id = None

    async def on_ready(self):
        emit("ready", guilds=[str(g.id) for g in self.guilds])
        asyncio.create_task(self.commands())

    async def commands(self):
        await read_commands(lambda line: asyncio.run_coroutine_threadsafe(self.command(line), self.loop))
        await self.close()

    async def command(self, line):
        try:
            if line == "create":
                await self.create()
            elif line == "finish":
                await self.finish()
        except Exception as error:  # reported to the test, which fails with it
            emit("failed", error=repr(error), trace=traceback.format_exc())

    async def create(self):
        guild = self.get_guild(guild_id)
        rule = await guild.create_automod_rule(
            name="discord.py filter",
            event_type=discord.AutoModRuleEventType.message_send,
            trigger=discord.AutoModTrigger(
                type=discord.AutoModRuleTriggerType.keyword,
                keyword_filter=["pineapple*"],
                allow_list=["pineapples"],
            ),
            actions=[
                discord.AutoModRuleAction(custom_message="No fruit on pizza."),
                discord.AutoModRuleAction(channel_id=alert_id),
            ],
            enabled=True,
            reason="from discord.py",
        )
        self.rule_id = rule.id
        emit(
            "created",
            id=str(rule.id),
            name=rule.name,
            trigger_type=rule.trigger.type.value,
            keywords=rule.trigger.keyword_filter,
            actions=[[a.type.value, a.custom_message, a.channel_id and str(a.channel_id)] for a in rule.actions],
            creator=str(rule.creator_id),
        )

    async def on_automod_rule_create(self, rule):
        emit("rule_create", id=str(rule.id), name=rule.name)

    async def on_automod_action(self, execution):
        emit(
            "action",
            type=execution.action.type.value,
            rule_id=str(execution.rule_id),
            user_id=str(execution.user_id),
            channel_id=str(execution.channel_id),
            matched_keyword=execution.matched_keyword,
            alert_system_message_id=execution.alert_system_message_id and str(execution.alert_system_message_id),
        )

    async def finish(self):
        guild = self.get_guild(guild_id)
        rules = await guild.fetch_automod_rules()
        rule = await guild.fetch_automod_rule(self.rule_id)
        edited = await rule.edit(name="discord.py filter, renamed", enabled=False)
        try:
            await guild.create_automod_rule(
                name="lookahead",
                event_type=discord.AutoModRuleEventType.message_send,
                trigger=discord.AutoModTrigger(type=discord.AutoModRuleTriggerType.keyword, regex_patterns=["a(?=b)"]),
                actions=[discord.AutoModRuleAction()],
                enabled=True,
            )
            refused = None
        except discord.HTTPException as error:
            refused = [error.status, error.code]
        await edited.delete(reason="done")
        try:
            await guild.fetch_automod_rule(self.rule_id)
            gone = None
        except discord.HTTPException as error:
            gone = [error.status, error.code]
        emit(
            "finished",
            listed=[str(r.id) for r in rules],
            edited=[edited.name, edited.enabled],
            refused=refused,
            gone=gone,
        )


run(Bot, token)
