"""What the tests' long-running discord.py bots share: one JSON object per line on standard output
(its "event" says which), commands read from standard input until "quit" or its end,
and a run that reports a crash to the test before raising it."""
import asyncio
import json
import sys


def emit(event, **fields):
    print(json.dumps({"event": event, **fields}), flush=True)


async def read_commands(on_command=None):
    """Reads standard input until "quit" or its end, handing other lines to on_command."""
    loop = asyncio.get_running_loop()
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if not line or line == "quit":
            break
        if on_command is not None:
            on_command(line)


def run(make_bot, token):
    """Starts the bot make_bot() builds, inside the event loop; "closed" once it stops, "crashed"
    (and the error raised) when it fails."""

    async def main():
        bot = make_bot()
        try:
            async with bot:
                await bot.start(token)
        except Exception as error:  # reported to the test, which fails with it
            emit("crashed", error=repr(error))
            raise
        emit("closed")

    asyncio.run(main())
