// Canonical JSON: objects with their keys sorted (by UTF-16 code unit, like Array.prototype.sort), no
// whitespace, arrays in order. Two inputs that mean the same call serialize the same, so a held hop's
// identical retry finds its answer whatever order the model wrote the keys in. Pure.

export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(v: unknown, seen: Set<object>): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(v.toString());
    case 'object': {
      if (seen.has(v)) throw new TypeError('canonicalJson: circular structure');
      seen.add(v);
      try {
        if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : write(x, seen))).join(',')}]`;
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o)
          .filter((k) => o[k] !== undefined && typeof o[k] !== 'function')
          .sort();
        return `{${keys.map((k) => `${JSON.stringify(k)}:${write(o[k], seen)}`).join(',')}}`;
      } finally {
        seen.delete(v);
      }
    }
    default:
      return 'null';
  }
}

/** The hop fingerprint's plain text (hashed by the store side): chain, agent, resolved tool, canonical input. */
export function hopFingerprintText(chain_id: string, agent: string, tool: string, input: unknown): string {
  return canonicalJson([chain_id, agent, tool, input]);
}
