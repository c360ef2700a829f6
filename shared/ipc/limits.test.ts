import { describe, expect, it } from 'vitest';
import { contract, CHANNELS } from './contract';
import { unboundedFields } from './limits';

describe('the contract bounds every request field', () => {
  it('every string has a maximum length and every array a maximum size', () => {
    const open = CHANNELS.flatMap((c) => unboundedFields(contract[c].request).map((p) => `${c} ${p}`));
    expect(open).toEqual([]);
  });
});
