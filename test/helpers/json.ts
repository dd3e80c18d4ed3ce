/** A parsed JSON body as a test reads it: any field, unchecked (the assertions do the checking). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;
