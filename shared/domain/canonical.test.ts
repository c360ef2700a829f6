import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('canonicalJson: RFC 8785 vectors', () => {
  it('§3.2.2 sample: literals, numbers, string escapes', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
        '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        '"literals":[null,true,false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('§3.2.3 sorting by UTF-16 code units (control, digit, Latin-1, BMP, surrogate pair, presentation form)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis",' +
        '"€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  // Appendix B: IEEE-754 bit pattern → expected text.
  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('bits %s → %s', (bits, text) => {
    expect(canonicalJson(fromBits(bits))).toBe(text);
  });

  it.each([
    ['7fffffffffffffff', 'NaN'],
    ['7ff0000000000000', '+Infinity'],
    ['fff0000000000000', '-Infinity'],
  ])('bits %s (%s) is refused', (bits) => {
    expect(() => canonicalJson(fromBits(bits))).toThrow('canonicalJson: non-finite number at $');
  });

  it('number edge cases named in the brief', () => {
    expect(canonicalJson([1e21, 1e20, 1e-7, 1e-6, -0, 4.5, 0.1 + 0.2])).toBe(
      '[1e+21,100000000000000000000,1e-7,0.000001,0,4.5,0.30000000000000004]',
    );
  });
});

describe('canonicalJson: structure', () => {
  it('sorts nested keys, keeps array order, emits no whitespace', () => {
    const v = { b: [3, 1, { z: 1, a: [] }], a: { y: null, x: 'x y' }, '': {} };
    expect(canonicalJson(v)).toBe('{"":{},"a":{"x":"x y","y":null},"b":[3,1,{"a":[],"z":1}]}');
  });

  it('sorts integer-like keys as strings, not in JS enumeration order', () => {
    expect(canonicalJson({ 10: 'a', 9: 'b', 1: 'c', a: 'd' })).toBe('{"1":"c","10":"a","9":"b","a":"d"}');
  });

  it('omits undefined object properties so optional fields hash the same present-but-undefined or absent', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
  });

  it('treats __proto__ as an ordinary own key and accepts null-prototype objects', () => {
    const parsed: unknown = JSON.parse('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"a":2}');
    const bare = Object.create(null) as Record<string, unknown>;
    bare.k = 'v';
    expect(canonicalJson(bare)).toBe('{"k":"v"}');
  });

  it('escapes strings exactly like JSON.stringify, including lone surrogates and U+2028', () => {
    const s = 'a"\\\n\t\u0000\u001f\u007f\u2028\ud800x\udfff';
    expect(canonicalJson(s)).toBe(JSON.stringify(s));
    expect(canonicalJson(s)).toContain('\\ud800');
  });

  it('does not call toJSON hooks', () => {
    const sneaky = Object.assign(Object.create({ toJSON: () => 'replaced' }) as object, { a: 1 });
    expect(() => canonicalJson(sneaky)).toThrow(TypeError);
  });
});

describe('canonicalJson: refusals name the path', () => {
  const fn = (): void => undefined;
  it.each<[string, unknown, string]>([
    ['NaN', { a: [0, 1, Number.NaN] }, 'canonicalJson: non-finite number at $.a[2]'],
    ['Infinity', { x: { y: Infinity } }, 'canonicalJson: non-finite number at $.x.y'],
    ['undefined in array', [1, undefined], 'canonicalJson: undefined value in array at $[1]'],
    ['array hole', Object.assign(new Array<unknown>(3), { 0: 1, 2: 3 }), 'canonicalJson: undefined value in array at $[1]'],
    ['undefined at top level', undefined, 'canonicalJson: undefined value at $'],
    ['function', { run: fn }, 'canonicalJson: function at $.run'],
    ['symbol', { 'odd key': Symbol('s') }, 'canonicalJson: symbol at $["odd key"]'],
    ['bigint', { n: [10n] }, 'canonicalJson: bigint at $.n[0]'],
    ['Date', { at: new Date(0) }, 'canonicalJson: Date (pass an ISO-8601 string instead) at $.at'],
    ['Map', { m: new Map([[1, 2]]) }, 'canonicalJson: non-plain object Map at $.m'],
    ['boxed string', [new String('x')], 'canonicalJson: non-plain object String at $[0]'],
    // A class without a usable name is still named as an object, never as a blank.
    ['anonymous class', { v: new (class {})() }, 'canonicalJson: non-plain object object at $.v'],
    ['constructor without a name', { v: Object.create({ constructor: { name: 42 } }) as object }, 'canonicalJson: non-plain object object at $.v'],
  ])('%s', (_label, value, message) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(() => canonicalJson(value)).toThrow(message);
  });

  it('refuses cycles but accepts a shared (non-cyclic) sub-object', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { again: cyclic };
    expect(() => canonicalJson(cyclic)).toThrow('canonicalJson: circular reference at $.self.again');
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"k":1},"b":[{"k":1}]}');
  });
});

describe('canonicalJson: properties', () => {
  const json = fc.jsonValue({ maxDepth: 4 });

  function shuffleKeys(v: unknown, seed: number): unknown {
    if (Array.isArray(v)) return v.map((x, i) => shuffleKeys(x, seed + i));
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v as Record<string, unknown>).map(
      ([k, x], i) => [k, shuffleKeys(x, seed * 31 + i)] as const,
    );
    // Deterministic pseudo-shuffle; Object.fromEntries keeps "__proto__" as an own key.
    entries.sort((p, q) => hash(p[0], seed) - hash(q[0], seed));
    return Object.fromEntries(entries);
  }
  function hash(s: string, seed: number): number {
    let h = seed | 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 2654435761);
    return h;
  }

  it('is a fixed point under parse: canonical(parse(canonical(x))) === canonical(x)', () => {
    fc.assert(
      fc.property(json, (x) => {
        const c = canonicalJson(x);
        expect(canonicalJson(JSON.parse(c))).toBe(c);
      }),
    );
  });

  it('is independent of key insertion order', () => {
    fc.assert(
      fc.property(json, fc.integer(), (x, seed) => {
        expect(canonicalJson(shuffleKeys(x, seed))).toBe(canonicalJson(x));
      }),
    );
  });

  it('means the same value as the input', () => {
    fc.assert(
      fc.property(json, (x) => {
        expect(JSON.parse(canonicalJson(x))).toEqual(JSON.parse(JSON.stringify(x)));
      }),
    );
  });

  it('emits a flat object as sorted "key":value pairs with no whitespace', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean())), (d) => {
        const expected = `{${Object.keys(d)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${JSON.stringify(d[k])}`)
          .join(',')}}`;
        expect(canonicalJson(d)).toBe(expected);
      }),
    );
  });
});
