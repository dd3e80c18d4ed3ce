/** A parsed JSON body as a test reads it: any field, unchecked (the assertions do the checking). */

export type Json = Record<string, any>;
