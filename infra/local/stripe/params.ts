/**
 * Typed reading of a parsed Stripe request, with Stripe's validation messages
 * ("Missing required param: amount.", "Invalid integer: abc",
 * "Received unknown parameter: foo"). Handlers read everything they accept,
 * then call `done()` before changing any state, so a typo in the product's
 * request fails loudly here just as it would on Stripe.
 */
import { invalidRequest } from './errors';
import { type FormObject, type FormValue, formatPath } from './form';

/** Stripe's metadata semantics: `metadata[k]=` deletes k, `metadata=` clears all. */
export interface MetadataUpdate {
  clear: boolean;
  set: Record<string, string>;
  unset: string[];
}

interface Common {
  required?: boolean;
}

const MAX_INTEGER = 99_999_999_999;

export class Params {
  private readonly used = new Set<string>();
  private readonly children: Params[] = [];

  constructor(
    private readonly data: FormObject,
    private readonly path: readonly string[] = [],
    /** Top-level keys every endpoint tolerates (the SDK may send `expand`). */
    private readonly ignored: readonly string[] = ['expand'],
  ) {}

  name(key: string): string {
    return formatPath([...this.path, key]);
  }

  has(key: string): boolean {
    return this.data[key] !== undefined;
  }

  private raw(key: string, options: Common = {}): FormValue | undefined {
    this.used.add(key);
    const value = this.data[key];
    if (value === undefined && options.required) {
      throw invalidRequest(`Missing required param: ${this.name(key)}.`, this.name(key), 'parameter_missing');
    }
    return value;
  }

  private scalar(key: string, options: Common = {}): string | undefined {
    const value = this.raw(key, options);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${this.name(key)}`, this.name(key));
    return value;
  }

  /** A string; an empty value counts as absent (use `nullableString` where '' unsets). */
  string(key: string, options: Common & { maxLength?: number } = {}): string | undefined {
    const value = this.scalar(key, options);
    if (value === undefined || value === '') {
      if (options.required) {
        throw invalidRequest(
          `Missing required param: ${this.name(key)}.`,
          this.name(key),
          'parameter_missing',
        );
      }
      return undefined;
    }
    if (options.maxLength !== undefined && value.length > options.maxLength) {
      throw invalidRequest(
        `Invalid ${this.name(key)}: must be at most ${options.maxLength} characters`,
        this.name(key),
        'string_length_exceeded',
      );
    }
    return value;
  }

  /** undefined = not sent, null = sent empty (Stripe unsets the field), else the value. */
  nullableString(key: string, options: { maxLength?: number } = {}): string | null | undefined {
    const value = this.scalar(key);
    if (value === undefined) return undefined;
    if (value === '') return null;
    return this.string(key, options);
  }

  integer(key: string, options: Common & { min?: number; max?: number } = {}): number | undefined {
    const value = this.scalar(key, options);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw invalidRequest(`Invalid integer: ${value}`, this.name(key));
    const n = Number(value);
    const min = options.min ?? -MAX_INTEGER;
    const max = options.max ?? MAX_INTEGER;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw invalidRequest(
        `Invalid integer: ${this.name(key)} must be between ${min} and ${max}`,
        this.name(key),
      );
    }
    return n;
  }

  boolean(key: string, options: Common = {}): boolean | undefined {
    const value = this.scalar(key, options);
    if (value === undefined) return undefined;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw invalidRequest(`Invalid boolean: ${value}`, this.name(key));
  }

  enum<T extends string>(key: string, values: readonly T[], options: Common = {}): T | undefined {
    const value = this.string(key, options);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      throw invalidRequest(
        `Invalid ${this.name(key)}: must be one of ${values.join(', ')}`,
        this.name(key),
        'parameter_invalid_string',
      );
    }
    return value as T;
  }

  /** A nested hash, read with the same rules (unknown keys inside are refused too). */
  object(key: string, options: Common = {}): Params | undefined {
    const value = this.raw(key, options);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw invalidRequest(`Invalid object: ${this.name(key)}`, this.name(key));
    }
    const child = new Params(value, [...this.path, key], []);
    this.children.push(child);
    return child;
  }

  /**
   * An array, sent as `k[]=a&k[]=b` or `k[0]=a&k[1]=b`. `k=` (empty) is an
   * empty array, which is how Stripe clients clear a list.
   */
  private array(key: string): FormValue[] | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (value === '') return [];
    if (Array.isArray(value)) return value;
    if (typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.every((k) => /^\d+$/.test(k))) {
        return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k] as FormValue);
      }
    }
    throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
  }

  stringArray(key: string): string[] | undefined {
    const items = this.array(key);
    if (items === undefined) return undefined;
    return items.map((item, i) => {
      if (typeof item !== 'string') {
        throw invalidRequest(`Invalid string: ${this.name(key)}[${i}]`, `${this.name(key)}[${i}]`);
      }
      return item;
    });
  }

  objectArray(key: string): Params[] | undefined {
    const items = this.array(key);
    if (items === undefined) return undefined;
    return items.map((item, i) => {
      if (typeof item !== 'object' || Array.isArray(item)) {
        throw invalidRequest(`Invalid object: ${this.name(key)}[${i}]`, `${this.name(key)}[${i}]`);
      }
      const child = new Params(item, [...this.path, key, String(i)], []);
      this.children.push(child);
      return child;
    });
  }

  /** Stripe's metadata limits: 50 keys, keys up to 40 characters, values up to 500. */
  metadata(key = 'metadata'): MetadataUpdate | undefined {
    const value = this.raw(key);
    if (value === undefined) return undefined;
    if (value === '') return { clear: true, set: {}, unset: [] };
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw invalidRequest(`Invalid object: ${this.name(key)}`, this.name(key));
    }
    const update: MetadataUpdate = { clear: false, set: {}, unset: [] };
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') {
        throw invalidRequest(`Invalid string: ${this.name(key)}[${k}]`, `${this.name(key)}[${k}]`);
      }
      if (k.length > 40)
        throw invalidRequest(`Metadata keys can have up to 40 characters: ${k}`, this.name(key));
      if (v.length > 500) {
        throw invalidRequest(
          `Metadata values can have up to 500 characters: ${k}`,
          `${this.name(key)}[${k}]`,
        );
      }
      if (v === '') update.unset.push(k);
      else update.set[k] = v;
    }
    if (Object.keys(update.set).length > 50) {
      throw invalidRequest('You can only specify up to 50 metadata keys.', this.name(key));
    }
    return update;
  }

  /** Refuses any parameter no reader asked for, here and in every nested hash read. */
  done(): void {
    for (const key of Object.keys(this.data)) {
      if (!this.used.has(key) && !this.ignored.includes(key)) {
        throw invalidRequest(`Received unknown parameter: ${this.name(key)}`, this.name(key));
      }
    }
    for (const child of this.children) child.done();
  }
}

export function applyMetadata(current: Record<string, string>, update: MetadataUpdate | undefined) {
  if (!update) return current;
  const next: Record<string, string> = update.clear ? {} : { ...current };
  for (const k of update.unset) delete next[k];
  Object.assign(next, update.set);
  return next;
}
