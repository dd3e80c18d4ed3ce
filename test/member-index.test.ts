/** A guild's member by user id: indexed for the store's frozen guilds, scanned for anything else. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepFreeze } from '../src/core/frozen-memo.js';
import { isMember, memberOf } from '../src/core/world/member-index.js';
import type { Member } from '../src/core/world/types.js';

const member = (user_id: string): Member => ({
  user_id,
  roles: [],
  nick: null,
  joined_at: '2020-01-01T00:00:00.000Z',
});

describe('member index', () => {
  it('finds each member of a frozen guild, and nobody else', () => {
    const guild = { members: Array.from({ length: 500 }, (_, i) => member(String(1000 + i))) };
    deepFreeze(guild);
    for (const m of guild.members) assert.equal(memberOf(guild, m.user_id), m);
    assert.equal(memberOf(guild, '999'), undefined);
    assert.equal(isMember(guild, '1499'), true);
    assert.equal(isMember(guild, '1500'), false);
  });

  it('a member list that is not frozen is read as it is now, never from an index', () => {
    const guild = { members: [member('1')] };
    assert.equal(isMember(guild, '2'), false);
    guild.members.push(member('2'));
    assert.equal(isMember(guild, '2'), true);
    guild.members.shift();
    assert.equal(memberOf(guild, '1'), undefined);
  });

  it('a new frozen guild (the store re-read it after a write) is indexed anew', () => {
    const before = { members: [member('1')] };
    deepFreeze(before);
    assert.equal(isMember(before, '2'), false);
    const after = { members: [member('1'), member('2')] };
    deepFreeze(after);
    assert.equal(isMember(after, '2'), true);
  });
});
