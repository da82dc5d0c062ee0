/**
 * The sidebar's Finance card: Insert P&L dashboard, the closed months with what moved in them
 * since closing, and Close a month (asking before replacing a month closed already). The main
 * script calls renderFinance(state) with every state and wireFinance(actions) once.
 */
import type { SidebarState } from '../contract/sidebar';
import { byId, element, setText, show } from './dom';
import { call } from './server';

export interface FinanceActions {
  /** Runs one user action the way every sidebar action runs (busy state, failures shown). */
  perform(label: string, what: string, action: () => Promise<string>): Promise<void>;
  /** Reads the sidebar state again and shows it. */
  reload(): Promise<void>;
}

let pendingReplace: string | null = null;

export function renderFinance(state: SidebarState): void {
  const connected = state.connection.state === 'connected';
  show('finance-card', connected);
  const lines = state.closedMonths ?? [];
  const list = byId('closed-months');
  list.replaceChildren(
    ...lines.map((line) => {
      const item = element('li', line.changedValues > 0 ? 'restated' : 'unchanged', line.text);
      item.dataset.month = line.month;
      return item;
    }),
  );
  show('closed-months', lines.length > 0);
  const input = byId<HTMLInputElement>('close-month');
  if (!input.value) input.value = previousMonth();
}

function previousMonth(): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

function closeMonthNow(actions: FinanceActions, replace: boolean): Promise<void> {
  const month = replace && pendingReplace ? pendingReplace : byId<HTMLInputElement>('close-month').value;
  show('close-confirm', false);
  return actions.perform('Closing the month…', 'close the month', async () => {
    const result = await call('closeMonth', { month, replace });
    setText('finance-result', result.message);
    if (result.status === 'confirm') {
      pendingReplace = result.month;
      setText('close-question', result.message);
      show('close-confirm', true);
      return 'Waiting for your answer.';
    }
    pendingReplace = null;
    if (result.status === 'closed') await actions.reload();
    return result.status === 'closed' ? 'Month closed.' : 'The month was not closed.';
  });
}

export function wireFinance(actions: FinanceActions): void {
  byId('insert-dashboard').addEventListener('click', () => {
    void actions.perform('Inserting the dashboard…', 'insert the dashboard', async () => {
      const result = await call('insertDashboard');
      setText('finance-result', result.message);
      return result.status === 'refused' ? 'The dashboard was not inserted.' : 'Dashboard ready.';
    });
  });
  byId('close-month-button').addEventListener('click', () => void closeMonthNow(actions, false));
  byId('close-replace').addEventListener('click', () => void closeMonthNow(actions, true));
  byId('close-keep').addEventListener('click', () => {
    pendingReplace = null;
    show('close-confirm', false);
    setText('finance-result', 'The closed snapshot was kept.');
  });
}
