// Canonical JSON: objects with their keys sorted (by UTF-16 code unit, like Array.prototype.sort), no
// whitespace, arrays in order. Two inputs that mean the same call serialize the same, so a held hop's
// identical retry finds its answer whatever order the model wrote the keys in. Pure.

export function canonicalJson(value: unknown): string {
  return write(value, []);
}

// Built with string appends and an ancestor stack (no Set, no arrays of parts): it runs on every governed hop.
function write(v: unknown, ancestors: object[]): string {
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
      if (ancestors.includes(v)) throw new TypeError('canonicalJson: circular structure');
      ancestors.push(v);
      try {
        let out: string;
        if (Array.isArray(v)) {
          out = '[';
          for (let i = 0; i < v.length; i++) {
            const x: unknown = v[i];
            out += (i ? ',' : '') + (x === undefined ? 'null' : write(x, ancestors));
          }
          return `${out}]`;
        }
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o).sort();
        out = '{';
        for (const k of keys) {
          const x = o[k];
          if (x === undefined || typeof x === 'function') continue;
          out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${write(x, ancestors)}`;
        }
        return `${out}}`;
      } finally {
        ancestors.pop();
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
