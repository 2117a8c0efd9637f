// Injected by server/sw-plugin.ts (same value in the service worker build).
declare const __MRTR_BUILD_ID__: string;
