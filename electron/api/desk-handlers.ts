// The team desk's methods (shared/api/desk.ts) over this machine's seat (electron/desk/seat.ts). A seat's
// refusal keeps its code (conflict, desk_unreachable, not_joined) and its sentence; a Postgres refusal of an
// answer (row-level security: not this person's team) reads as forbidden.
import { ApiFailure, type Handlers } from './dispatch.js';
import { DeskSeatError, deskErrorSentence, type DeskSeat } from '../desk/seat.js';
import { errorMessage } from '../../shared/errors.js';

const asApi = (e: unknown): never => {
  if (e instanceof DeskSeatError) throw new ApiFailure(e.code, e.message);
  if (e instanceof ApiFailure) throw e;
  const m = errorMessage(e);
  if (/row-level security|permission denied/i.test(m)) throw new ApiFailure('forbidden', `The desk refused: ${m}.`);
  throw new ApiFailure('desk_unreachable', `The desk could not be asked: ${deskErrorSentence(m)}.`);
};

export function deskHandlers(seat: DeskSeat): Pick<Handlers, 'deskStatus' | 'deskJoin' | 'deskLeave' | 'deskInbox' | 'deskAnswer' | 'deskPolicyPush'> {
  return {
    deskStatus: () => seat.status(),
    deskJoin: (a) => seat.join(a).catch(asApi),
    deskLeave: ({ force }) => seat.leave(force ?? false).catch(asApi),
    deskInbox: ({ limit }) => seat.inbox(limit).catch(asApi),
    deskAnswer: async ({ id, verdict, reason }) => {
      try {
        return await seat.answer(id, verdict, reason ?? null);
      } catch (e) {
        if (e instanceof Error && /^no desk card /.test(e.message)) throw new ApiFailure('not_found', `No card ${JSON.stringify(id)} is at the desk.`);
        return asApi(e);
      }
    },
    deskPolicyPush: async () => {
      try {
        return await seat.pushPolicy();
      } catch (e) {
        const m = errorMessage(e);
        const person = seat.status().person;
        if (/no desk person/.test(m)) throw new ApiFailure('forbidden', `The desk's policy was not changed: ${m}.`);
        if (/row-level security|permission denied/i.test(m) || (typeof e === 'object' && e !== null && 'code' in e && e.code === '42501'))
          throw new ApiFailure(
            'forbidden',
            `The desk refused: ${person} is not a member of nexus_policy, so it may not change the desk's policy (nothing was changed).`,
          );
        return asApi(e);
      }
    },
  };
}
