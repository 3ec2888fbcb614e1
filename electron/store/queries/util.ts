// Small converters shared by the queries: epoch ms <-> ISO text, JSON columns.
export const iso = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());
export const isoOr = (ms: number): string => new Date(ms).toISOString();
export const parseJson = <T>(text: string | null | undefined, fallback: T): T => (text == null ? fallback : (JSON.parse(text) as T));
export const toJson = (value: unknown): string => JSON.stringify(value === undefined ? null : value);
