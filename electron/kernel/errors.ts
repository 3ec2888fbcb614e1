// Kernel errors carry a stable code; they ARE ApiFailures, so every door reports the code as is.
import { KernelError } from '../../shared/errors.js';

export { KernelError };

export const notFound = (what: string, id: string) => new KernelError('not_found', `No ${what} ${JSON.stringify(id)}.`);
export const conflict = (message: string) => new KernelError('conflict', message);
