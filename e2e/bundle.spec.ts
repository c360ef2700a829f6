import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Electron itself cannot run here, so check what the desktop build would load: a sandboxed
// preload may require nothing but 'electron', and the main bundle must load the native module
// from node_modules rather than inline it.
const OUT = resolve(import.meta.dirname, '..', 'out');

test('the sandboxed preload bundle requires only electron', () => {
  const preload = readFileSync(join(OUT, 'preload', 'index.cjs'), 'utf8');
  const required = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
  expect(new Set(required)).toEqual(new Set(['electron']));
  expect(preload).toContain('exposeInMainWorld');
  expect(preload).not.toContain('ipcRenderer.send(');
});

test('the main bundle keeps better-sqlite3 external and the renderer has no Node access', () => {
  const main = readFileSync(join(OUT, 'main', 'index.js'), 'utf8');
  expect(main).toMatch(/from "better-sqlite3"/);
  expect(main).toMatch(/sandbox: true/);
  expect(main).toMatch(/contextIsolation: true/);
  expect(main).toMatch(/nodeIntegration: false/);
  const html = readFileSync(join(OUT, 'renderer', 'index.html'), 'utf8');
  expect(html).toContain("script-src 'self'");
});
