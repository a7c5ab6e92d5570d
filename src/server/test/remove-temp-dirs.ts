import { afterAll } from 'vitest';
import { removeTempDirs } from './process.ts';

// Vitest setup file: after each test file's own afterAll hooks (which stop its servers), its
// temporary directories go. Vitest ends its worker processes without an `exit` event.
afterAll(removeTempDirs);
