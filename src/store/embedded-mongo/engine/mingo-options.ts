import type { Options } from 'mingo/types';

/**
 * Options for every mingo call. Scripts (`$where`, `$function`, `$accumulator`) are disabled:
 * clients are not trusted to run JavaScript inside the server.
 */
export const MINGO_OPTIONS: Partial<Options> = Object.freeze({ scriptEnabled: false, useStrictMode: true });
