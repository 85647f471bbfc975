import { describe, expect, it } from 'vitest';
import { encodeForm, keyPath, parseForm } from '../../infra/local/stripe/form';
import { applyMetadata, Params } from '../../infra/local/stripe/params';

describe("the emulator's form parser (Stripe's bracket notation)", () => {
  it.each([
    ['amount', ['amount']],
    ['metadata[k]', ['metadata', 'k']],
    [
      'spending_controls[spending_limits][0][amount]',
      ['spending_controls', 'spending_limits', '0', 'amount'],
    ],
    ['expand[]', ['expand', '']],
    ['odd[key', ['odd[key']],
    ['[leading]', ['[leading]']],
  ])('splits %j into %j', (key, path) => {
    expect(keyPath(key)).toEqual(path);
  });

  it('nests objects and keeps indexed entries as objects (the endpoint knows which are arrays)', () => {
    const form = parseForm(
      'email=a%40b.co&metadata[team]=t1&metadata[note]=a+b&spending_controls[spending_limits][0][amount]=2500' +
        '&spending_controls[spending_limits][0][interval]=all_time&spending_controls[allowed_categories][0]=book_stores',
    );
    expect(form).toEqual({
      email: 'a@b.co',
      metadata: { team: 't1', note: 'a b' },
      spending_controls: {
        spending_limits: { 0: { amount: '2500', interval: 'all_time' } },
        allowed_categories: { 0: 'book_stores' },
      },
    });
  });

  it('appends `[]` entries to arrays, including arrays of objects', () => {
    expect(parseForm('expand[]=sources&expand[]=default_source')).toEqual({
      expand: ['sources', 'default_source'],
    });
    expect(parseForm('items[][price]=p1&items[][price]=p2')).toEqual({
      items: [{ price: 'p1' }, { price: 'p2' }],
    });
  });

  it('decodes percent-encoded brackets the same as plain ones', () => {
    expect(parseForm('metadata%5Bk%5D=v')).toEqual({ metadata: { k: 'v' } });
  });

  it('lets a repeated plain key win last, and refuses a value mixed with nested keys', () => {
    expect(parseForm('a=1&a=2')).toEqual({ a: '2' });
    expect(() => parseForm('a=1&a[b]=2')).toThrow(/Invalid mix/);
    expect(() => parseForm('a[b]=1&a=2')).toThrow(/Invalid mix/);
    expect(() => parseForm('a[]=1&a[b]=2')).toThrow(/Invalid mix/);
  });

  it('reads back what encodeForm (the SDK encoding) writes', () => {
    const data = {
      cardholder: 'ich_1',
      spending_controls: {
        spending_limits: [{ amount: 100, interval: 'all_time' }],
        allowed_categories: ['book_stores'],
      },
      metadata: { k: 'v & w' },
    };
    const encoded = encodeForm(data);
    expect(encoded).toContain('spending_controls%5Bspending_limits%5D%5B0%5D%5Bamount%5D=100');
    const p = new Params(parseForm(encoded));
    const controls = p.object('spending_controls') as Params;
    const [limit] = controls.objectArray('spending_limits') ?? [];
    expect(limit?.integer('amount')).toBe(100);
    expect(controls.stringArray('allowed_categories')).toEqual(['book_stores']);
  });
});

describe("the emulator's parameter reader (Stripe's validation messages)", () => {
  const params = (body: string) => new Params(parseForm(body));

  it('names a missing required parameter', () => {
    expect(() => params('').integer('amount', { required: true })).toThrow('Missing required param: amount.');
  });

  it('refuses a non-integer and an out-of-range integer, naming the nested parameter', () => {
    const p = params('spending_controls[spending_limits][0][amount]=lots');
    const [limit] = (p.object('spending_controls') as Params).objectArray('spending_limits') ?? [];
    try {
      limit?.integer('amount');
      expect.unreachable();
    } catch (error) {
      expect((error as { body: { param: string } }).body.param).toBe(
        'spending_controls[spending_limits][0][amount]',
      );
    }
    expect(() => params('limit=0').integer('limit', { min: 1, max: 100 })).toThrow(/between 1 and 100/);
  });

  it('reads booleans and enums strictly', () => {
    expect(params('capture=false').boolean('capture')).toBe(false);
    expect(() => params('capture=no').boolean('capture')).toThrow('Invalid boolean: no');
    expect(() => params('type=weird').enum('type', ['individual', 'company'])).toThrow(/must be one of/);
  });

  it('tells "not sent" from "sent empty" (Stripe unsets fields sent empty)', () => {
    expect(params('').nullableString('description')).toBeUndefined();
    expect(params('description=').nullableString('description')).toBeNull();
    expect(params('description=x').nullableString('description')).toBe('x');
  });

  it('refuses unknown parameters, nested ones too, but tolerates expand', () => {
    const p = params('email=a%40b.co&emial=x&expand[0]=sources');
    p.string('email');
    expect(() => p.done()).toThrow('Received unknown parameter: emial');
    const nested = params('billing[address][line1]=1+Main&billing[address][zip]=1');
    const address = (nested.object('billing') as Params).object('address') as Params;
    address.string('line1');
    expect(() => nested.done()).toThrow('Received unknown parameter: billing[address][zip]');
  });

  it('applies metadata as Stripe does: set, unset with an empty value, clear all with metadata=', () => {
    const update = params('metadata[a]=&metadata[c]=3').metadata();
    expect(applyMetadata({ a: '1', b: '2' }, update)).toEqual({ b: '2', c: '3' });
    expect(applyMetadata({ a: '1' }, params('metadata=').metadata())).toEqual({});
    expect(() => params(`metadata[${'k'.repeat(41)}]=v`).metadata()).toThrow(/40 characters/);
  });

  it('turns indexed and [] arrays into lists, and an empty value into an empty list', () => {
    expect(params('a[1]=y&a[0]=x').stringArray('a')).toEqual(['x', 'y']);
    expect(params('a[]=x&a[]=y').stringArray('a')).toEqual(['x', 'y']);
    expect(params('a=').stringArray('a')).toEqual([]);
  });
});
