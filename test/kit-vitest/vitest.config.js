// The Vitest project of the kit's own tests: this folder only, in Node.
export default { test: { include: ['*.test.js'], environment: 'node', testTimeout: 30_000, hookTimeout: 30_000 } };
