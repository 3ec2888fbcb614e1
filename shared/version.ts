// The NEXUS version, taken from package.json when the code is built (scripts/build.mjs and vitest.config.ts
// define __NEXUS_VERSION__), so `nexus --version`, `nexus status` and the window agree with the package.
declare const __NEXUS_VERSION__: string | undefined;

/** "0.0.0-dev" only when running unbuilt source outside the test runner (tsx). */
export const NEXUS_VERSION: string = typeof __NEXUS_VERSION__ === 'string' ? __NEXUS_VERSION__ : '0.0.0-dev';
