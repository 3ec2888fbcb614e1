// What a call would run, shown whole: its input (a long command numbered line by line) and its diff.
import { diffLines, type readableInput } from './cards.js';
import type { InboxItem } from '../../stores/inbox.js';

export function Diff({ diff }: { diff: string }) {
  return (
    <pre className="diff" aria-label="Changes">
      {diffLines(diff).map((l, i) => (
        <div key={i} className={`diff-line ${l.sign === '+' ? 'add' : l.sign === '-' ? 'del' : l.sign === '@' ? 'hunk' : ''}`}>
          <span className="diff-sign" aria-hidden="true">
            {l.sign === '@' ? '' : l.sign}
          </span>
          {l.text || ' '}
        </div>
      ))}
    </pre>
  );
}

interface Props {
  item: InboxItem;
  input: ReturnType<typeof readableInput>;
  /** The title shortened the target: the command is shown here whole. */
  cut: boolean;
}

/** Nothing when the title already said the whole command. */
export function CardInput({ item, input, cut }: Props) {
  if (input.kind === 'command' && input.text === item.target && !cut) return null;
  return (
    <section className="card-section" aria-labelledby={`card-${item.id}-input`}>
      <h3 id={`card-${item.id}-input`}>{input.kind === 'command' ? `Command${cut ? ` (${input.text.split('\n').length} lines)` : ''}` : 'Input'}</h3>
      {input.kind === 'command' && cut ? (
        <pre className="code command-lines" tabIndex={0} aria-labelledby={`card-${item.id}-input`}>
          {input.text.split('\n').map((line, i) => (
            <span key={i} className="code-line">
              <span className="line-no" aria-hidden="true">
                {i + 1}
              </span>
              {line || ' '}
              {'\n'}
            </span>
          ))}
        </pre>
      ) : (
        <pre className={`code ${input.kind}`} tabIndex={0} aria-labelledby={`card-${item.id}-input`}>
          {input.text}
        </pre>
      )}
    </section>
  );
}
