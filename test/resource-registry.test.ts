/**
 * The registry of a node's services (src/app/services.ts): each resource's factories, built once
 * each in whatever order the list gives, and a wiring mistake (a service nobody builds, one built
 * by two resources, a cycle) failing the start by the service's name.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildServices, type NodeParts } from '../src/app/services.js';
import type { NodeServices, Resource } from '../src/resources/resource.js';

/** The parts a node would make; the factories under test read none of them. */
function nodeParts(): NodeParts {
  return {
    store: { world: {}, members: {}, interactions: {} },
    config: {},
    address: { url: () => 'http://127.0.0.1:1' },
    now: () => 0,
  } as unknown as NodeParts;
}

/** Builds the registry of `resources`, closing what the parts opened. */
function registryOf(resources: readonly Resource[]): NodeServices {
  const { services, parts } = buildServices(nodeParts(), resources);
  parts.httpDelivery.close();
  return services;
}

const fake = (name: string) => ({ name }) as never;

describe('the service registry', () => {
  test('a factory gets a service of a resource later in the list, and each is built once', () => {
    let worldBuilt = 0;
    const services = registryOf([
      { name: 'first', services: { snapshots: (_parts, { world }) => ({ name: 'snapshots', world }) as never } },
      {
        name: 'second',
        services: {
          world: () => {
            worldBuilt += 1;
            return fake('world');
          },
          bans: (_parts, { world }) => ({ name: 'bans', world }) as never,
        },
      },
    ]);
    assert.equal(worldBuilt, 1);
    assert.deepEqual(Object.keys(services).sort(), ['bans', 'snapshots', 'world']);
    assert.equal((services.snapshots as unknown as { world: unknown }).world, services.world);
    assert.equal((services.bans as unknown as { world: unknown }).world, services.world);
    assert.ok(Object.isFrozen(services));
  });

  test('a service no resource builds fails the start with its name', () => {
    assert.throws(
      () => registryOf([{ name: 'bans', services: { bans: (_parts, { auditLog }) => ({ auditLog }) as never } }]),
      /no resource builds the service "auditLog"/,
    );
  });

  test('two resources building one service fail the start with both names', () => {
    assert.throws(
      () =>
        registryOf([
          { name: 'world', services: { world: () => fake('world') } },
          { name: 'other', services: { world: () => fake('world again') } },
        ]),
      /the other and world resources both build "world"/,
    );
  });

  test('a cycle fails the start with the service it comes back to', () => {
    assert.throws(
      () =>
        registryOf([
          {
            name: 'loop',
            services: {
              roles: (_parts, { guildChannels }) => ({ guildChannels }) as never,
              guildChannels: (_parts, { roles }) => ({ roles }) as never,
            },
          },
        ]),
      /the service "roles" needs itself to be built/,
    );
  });
});
