/**
 * What makes a token renewal safe to start, and what tells an interrupted one from 90 days of
 * disuse afterwards (src/server/auth/renewal-safety.ts), with the words each case is given.
 */
import { describe, expect, it } from 'vitest';
import { messageFor } from '../../src/server/auth/messages';
import {
  IDLE_LAPSE_MS,
  markedAnswerUnread,
  markedForRenewal,
  remainingExecutionMs,
  RENEWAL_RESERVE_MS,
  renewalAnswerWasUnread,
  renewalFits,
  renewalWasInterrupted,
  unusedFor90Days,
  withoutRenewalMark,
} from '../../src/server/auth/renewal-safety';
import { EXECUTION_LIMIT_MS } from '../../src/server/platform/budget';

const STARTED = 1_800_000_000_000;
const store = { id: 'st_1', name: 'Northwind' };

describe('a renewal starts only with the time to finish it (Google ends an execution at 6 minutes)', () => {
  it('fits while 90 s of the execution are left, and not a millisecond later', () => {
    const lastStart = STARTED + EXECUTION_LIMIT_MS - RENEWAL_RESERVE_MS;
    expect(RENEWAL_RESERVE_MS).toBe(90_000);
    expect(renewalFits(STARTED, STARTED)).toBe(true);
    expect(renewalFits(lastStart, STARTED)).toBe(true);
    expect(renewalFits(lastStart + 1, STARTED)).toBe(false);
    expect(remainingExecutionMs(STARTED + EXECUTION_LIMIT_MS + 5_000, STARTED)).toBe(0);
  });
});

describe('the mark of a renewal under way', () => {
  const token = { access_token: 'a', refresh_token: 'r', expires_in: 3600, expiresAt: STARTED / 1000 + 3600 };

  it('is a time beside the token, and is gone from the token saved after the answer', () => {
    const marked = markedForRenewal(token, STARTED);
    expect(renewalWasInterrupted(token)).toBe(false);
    expect(renewalWasInterrupted(marked)).toBe(true);
    expect(marked).toEqual({ ...token, renewalStartedAt: STARTED / 1000 });
    expect(withoutRenewalMark(marked)).toEqual(token);
    expect(renewalWasInterrupted(null)).toBe(false);
  });

  it('notes an unreadable answer beside it, and the saved answer drops both', () => {
    const marked = markedForRenewal(token, STARTED);
    const unread = markedAnswerUnread(marked);
    expect(renewalAnswerWasUnread(marked)).toBe(false);
    expect(renewalAnswerWasUnread(unread)).toBe(true);
    expect(renewalWasInterrupted(unread)).toBe(true);
    expect(renewalAnswerWasUnread({ ...token, renewalAnswerUnread: true })).toBe(false);
    expect(withoutRenewalMark(unread)).toEqual(token);
  });
});

describe('spec 3.2 — 90 days without use, told from the stored token', () => {
  const issuedAt = (ms: number) => ({ refresh_token: 'r', expires_in: 3600, expiresAt: ms / 1000 + 3600 });

  it('unused when the token was issued 90 days ago; used when less; unknown when it does not say', () => {
    expect(unusedFor90Days(issuedAt(STARTED - IDLE_LAPSE_MS), STARTED)).toBe(true);
    expect(unusedFor90Days(issuedAt(STARTED - IDLE_LAPSE_MS + 3_600_000), STARTED)).toBe(false);
    expect(unusedFor90Days({ refresh_token: 'r' }, STARTED)).toBeNull();
  });
});

describe('the message names only what happened', () => {
  it('an interrupted renewal: the stop, the lost renewal, Reconnect; no 90 days', () => {
    const m = messageFor('lapsed', store, 'renewal_interrupted');
    expect(m.action).toBe('reconnect');
    expect(m.message).toContain('was lost while its access was being renewed');
    expect(m.message).toContain('the run was stopped before the add-on could save the new access');
    expect(m.message).toContain(
      "by Google's time limit for one run, by the day's allowance of trigger run time, or by hand",
    );
    expect(m.message).toContain("Google's daily limit on saved settings refused to save it");
    expect(m.message).not.toContain('90 days');
  });

  it('an unreadable answer: says what is known, both ways, not that a run was stopped', () => {
    const m = messageFor('lapsed', store, 'renewal_unanswered');
    expect(m.action).toBe('reconnect');
    expect(m.message).toContain('a renewal of its access got no readable answer');
    expect(m.message).toContain('or its access was ended or replaced in Merchant Analytics');
    expect(m.message).not.toContain('stopped');
  });

  it('90 days unused: says so, and nothing else', () => {
    const m = messageFor('lapsed', store, 'unused_90_days');
    expect(m.message).toContain('it was not used for 90 days');
    expect(m.message).not.toContain('replaced');
  });

  it('refused although used within 90 days: ended or replaced, not disuse', () => {
    const m = messageFor('lapsed', store, 'access_ended');
    expect(m.message).toContain('ended or replaced');
    expect(m.message).not.toContain('not used for 90 days');
  });
});
