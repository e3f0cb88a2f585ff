// Setup file of the server projects (vitest.config.ts): evaluated before EACH test file, also
// where a worker runs many files in one module graph (isolate: false), so the hooks here are
// registered for every file.
import { afterAll } from 'vitest';
import { killLeftChildren } from './children';

afterAll(killLeftChildren);
