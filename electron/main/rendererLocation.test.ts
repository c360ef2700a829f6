import { describe, expect, it } from 'vitest';
import { isRendererUrl, rendererLocation, type RendererLocation } from './rendererLocation';

const packaged: RendererLocation = { kind: 'file', path: '/tmp/out/renderer/index.html' };
const dev: RendererLocation = { kind: 'devServer', url: 'http://localhost:5173' };

describe('rendererLocation', () => {
  it('is the dev server when electron-vite names one, else the index.html the main bundle loads', () => {
    expect(rendererLocation('http://localhost:5173', '/tmp/out/main')).toEqual(dev);
    expect(rendererLocation(undefined, '/tmp/out/main')).toEqual(packaged);
    expect(rendererLocation('', '/tmp/out/main')).toEqual(packaged);
  });
});

describe('isRendererUrl: packaged renderer', () => {
  it.each([
    ['file:///tmp/out/renderer/index.html', 'the packaged index.html'],
    ['file:///tmp/out/renderer/index.html#/review', 'with a fragment'],
    ['file:///tmp/out/renderer/index.html?view=audit', 'with a query'],
    ['file:///tmp/out/renderer/../renderer/index.html', 'dot segments that resolve to it'],
  ])('trusts %s (%s)', (url) => {
    expect(isRendererUrl(url, packaged)).toBe(true);
  });

  it.each([
    ['file:///evil/out/renderer/x.html', 'another folder that also contains /out/renderer/'],
    ['file:///evil/out/renderer/index.html', 'a look-alike build elsewhere on disk'],
    ['file:///tmp/out/renderer/x.html', 'another file beside it'],
    ['file:///tmp/out/renderer/../../evil.html', 'dot segments that climb out'],
    ['file:///tmp/evil.html?/out/renderer/index.html', 'the expected path hidden in the query'],
    ['file:///tmp/evil.html#/tmp/out/renderer/index.html', 'the expected path hidden in the fragment'],
    ['file://evilhost/tmp/out/renderer/index.html', 'a file URL naming another host'],
    ['file:///tmp/out/renderer/index.html/x', 'a path below it'],
    ['http://localhost:5173/tmp/out/renderer/index.html', 'the same path over http'],
    ['about:blank', 'a blank frame'],
    ['', 'an empty URL'],
    ['not a url', 'a malformed URL'],
  ])('refuses %s (%s)', (url) => {
    expect(isRendererUrl(url, packaged)).toBe(false);
  });
});

describe('isRendererUrl: dev server', () => {
  it.each([
    ['http://localhost:5173/', 'the dev server root'],
    ['http://localhost:5173/index.html?x=1#token=abc', 'with a path, query and fragment'],
  ])('trusts %s (%s)', (url) => {
    expect(isRendererUrl(url, dev)).toBe(true);
  });

  it.each([
    ['http://localhost:5174/', 'a different port'],
    ['http://localhost/', 'no port'],
    ['https://localhost:5173/', 'another scheme'],
    ['http://localhost:5173.evil.com/', 'a host that starts with the dev host'],
    ['http://evil.com/?http://localhost:5173', 'the dev URL in the query'],
    ['http://evil.com/#http://localhost:5173', 'the dev URL in the fragment'],
    ['http://127.0.0.1:5173/', 'the same machine under another name'],
    ['file:///tmp/out/renderer/index.html', 'the packaged file while the dev server is in use'],
    ['http//localhost:5173', 'a malformed URL'],
  ])('refuses %s (%s)', (url) => {
    expect(isRendererUrl(url, dev)).toBe(false);
  });

  it('trusts nothing when the dev server URL itself is malformed or not http', () => {
    expect(isRendererUrl('http://localhost:5173/', { kind: 'devServer', url: 'localhost:5173' })).toBe(false);
    expect(isRendererUrl('file:///x', { kind: 'devServer', url: 'file:///x' })).toBe(false);
  });
});
