// Every schema migration, in order. Adding one is ONE line here plus its file (slots: 001 kernel,
// 002 agents/conversation, 003 governance, 004+ whoever needs one next). Versions are unique and increasing.
import type { Migration } from './types.js';
import m001 from './001_kernel.js';
import m002 from './002_agents.js';
import m003 from './003_governance.js';
import m004 from './004_entitlement_source.js';
import m005 from './005_processes.js';
import m006 from './006_paging_indexes.js';
import m007 from './007_desk_outbox.js';
import m008 from './008_open_tasks.js';
import m009 from './009_desk_record.js';
import m010 from './010_hop_numbers.js';

export const MIGRATIONS: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010];
