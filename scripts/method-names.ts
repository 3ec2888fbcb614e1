// Writes shared/api/method-names.ts from the contract (see shared/api/method-names-source.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methodNamesSource } from '../shared/api/method-names-source.js';

writeFileSync(join(import.meta.dirname, '..', 'shared', 'api', 'method-names.ts'), methodNamesSource());
