import type { BoardCursor } from '../db/queries/pipeline-board-queries.ts';

/**
 * Where a column of the board goes on from (docs/product-rules.md, "The board", Show more): an
 * opaque cursor naming the last card shown, its time in the stage to the microsecond and its id,
 * so a card moved meanwhile never makes a page repeat or skip another. Only a cursor the board
 * handed out is taken.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MICRO_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const encodeCursor = (c: BoardCursor) => Buffer.from(`${c.at}|${c.id}`).toString('base64url');

/** The cursor's parts, or undefined when it is not one the board handed out. */
export function decodeCursor(cursor: string): BoardCursor | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !id || !MICRO_ISO.test(at) || !UUID.test(id)) return undefined;
  // A date the calendar does not have (Feb 30, which Date.parse rolls over) would fail in the database: refuse it here.
  const ms = Date.parse(at);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== at.slice(0, 19) ? undefined : { at, id };
}
