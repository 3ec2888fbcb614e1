// The one API (DESIGN §1): every method and every pushed event. Doors only carry it.
import { z } from 'zod';
import type { InputOf, OutputOf, Result } from './contract.js';
import { rulesMethods } from './rules.js';
import { kernelMethods } from './kernel.js';
import { InboxItem } from './inbox.js';
import { orchestrationMethods } from './orchestration.js';
import { demoMethods } from './demo.js';
import { keysMethods } from './keys.js';
import { externalMethods } from './external.js';
import { modelsMethods } from './models.js';
import { deskMethods } from './desk.js';
import { deskRecordMethods } from './desk-record.js';
import type { ListedMethodName } from './method-names.js';

export * from './contract.js';

export const methods = {
  ...rulesMethods,
  ...kernelMethods,
  ...orchestrationMethods,
  ...demoMethods,
  ...keysMethods,
  ...externalMethods,
  ...modelsMethods,
  ...deskMethods,
  ...deskRecordMethods,
};
export type Methods = typeof methods;
export type MethodName = keyof Methods;
/** The methods the hook credential may call, read off the contract's marks (never a list kept elsewhere). */
export const HOOK_METHODS: ReadonlySet<string> = new Set(Object.entries(methods).flatMap(([name, spec]) => ('hook' in spec && spec.hook ? [name] : [])));
/** Methods that only read (readMethod in the contract): the socket's peer check lets them pass unnamed. */
export const READ_METHODS: ReadonlySet<string> = new Set(Object.entries(methods).flatMap(([name, spec]) => ('read' in spec && spec.read ? [name] : [])));
/** What a method takes and answers, by name (the CLI and the window name their types this way). */
export type MethodInput<K extends MethodName> = InputOf<Methods[K]>;
export type MethodOutput<K extends MethodName> = OutputOf<Methods[K]>;

// The names live apart from the schemas (method-names.ts) so a caller can send them without loading zod;
// this fails the type check unless they are exactly the table's methods (the test checks their order).
export { METHOD_NAMES } from './method-names.js';
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesAreTheMethods: Exactly<ListedMethodName, MethodName> = true;
void namesAreTheMethods;

/** Events the kernel pushes to every window; the UI never polls. */
export const NexusEvent = z.discriminatedUnion('type', [
  /**
   * The inbox changed. With `added`/`removed` the event is the change itself (cards added whole, closed ones by
   * id and how they closed); without them a window refetches the list.
   */
  z.object({
    type: z.literal('inbox_changed'),
    pending: z.number().int(),
    added: z.array(InboxItem).optional(),
    removed: z.array(z.object({ id: z.string(), status: z.string() })).optional(),
  }),
  z.object({ type: z.literal('work_available'), kind: z.string(), item_id: z.string(), agent: z.string().nullable(), title: z.string() }),
  z.object({ type: z.literal('run_event'), run_id: z.string(), event: z.string(), data: z.unknown().optional() }),
  z.object({ type: z.literal('runs_changed') }),
  z.object({ type: z.literal('agents_changed') }),
  z.object({ type: z.literal('settings_changed') }),
  z.object({ type: z.literal('chains_changed') }),
  /** The desk seat's connection or the desk's cards changed (deskStatus / deskInbox say how). */
  z.object({ type: z.literal('desk_changed') }),
]);
export type NexusEvent = z.infer<typeof NexusEvent>;

/** The typed object the preload exposes as `window.nexus` and the web bridge implements. */
export type NexusApi = {
  [K in MethodName]: (input: InputOf<Methods[K]>) => Promise<Result<OutputOf<Methods[K]>>>;
} & {
  onEvent(listener: (event: NexusEvent) => void): () => void;
};
