"""discord.py (Debian's python3-discord) schedules an event as a bot does: `guild.create_scheduled_event`
(external, with a place and an end), `guild.fetch_scheduled_events(with_counts=True)`,
`event.edit(...)`, `event.start()` on a voice event, `event.delete()`. Prints one JSON object."""
import asyncio
import datetime
import json
import sys

import discord

base, token, guild_id, voice_id = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
discord.http.Route.BASE = base


async def main():
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    guild = await client.fetch_guild(guild_id)
    start = discord.utils.utcnow() + datetime.timedelta(hours=1)
    event = await guild.create_scheduled_event(
        name="discord.py meetup",
        start_time=start,
        end_time=start + datetime.timedelta(hours=1),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="the park",
        description="bring snacks",
    )
    result = {"created": [str(event.id), event.name, event.location, str(event.status)]}
    fetched = await guild.fetch_scheduled_events(with_counts=True)
    result["listed"] = [[str(e.id), e.user_count] for e in fetched if e.id == event.id]
    edited = await event.edit(name="discord.py meetup, moved", location="the beach")
    result["edited"] = [edited.name, edited.location]
    voice = guild.get_channel(voice_id) or await client.fetch_channel(voice_id)
    standup = await guild.create_scheduled_event(
        name="discord.py standup",
        start_time=start,
        entity_type=discord.EntityType.voice,
        channel=voice,
        privacy_level=discord.PrivacyLevel.guild_only,
    )
    started = await standup.start()
    result["started"] = [str(started.status), str(started.channel_id)]
    await event.delete()
    try:
        await guild.fetch_scheduled_event(event.id)
        result["after_delete"] = "found"
    except discord.NotFound as error:
        result["after_delete"] = error.code
    await client.close()
    print(json.dumps(result))


asyncio.run(main())
