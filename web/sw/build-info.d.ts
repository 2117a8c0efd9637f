// Injected by server/sw-plugin.ts into both the page build and the service worker build,
// so the two can tell whether they came from the same build.
declare const __MRTR_BUILD_ID__: string;
