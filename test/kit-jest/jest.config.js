// The Jest project of the kit's own tests: this folder only, native ESM (no transform).
export default { testEnvironment: 'node', transform: {}, testMatch: ['<rootDir>/*.test.js'], testTimeout: 30_000 };
