// SPDX-License-Identifier: MIT
// A short, one-line description of a user's value for error messages: `Ball { id: 3, x: NaN, … }`.

const MAX_CHARS = 100;
const MAX_KEYS = 6;

function clip(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'function') return `[function ${v.name || '(anonymous)'}]`;
  if (Object.is(v, -0)) return '-0';
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? '[…]' : '{…}';
}

function describe(v: unknown): string {
  if (v === null || typeof v !== 'object') return scalar(v);
  // an object that names itself (its class has its own toString) says it best
  const toString = (v as { toString?: unknown }).toString;
  if (
    typeof toString === 'function' &&
    toString !== Object.prototype.toString &&
    toString !== Array.prototype.toString
  ) {
    return String(v);
  }
  if (Array.isArray(v)) {
    const items = v.slice(0, MAX_KEYS).map(scalar);
    return `[${items.join(', ')}${v.length > MAX_KEYS ? ', …' : ''}]`;
  }
  const name = Object.getPrototypeOf(v)?.constructor?.name;
  const keys = Object.keys(v);
  const fields = keys.slice(0, MAX_KEYS).map((k) => `${k}: ${scalar((v as Record<string, unknown>)[k])}`);
  const body = fields.length === 0 ? '{}' : `{ ${fields.join(', ')}${keys.length > MAX_KEYS ? ', …' : ''} }`;
  return name && name !== 'Object' ? `${name} ${body}` : body;
}

/** At most 100 characters describing `v`; never throws (a getter or toString that throws gives a generic text). */
export function preview(v: unknown): string {
  try {
    return clip(describe(v));
  } catch {
    return `an object of type ${typeof v}`;
  }
}
