/**
 * The sidebar's script: reads the state once opened, wires every card's controls, and then
 * watches for changes made elsewhere. Connect, Sync now and the watch are in files of their own.
 */
import type { ScheduleRequest } from '../contract/sidebar';
import { byId } from './dom';
import { ordersWindowText, scheduleText, windowDateProblem } from './format';
import { wireFinance } from './finance';
import { wireChecks } from './checks';
import { wireColumns } from './columns';
import { wireDestination } from './destination';
import { connect, wireConnection } from './connect';
import { fillHourOptions, renderFailureNotices, renderSchedule, showHourRow } from './render';
import { call } from './server';
import { apply, perform, session, setBusy } from './session';
import { syncNow, wireSyncNow } from './sync-now';
import { startWatching } from './watch';

const refresh = () =>
  perform('Checking the connection…', 'load the add-on state', async () => {
    const before = session.current ? session.current.connection.state : null;
    const state = await call('getSidebarState');
    apply(state);
    // "Check again" on a problem only the operator can fix: say what the check found.
    if (before === 'operator_problem') {
      return state.connection.state === 'operator_problem'
        ? 'Checked again: the service still refuses this add-on.'
        : 'Checked again: the service accepts this add-on now.';
    }
    return state.schedule.note && state.schedule.note.kind === 'resumed' ? state.schedule.note.message : 'Ready.';
  });

function scheduleRequest(): ScheduleRequest {
  const mode = byId<HTMLSelectElement>('schedule-mode').value;
  if (mode === 'hourly') return { mode: 'hourly' };
  if (mode === 'daily') return { mode: 'daily', hour: Number(byId<HTMLSelectElement>('schedule-hour').value) };
  return { mode: 'off' };
}

const saveSchedule = () =>
  perform('Saving the schedule…', 'save the schedule', async () => {
    const schedule = await call('setSchedule', scheduleRequest());
    renderSchedule(schedule);
    if (session.current) session.current.schedule = schedule;
    return scheduleText(schedule);
  });

const saveFailureNotices = () =>
  perform('Saving…', 'change the failure e-mails', async () => {
    const view = await call('setFailureNotices', byId<HTMLInputElement>('failure-notices').checked);
    renderFailureNotices(view);
    if (session.current) session.current.failureNotices = view;
    return view.on ? `Failure e-mails go to ${view.email ?? 'you'}.` : 'Failure e-mails are off.';
  });

const keepRecentOrders = () =>
  perform('Saving the first day of orders…', 'keep only recent orders', async () => {
    const input = byId<HTMLInputElement>('window-from');
    const chosen = input.value;
    const problem = windowDateProblem(chosen, input.max);
    if (problem) throw new Error(problem);
    apply(await call('setOrdersWindow', { createdAfter: chosen }));
    return `${ordersWindowText(chosen)} Rows already in the sheets stay.`;
  });

function onProblemAction(): void {
  const kind = byId('problem-action').dataset.kind;
  if (kind === 'connect') void connect();
  else if (kind === 'sync') void syncNow();
  else void refresh();
}

function wire(): void {
  fillHourOptions();
  wireConnection();
  wireSyncNow();
  byId('schedule-mode').addEventListener('change', () =>
    showHourRow(byId<HTMLSelectElement>('schedule-mode').value === 'daily'),
  );
  byId('schedule-save').addEventListener('click', () => void saveSchedule());
  byId('failure-notices').addEventListener('change', () => void saveFailureNotices());
  byId('problem-action').addEventListener('click', onProblemAction);
  byId('window-apply').addEventListener('click', () => void keepRecentOrders());
  wireFinance({ perform, reload: async () => apply(await call('getSidebarState')) });
  wireColumns({ perform, apply });
  wireDestination({ perform, reload: async () => apply(await call('getSidebarState')) });
  wireChecks({
    perform,
    reload: async () => apply(await call('getSidebarState')),
    syncNow: () => void syncNow(),
    status: (label) => setBusy(label),
  });
}

wire();
void refresh();
startWatching();
