import { describe, expect, it } from 'vitest';
import { matchCommands, type Command } from './commands';

const cmd = (id: string, label: string, keywords?: string): Command => ({ id, label, ...(keywords ? { keywords } : {}), run: () => {} });
const commands = [cmd('disputes', 'Go to Disputes'), cmd('graph-disputes', 'Open the graph on the disputes'), cmd('verify', 'Check the whole audit chain', 'verify signatures'), cmd('import', 'Import a file…', 'bundle stix prov')];
const ids = (q: string) => matchCommands(q, commands).map((c) => c.id);

describe('matchCommands', () => {
  it('matches every typed word to the start of a word of the label or keywords, in the given order', () => {
    expect(ids('go dis')).toEqual(['disputes']);
    expect(ids('disp')).toEqual(['disputes', 'graph-disputes']);
    expect(ids('VERIFY')).toEqual(['verify']);
    expect(ids('aud ch')).toEqual(['verify']);
    expect(ids('stix')).toEqual(['import']);
  });

  it('lists everything for an empty query and nothing for a word no command has', () => {
    expect(ids('  ')).toEqual(commands.map((c) => c.id));
    expect(ids('putes')).toEqual([]);
    expect(ids('go nowhere')).toEqual([]);
  });
});
