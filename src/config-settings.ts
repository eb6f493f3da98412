/**
 * The building blocks of the configuration schema (src/config.ts): the shape of one setting and
 * the parsers settings are made from. Each parser also says, for the README's generated table,
 * what it accepts.
 */

// ---------------------------------------------------------------------------
// The shape of a setting, and the parsers settings are built from.
// ---------------------------------------------------------------------------

/** What a value's validity may depend on besides the value itself. */
export interface ParseContext {
  /** Development mode (see `Config.devMode`): plain-http loopback issuer URLs are accepted in it. */
  readonly devMode: boolean;
}

export interface Setting<T> {
  /** The kind of parser, for readers of the schema. */
  readonly kind: 'integer' | 'url' | 'enum' | 'text' | 'secret' | 'json' | 'custom';
  /** The value when the variable is unset or blank. */
  readonly fallback: T;
  /**
   * Parses the trimmed, non-blank value. Throws `Invalid` with what follows the
   * variable's name in the ConfigError (`must be …`).
   */
  parse(raw: string, context: ParseContext): T;
  /** README, "Default" column (Markdown). */
  readonly defaultText: string;
  /** README, "Accepted values" column (Markdown): what `parse` accepts. */
  readonly accepts: string;
  /** README, "Meaning" column: one line of Markdown. */
  readonly meaning: string;
  /** The value is or may hold a credential: no error message repeats it. */
  readonly sensitive?: true;
}

/** A refused value; `read` turns it into a ConfigError naming the variable. */
export class Invalid extends Error {}

export const code = (value: string | number) => `\`${value}\``;

export interface Documented {
  meaning: string;
  defaultText?: string;
}

/** A whole number in [min, max]; `unit` (e.g. "seconds") only changes the documentation. */
export function integer(o: Documented & { fallback: number; min: number; max?: number; unit?: string }): Setting<number> {
  const max = o.max ?? Number.MAX_SAFE_INTEGER;
  const range = o.max === undefined ? `≥ ${o.min}` : `${o.min}–${o.max}`;
  return {
    kind: 'integer',
    fallback: o.fallback,
    parse(raw) {
      if (!/^\d+$/.test(raw)) throw new Invalid(`must be a whole number, got "${raw}"`);
      const value = Number(raw);
      if (value < o.min || value > max) throw new Invalid(`must be between ${o.min} and ${max}, got ${value}`);
      return value;
    },
    defaultText: o.defaultText ?? code(o.fallback),
    accepts: o.unit ? `whole ${o.unit}, ${range}` : `whole number, ${range}`,
    meaning: o.meaning,
  };
}

/** Whole seconds: the durations of this service are all configured in seconds. */
export const seconds = (o: Documented & { fallback: number; min: number; max?: number }) => integer({ ...o, unit: 'seconds' });

/** An optional absolute URL with one of `protocols` (e.g. `['redis:', 'rediss:']`). */
export function url(o: Documented & { protocols: string[]; defaultText: string; sensitive?: true }): Setting<string | undefined> {
  return {
    kind: 'url',
    fallback: undefined,
    parse(raw) {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        // Not the value: it may hold a password.
        throw new Invalid('must be a URL');
      }
      if (!o.protocols.includes(parsed.protocol)) {
        throw new Invalid(`must use ${o.protocols.join(' or ')} (got ${parsed.protocol})`);
      }
      return raw;
    },
    defaultText: o.defaultText,
    accepts: `${o.protocols.map((p) => code(`${p}//…`)).join(' or ')} URL`,
    meaning: o.meaning,
    ...(o.sensitive ? { sensitive: true as const } : {}),
  };
}

export function oneOf<const V extends string>(o: Documented & { values: readonly V[]; fallback: V }): Setting<V> {
  return {
    kind: 'enum',
    fallback: o.fallback,
    parse(raw) {
      if (!(o.values as readonly string[]).includes(raw)) throw new Invalid(`must be one of ${o.values.join(', ')}`);
      return raw as V;
    },
    defaultText: o.defaultText ?? code(o.fallback),
    accepts: o.values.map(code).join(', '),
    meaning: o.meaning,
  };
}

/** Free text, trimmed. */
export function text<T extends string | undefined>(o: Documented & { fallback: T; accepts: string; sensitive?: true }): Setting<string | T> {
  return {
    kind: 'text',
    fallback: o.fallback,
    parse: (raw) => raw,
    defaultText: o.defaultText ?? (o.fallback === undefined ? 'unset' : code(o.fallback)),
    accepts: o.accepts,
    meaning: o.meaning,
    ...(o.sensitive ? { sensitive: true as const } : {}),
  };
}

/** An optional secret of at least `minLength` characters; `printable`: visible ASCII only (no spaces). */
export function secret(o: Documented & { minLength: number; printable?: boolean; refusal: string; defaultText: string }): Setting<string | undefined> {
  return {
    kind: 'secret',
    fallback: undefined,
    parse(raw) {
      if (raw.length < o.minLength || (o.printable && !/^[\x21-\x7e]+$/.test(raw))) throw new Invalid(o.refusal);
      return raw;
    },
    defaultText: o.defaultText,
    accepts: `secret, at least ${o.minLength} ${o.printable ? 'printable characters, no spaces' : 'characters'}`,
    meaning: o.meaning,
    sensitive: true,
  };
}

/** A JSON value checked by `check`, which throws an Error saying what is wrong. */
export function json<T>(o: Documented & { fallback: T; accepts: string; defaultText: string; check: (raw: string, context: ParseContext) => T }): Setting<T> {
  return {
    kind: 'json',
    fallback: o.fallback,
    parse(raw, context) {
      try {
        return o.check(raw, context);
      } catch (error) {
        throw new Invalid((error as Error).message);
      }
    },
    defaultText: o.defaultText,
    accepts: o.accepts,
    meaning: o.meaning,
  };
}

/** A setting whose parser is its own. */
export const custom = <T>(setting: Omit<Setting<T>, 'kind'>): Setting<T> => ({ kind: 'custom', ...setting });
