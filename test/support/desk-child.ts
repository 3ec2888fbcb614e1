// Child process for the desk's kill -9 test: machine NAME of the desk at URL_BASE (a role is appended), on DIR;
// parks one card, waits until the desk holds it, prints {row, expires_at} as one JSON line, then waits to be
// SIGKILLed.
import { machine, until } from './desk.js';

const [base, name, role, person, dir] = process.argv.slice(2);
const m = await machine({ url: (r = 'desk_admin') => base.replace('ROLE', r) }, name, role, person, dir);
await until(() => m.desk.status().connected, 20_000, 'joined');
const row = m.park();
await until(async () => (await m.desk.flush(), m.desk.status().outbox_pending === 0), 20_000, 'the card at the desk');
process.stdout.write(`${JSON.stringify({ row: row.id, expires_at: row.expires_at })}\n`);
setInterval(() => {}, 1000);
