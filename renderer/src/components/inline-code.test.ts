import { describe, it, expect } from 'vitest';
import { inlineCode } from './inline-code.js';

describe('inline code in guidance text', () => {
  it('turns `spans` into code segments and leaves the rest as text', () => {
    expect(inlineCode('Install Ollama, then `ollama pull llama3.1`. Done.')).toEqual([
      { code: false, text: 'Install Ollama, then ' },
      { code: true, text: 'ollama pull llama3.1' },
      { code: false, text: '. Done.' },
    ]);
    expect(inlineCode('no code here')).toEqual([{ code: false, text: 'no code here' }]);
  });
});
