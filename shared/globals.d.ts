// shared/ is checked without DOM and Node types (tsconfig.shared.json). The encoding API is the one global it
// uses: every runtime NEXUS runs on (Node, Electron's main process and renderer, browsers) provides it.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
