import { ANALYTICS_SESSION_PATH_CAP } from '#shared/constants';

/** FNV-1a, 32 bits: a path's key in a session's set (a collision only lets one path through as "seen"). */
function pathKey(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Caps the distinct page paths one analytics session may create: its first `pathsPerSession`
 * paths are stored as they are, and its events on any other path are counted under one path
 * (`otherPath`). So a client inventing paths adds at most that many rows per session and hour
 * to the page rollup, and the event is still stored and answered, so a tracker never breaks.
 * Counted in memory per process, like the per-IP limit, for the `maxSessions` most recent
 * sessions at most (at least half as many; a forgotten session starts afresh): about 8 bytes
 * per path, under 10 MB in all. Two generations of a Map rather than one Map re-inserted on
 * every use: deleting from a Map leaves holes its iterator must step over, so that kind of
 * LRU cost more per event than the rest of the event's bookkeeping.
 */
export class SessionPaths {
  private current = new Map<string, Set<number>>();
  private previous = new Map<string, Set<number>>();
  private readonly generationSize: number;

  constructor(
    private readonly pathsPerSession: number = ANALYTICS_SESSION_PATH_CAP.pathsPerSession,
    maxSessions = 20_000,
    readonly otherPath: string = ANALYTICS_SESSION_PATH_CAP.otherPath,
  ) {
    this.generationSize = Math.max(1, Math.floor(maxSessions / 2));
  }

  /** The path to store for this event of this session. */
  pathFor(sessionId: string, path: string): string {
    let paths = this.current.get(sessionId);
    if (!paths) {
      paths = this.previous.get(sessionId) ?? new Set();
      // A full generation becomes the previous one; the one before is forgotten.
      if (this.current.size >= this.generationSize) {
        this.previous = this.current;
        this.current = new Map();
      }
      this.current.set(sessionId, paths);
    }
    const key = pathKey(path);
    if (paths.has(key)) return path;
    if (paths.size >= this.pathsPerSession) return this.otherPath;
    paths.add(key);
    return path;
  }
}
