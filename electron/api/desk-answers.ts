// The API on a machine joined to a team desk (docs/desk.md): `nexus approve|deny ID` and the window answer any
// card of the desk. A card this machine owns is answered here as before; any other id is sent to the desk as
// this machine's person, and its owner applies the first answer it commits. `deskRecord` reads the whole desk's record.
// The seat may be joined or left while NEXUS runs (Settings ▸ Desk): the desk is asked for at each call.
import type { DeskClient } from '../desk/client.js';
import type { Db } from '../store/db.js';
import { getInboxItem } from '../store/queries/inbox.js';
import { ApiFailure, errorMessage } from '../../shared/errors.js';
import type { Handlers } from './dispatch.js';

const NOT_JOINED = 'This NEXUS is not joined to a team desk (nexus serve --desk URL --machine NAME; docs/desk.md).';

/** Postgres's own words for a refusal (row-level security, a missing grant): the person may not answer it. */
const refused = (e: unknown) => typeof e === 'object' && e !== null && 'code' in e && e.code === '42501';

async function deskAnswer(desk: DeskClient, id: string, verdict: 'approve' | 'deny', reason: string | null) {
  try {
    const out = await desk.answerAndWait(id, verdict, reason);
    return { id, state: out.status === 'pending' ? 'answer_sent' : out.status, machine: out.machine };
  } catch (e) {
    const why = errorMessage(e);
    if (refused(e)) throw new ApiFailure('forbidden', `The desk refused the answer: ${desk.opts.person} may not answer card ${id} (${why}).`);
    if (/^no desk card/.test(why)) throw new ApiFailure('not_found', `No inbox card ${JSON.stringify(id)} here or at the desk.`);
    if (/no desk person/.test(why)) throw new ApiFailure('not_available', why);
    throw new ApiFailure('unavailable', `The desk could not be reached to answer ${id}: ${why}`);
  }
}

export function withDeskAnswers(h: Handlers, deskNow: () => DeskClient | null, db: Db): Handlers {
  const notJoined = () => Promise.reject(new ApiFailure('not_available', NOT_JOINED));
  const mine = (id: string) => getInboxItem(db, id) !== null;
  return {
    ...h,
    inboxApprove: (input, ctx) => {
      const desk = deskNow();
      if (!desk || mine(input.id)) return h.inboxApprove(input, ctx);
      if (input.trust_session)
        throw new ApiFailure('invalid_input', "Trust for this session is for this machine's own agents; answer the desk card without it.");
      return deskAnswer(desk, input.id, 'approve', null);
    },
    inboxDeny: (input, ctx) => {
      const desk = deskNow();
      return !desk || mine(input.id) ? h.inboxDeny(input, ctx) : deskAnswer(desk, input.id, 'deny', input.reason ?? null);
    },
    deskRecord: async ({ view, limit }) => {
      const desk = deskNow();
      if (!desk) return notJoined();
      try {
        return await desk.objects(view, limit);
      } catch (e) {
        throw new ApiFailure('unavailable', `The desk could not be reached: ${errorMessage(e)}`);
      }
    },
  };
}
