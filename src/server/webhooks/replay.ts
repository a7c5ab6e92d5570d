import type { Db } from '../db/client.ts';
import { replayDelivery } from '../db/queries/webhook-deliveries-queries.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * An owner replays a delivery (POST /api/webhooks/{id}/deliveries/{delivery_id}/replay): its
 * event is queued again as a new delivery, with the same webhook-id and the same frozen body, so
 * a receiver that saw it already can tell. 404 for a delivery not of that endpoint; 409 for an
 * event about a lead erased since (nothing is left to send). Answers the new delivery's id.
 */
export async function replay(db: Db, endpointId: string, deliveryId: string, now = new Date()): Promise<string> {
  const replayed = await replayDelivery(db, endpointId, deliveryId, now);
  if (replayed === 'not_found') throw new AppError('not_found', 'Delivery not found.');
  if (replayed === 'erased') throw new AppError('conflict', 'This event was about a lead who was erased: there is nothing left to send.');
  return replayed;
}
