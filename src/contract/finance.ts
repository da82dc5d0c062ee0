/**
 * The finance workspace: month-end close and the P&L dashboard.
 * Part of the sidebar contract: JSON-safe, as everything crossing google.script.run.
 */
import type { ClosedMonthView } from './closed-month-text';

/** A closed month in the sidebar: "October changed by −$312.40 net profit since you closed it". */
export interface ClosedMonthLine extends ClosedMonthView {
  text: string;
}

/** What closeMonth answers (the sidebar asks before replacing when status is 'confirm'). */
export interface CloseMonthResult {
  status: 'closed' | 'confirm' | 'refused';
  month: string | null;
  message: string;
  sheetName: string | null;
}

/** What insertDashboard answers. */
export interface DashboardResult {
  status: 'inserted' | 'updated' | 'refused';
  message: string;
  charts: number;
}

export interface CloseMonthRequest {
  /** YYYY-MM */
  month: string;
  /** Replace the snapshot of a month closed already (after the user confirmed). */
  replace?: boolean;
}
