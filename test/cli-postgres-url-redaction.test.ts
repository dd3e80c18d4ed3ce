/** How a `--db` PostgreSQL URL is shown in messages and logs: every secret pg reads from it is masked. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactPostgresUrl } from '../src/store/postgres/url.js';

describe('redactPostgresUrl', () => {
  it('masks the password of the authority', () => {
    assert.equal(redactPostgresUrl('postgres://app:s3cret@db:5432/slashd'), 'postgres://app:***@db:5432/slashd');
  });

  it('masks password, sslpassword and sslkey in the query, in any case, and keeps the rest', () => {
    const shown = redactPostgresUrl(
      'postgresql://app@db/slashd?password=s3cret&sslmode=verify-full&sslpassword=pass2&sslkey=%2Fkeys%2Fclient.key&PassWord=again',
    );
    for (const secret of ['s3cret', 'pass2', 'client.key', 'again']) assert.ok(!shown.includes(secret), shown);
    const query = new URL(shown).searchParams;
    assert.equal(query.get('password'), '***');
    assert.equal(query.get('sslpassword'), '***');
    assert.equal(query.get('sslkey'), '***');
    assert.equal(query.get('PassWord'), '***');
    assert.equal(query.get('sslmode'), 'verify-full');
  });

  it('says nothing of an unparsable URL', () => {
    assert.equal(redactPostgresUrl('postgres://app:s3cret@[bad/slashd'), 'postgres://(unparsable URL)');
  });
});
