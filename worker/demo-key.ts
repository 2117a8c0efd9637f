// The key the embedded demo server signs its requestState tokens with. Not a secret: it is
// public so that verification works on a first visit with no setup. Never use it for a
// real server.
export const DEMO_STATE_KEY = 'mrtr-inspector-demo-key-not-a-secret-0001';
