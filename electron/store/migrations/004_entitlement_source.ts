// 004 (GOVERNANCE, account): where the stored entitlement token came from — the account service
// (`entitlementsRefresh`, at start and every 6 h) or a person's `nexus entitlements import FILE`.
// The account credential itself (NEXUS_ACCOUNT_TOKEN) is never stored: it lives only in the environment.
import type { Migration } from './types.js';

const migration: Migration = {
  version: 4,
  name: 'entitlement_source',
  up(db) {
    db.exec(`ALTER TABLE entitlement ADD COLUMN source TEXT NOT NULL DEFAULT 'import' CHECK (source IN ('account','import'));`);
  },
};
export default migration;
