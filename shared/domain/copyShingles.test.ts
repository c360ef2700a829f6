import { describe, expect, it } from 'vitest';
import { contentSentences, copyShingles } from './copyShingles';

// What copy detection reads of a text (copies.ts takes its signature over these sentences' word
// pairs): the envelope and markup a feed or mailbox adds are not content, identifiers stay whole,
// function words go, and inflections meet. Every rule is checked on ASCII text and, where the
// slower Unicode tokenizer takes over (a non-ASCII letter or digit), on that path too.
describe('contentSentences', () => {
  it('drops mail header lines, quoted or indented, and whole-line forwarding markers', () => {
    expect(contentSentences('From: a@b.c\nSubject: hello there\n\nalpha beta gamma.')).toEqual([['alpha', 'beta', 'gamma']]);
    expect(contentSentences('> From: ops\n  Sent: Monday\nalpha beta')).toEqual([['alpha', 'beta']]);
    expect(contentSentences('---------- Forwarded message ---------\nalpha beta')).toEqual([['alpha', 'beta']]);
    expect(contentSentences('-----Original Message-----  \nalpha beta')).toEqual([['alpha', 'beta']]);
  });

  it('keeps a header word inside a line, and a marker line that goes on with words', () => {
    expect(contentSentences('the payload came from: 10.0.0.1 server')).toEqual([['payload', 'came', '10.0.0.1', 'server']]);
    expect(contentSentences('-- Forwarded message -- see below')).toEqual([['forward', 'messag', 'see']]);
  });

  it('drops reply and forward prefixes at a line start only, with or without a space', () => {
    expect(contentSentences('Fwd: alpha beta\nFW: gamma delta\n> Re: epsilon zeta\nRe:eta theta')).toEqual([
      ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'],
    ]);
    expect(contentSentences('config fwd: enabled')).toEqual([['config', 'fwd', 'enabl']]);
  });

  it('reads markup tags and named, decimal and hex character references as spaces', () => {
    expect(contentSentences('alpha&amp;beta&#39;gamma&#x27;delta')).toEqual([['alpha', 'beta', 'gamma', 'delta']]);
    expect(contentSentences('alpha<br>beta <b>gamma</b>delta')).toEqual([['alpha', 'beta', 'gamma', 'delta']]);
  });

  it('splits sentences at . ! ? ; before a space and at blank lines, keeping identifiers whole', () => {
    expect(contentSentences('alpha beta\n\ngamma delta\n \nepsilon docs.google.com. zeta eta! theta')).toEqual([
      ['alpha', 'beta'],
      ['gamma', 'delta'],
      ['epsilon', 'docs.google.com'],
      ['zeta', 'eta'],
      ['theta'],
    ]);
  });

  it('does the same with non-ASCII letters (the Unicode tokenizer), where a dash is no sentence end', () => {
    expect(
      contentSentences('Der Angreifer übernahm 60.10.1.118 über docs.google.com. Nächster Schritt! Dritter Satz\n\nVierter Absatz\n \nfünfter Teil – sechster'),
    ).toEqual([
      ['der', 'angreifer', 'übernahm', '60.10.1.118', 'über', 'docs.google.com'],
      ['nächster', 'schritt'],
      ['dritter', 'satz'],
      ['vierter', 'absatz'],
      ['fünfter', 'teil', 'sechster'],
    ]);
  });

  it('folds compatibility forms and drops invisible characters in non-ASCII text', () => {
    expect(contentSentences('ｐａｙｌｏａｄ übergabe')).toEqual([['payload', 'übergab']]);
    expect(contentSentences('alpha\u200Bbeta über')).toEqual([['alphabeta', 'über']]);
  });

  it('drops function words from every part of the list, and single letters but not single digits', () => {
    expect(contentSentences('about can herself nor some up yours additionally payload')).toEqual([['payload']]);
    expect(contentSentences('s 5 x 0 9 payload')).toEqual([['5', '0', '9', 'payload']]);
  });

  it('gives no empty sentence for text, or a sentence, of function words only', () => {
    expect(contentSentences('')).toEqual([]);
    expect(contentSentences('The. It was. alpha beta. It is')).toEqual([['alpha', 'beta']]);
  });

  it('strips plurals, -ed, -ing, -ly and a final -e, leaving short words, identifiers and -ss/-us/-is alone', () => {
    const stems = Object.fromEntries(
      'policies ties classes files status analysis bus pass running sing encrypted bed quickly fly delete deleted x7 v2.0 abc mice dns c2servers bring shed holy'
        .split(' ')
        .map((w) => [w, contentSentences(w)[0]?.[0]]),
    );
    expect(stems).toEqual({
      policies: 'policy', ties: 'tie', classes: 'class', files: 'file', status: 'status', analysis: 'analysis', bus: 'bus', pass: 'pass',
      running: 'runn', sing: 'sing', encrypted: 'encrypt', bed: 'bed', quickly: 'quick', fly: 'fly', delete: 'delet', deleted: 'delet',
      x7: 'x7', 'v2.0': 'v2.0', abc: 'abc', mice: 'mice', dns: 'dns', c2servers: 'c2servers',
      bring: 'bring', shed: 'shed', holy: 'holy',
    });
  });
});

describe('copyShingles', () => {
  it('gives a one-word sentence one shingle of its own, and a pair of words one unordered shingle', () => {
    expect(copyShingles('payload').size).toBe(1);
    expect(copyShingles('payload')).not.toEqual(copyShingles('dropper'));
    expect(copyShingles('loader dll').size).toBe(1);
    expect(copyShingles('loader dll')).toEqual(copyShingles('dll loader'));
  });
});
