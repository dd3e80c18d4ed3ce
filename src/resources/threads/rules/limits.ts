/** The bounds of a guild's threads (v10 Threads). */

/**
 * v10's cap on a guild's active (not archived) threads: creating or unarchiving one more answers
 * 160006. Archived threads do not count; a world file's threads do (they have no archived state).
 */
export const MAX_ACTIVE_THREADS = 1000;
