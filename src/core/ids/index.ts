// The door of ids: new ids, and records keyed by ids that come from users.
export { idRecord, newId } from './ids.ts';
