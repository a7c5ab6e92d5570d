import { describe, expect, it } from 'vitest';
import { LEAD_STAGE_MESSAGES, stageChangeRefusal, type StageFacts } from './lead-stage-change.ts';

const contacted: StageFacts = { status: 'Contacted', stage_id: 's-contacted', stage_status: null, stage_name: null, reason_known: false };
const toStage = (status: string, name = status): Partial<StageFacts> => ({ stage_status: status, stage_name: name });

describe('stageChangeRefusal', () => {
  it('lets a lead move to a stage that exists, with or without a status that agrees', () => {
    expect(stageChangeRefusal({ stage_id: 's-won' }, { ...contacted, ...toStage('Converted', 'Won') })).toBeUndefined();
    expect(stageChangeRefusal({ stage_id: 's-won', status: 'Converted' }, { ...contacted, ...toStage('Converted') })).toBeUndefined();
  });

  it('refuses a stage that does not exist, or one that disagrees with the status or "contacted" sent with it', () => {
    expect(stageChangeRefusal({ stage_id: 's-gone' }, contacted)).toEqual({ field: 'stage_id', message: LEAD_STAGE_MESSAGES.noSuchStage });
    expect(stageChangeRefusal({ stage_id: 's-won', status: 'New' }, { ...contacted, ...toStage('Converted', 'Won') })).toEqual({
      field: 'status',
      message: 'The stage “Won” belongs to Converted, not New',
    });
    expect(stageChangeRefusal({ stage_id: 's-new', contacted: true }, { ...contacted, ...toStage('New', 'Fresh') })).toEqual({
      field: 'contacted',
      message: 'The stage “Fresh” belongs to New',
    });
  });

  it('takes a known lost reason with a Lost stage or status, and refuses an unknown one or one without a loss', () => {
    const lost = { ...contacted, ...toStage('Dropped', 'Lost'), reason_known: true };
    expect(stageChangeRefusal({ stage_id: 's-lost', lost_reason: 'Price' }, lost)).toBeUndefined();
    expect(stageChangeRefusal({ status: 'Dropped', lost_reason: 'Price' }, { ...contacted, reason_known: true })).toBeUndefined();
    expect(stageChangeRefusal({ stage_id: 's-lost', lost_reason: 'Whim' }, { ...lost, reason_known: false })).toEqual({
      field: 'lost_reason',
      message: LEAD_STAGE_MESSAGES.unknownLostReason,
    });
    expect(stageChangeRefusal({ lost_reason: 'Price' }, { ...contacted, reason_known: true })).toEqual({
      field: 'lost_reason',
      message: LEAD_STAGE_MESSAGES.lostReasonNotLost,
    });
  });

  it('asks for the reason again when a lead moves into another Lost stage, not when it stays', () => {
    const lostLead = { ...contacted, status: 'Dropped', stage_id: 's-lost-a' };
    expect(stageChangeRefusal({ stage_id: 's-lost-b' }, { ...lostLead, ...toStage('Dropped', 'Lost B') })).toEqual({
      field: 'lost_reason',
      message: LEAD_STAGE_MESSAGES.lostReasonRequired,
    });
    expect(stageChangeRefusal({ stage_id: 's-lost-a' }, { ...lostLead, ...toStage('Dropped', 'Lost A') })).toBeUndefined();
  });

  it('reads "contacted" as the status it makes: a New lead marked contacted is Contacted, so no lost reason goes with it', () => {
    const fresh = { ...contacted, status: 'New', reason_known: true };
    expect(stageChangeRefusal({ contacted: true, lost_reason: 'Price' }, fresh)?.message).toBe(LEAD_STAGE_MESSAGES.lostReasonNotLost);
    expect(stageChangeRefusal({ contacted: false }, fresh)).toBeUndefined();
  });
});
