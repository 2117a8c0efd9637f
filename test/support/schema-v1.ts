// The capture database's version 1 layout (one value per exchange), frozen as builds before
// chunked storage shipped it: never follow later changes here. The upgrade tests write it,
// in Node through fake-indexeddb and in the page's origin in a real browser, and open it
// with this build. Plain data, so a page can be handed it (page.evaluate).

/** An object store of version 1: its key path (none: out-of-line keys) and its indexes. */
export interface V1Store { name: string; keyPath?: string; indexes: [name: string, keyPath: string | string[]][] }

export const SCHEMA_V1: readonly V1Store[] = [
  { name: 'exchanges', keyPath: 'id', indexes: [['by-session-time', ['session', 'startedAt']], ['by-time', 'startedAt']] },
  { name: 'sessions', keyPath: 'id', indexes: [['by-created', 'createdAt']] },
  { name: 'targets', keyPath: 'id', indexes: [['by-url', 'url']] },
  { name: 'settings', indexes: [] },
];
