import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BUNDLE_BYTES } from '../../shared/interchange/bundle';
import { uploadCutOff, uploadRefusal } from './upload';

describe('uploads from a browser', () => {
  it('refuse a file over the import limit before sending it, naming the file, its size and the limit', () => {
    expect(uploadRefusal({ name: 'feed.json', size: DEFAULT_MAX_BUNDLE_BYTES })).toBeNull();
    expect(uploadRefusal({ name: 'feed.json', size: DEFAULT_MAX_BUNDLE_BYTES + 1 })).toBe(
      'upload: feed.json is 1,073,741,825 bytes, larger than the import limit of 1,073,741,824 bytes; nothing was sent',
    );
    expect(uploadRefusal({ name: 'small.ndjson', size: 11 }, 10)).toMatch(/^upload: small\.ndjson is 11 bytes, larger than the import limit of 10 bytes/);
    expect(uploadRefusal({ name: 'small.ndjson', size: 10 }, 10)).toBeNull();
  });

  it('say which file a cut-off upload was sending and what the browser reported', () => {
    expect(uploadCutOff('feed.json', new TypeError('Failed to fetch'))).toBe(
      'upload: the connection to the workbench host ended before it answered, while feed.json was being sent (Failed to fetch); nothing was imported',
    );
  });
});
