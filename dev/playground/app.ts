/**
 * The playground's web server: the built sidebar (with the google.script.run shim) in an iframe,
 * the workbook's sheets, the emulator's control API and the scheduled trigger, on 127.0.0.1.
 */
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { outlastClientKeepAlive } from '../shared/loopback-server';
import type { Workbook } from '../gas-runtime/spreadsheet/workbook';
import { userEnteredWrite } from '../gas-runtime/spreadsheet/input';
import { drawFinishedExecutions, isDataSourceSheet } from '../gas-runtime/spreadsheet/data-source';
import { chartViews } from './chart-data';
import { FormulaCells } from './formula-cells';
import { customFunctionsOfBundle, globalsOfBundle, injectShim } from './gas-shim';
import { deleteRow, insertColumnBefore, renameSheet } from './grid-edit';
import { gridSheets, gridWindow } from './grid-view';
import { orderIdFor, type OrderRef } from './order-ref';
import { ensureReportSheet } from './report-sheet';
import type { PlaygroundStack, RunReply, RunResultLike } from './types';
import { workbookView } from './workbook-view';

export interface PlaygroundOptions {
  stack: PlaygroundStack;
  /** dist/ holding Sidebar.html and Code.js */
  distDir: string;
  /** 0 = an ephemeral port (tests). */
  port?: number;
}

export interface Playground {
  url: string;
  stack: PlaygroundStack;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** The emulator's per-order controls, whose order the page names as typed (an id or the sheet's #number). */
const ORDER_CONTROL = /^\/_emulator\/orders\/([^/]+)\/(change|patch|vanish)$/;

class BadRequest extends Error {}

async function readJson(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest('Request body too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new BadRequest('Expected a JSON object.');
    return value as Record<string, unknown>;
  } catch (error) {
    if (error instanceof BadRequest) throw error;
    throw new BadRequest('The request body is not valid JSON.');
  }
}

function send(response: http.ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(body);
}

function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** An execution result as google.script.run delivers it: a value, or an Error with Google's message. */
function replyOf(result: RunResultLike): RunReply {
  if (result.timedOut) return { ok: false, error: { name: 'ScriptError', message: 'Exceeded maximum execution time' } };
  if (!result.ok) return { ok: false, error: result.error ?? { name: 'ScriptError', message: 'The script failed.' } };
  // Apps Script passes return values through a JSON-like serialisation (undefined → null, Dates dropped).
  const value = result.value === undefined ? null : (JSON.parse(JSON.stringify(result.value)) as unknown);
  return { ok: true, value };
}

async function bundlePageScript(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(__dirname, 'page', 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Serves the playground on 127.0.0.1 (port 0 = ephemeral); close() drops open connections too. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const { stack, distDir } = options;
  const [pageHtml, pageScript] = await Promise.all([
    readFile(path.join(__dirname, 'page', 'index.html'), 'utf8'),
    bundlePageScript(),
  ]);

  async function sidebarHtml(): Promise<string> {
    // Read on each request so a rebuild shows up on reload.
    const [html, code] = await Promise.all([
      readFile(path.join(distDir, 'Sidebar.html'), 'utf8'),
      readFile(path.join(distDir, 'Code.js'), 'utf8'),
    ]);
    return injectShim(html, globalsOfBundle(code));
  }

  const workbook = (): Workbook => {
    if (!stack.runtime.workbook) throw new Error('This runtime has no workbook model.');
    return stack.runtime.workbook as Workbook;
  };
  const formulas = new FormulaCells(stack.runtime, workbook, async () =>
    customFunctionsOfBundle(await readFile(path.join(distDir, 'Code.js'), 'utf8')),
  );
  const sheetNamed = (name: unknown) => {
    const sheet = typeof name === 'string' ? workbook().sheetByName(name) : undefined;
    if (!sheet) throw new BadRequest(`No sheet named ${JSON.stringify(name)}.`);
    return sheet;
  };
  /** A data source sheet shows BigQuery's preview: read-only in the grid, as in Sheets. */
  const editableSheet = (name: unknown) => {
    const sheet = sheetNamed(name);
    if (isDataSourceSheet(workbook(), sheet))
      throw new BadRequest(`${sheet.name} is a data source sheet: its cells are BigQuery's and cannot be edited.`);
    return sheet;
  };
  /** Connected Sheets results that have come in since (data source sheets' previews, pivots' cells). */
  const drawDataSources = () => {
    if (stack.runtime.clock) drawFinishedExecutions(workbook(), stack.runtime.clock.now());
  };
  const position = (value: unknown, what: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new BadRequest(`${what} must be a whole number from 1.`);
    return n;
  };

  /** An order control's path with the order as the emulator knows it (its id), whatever the person typed. */
  async function orderControlPath(controlPath: string): Promise<string> {
    const match = ORDER_CONTROL.exec(controlPath);
    if (!match) return controlPath;
    let typed: string;
    try {
      typed = decodeURIComponent(match[1]!);
    } catch {
      throw new BadRequest('The order is not valid text.');
    }
    const orders = ((await stack.control('truth/orders')) as { data?: OrderRef[] }).data ?? [];
    const id = orderIdFor(typed, orders);
    if (id === null)
      throw new BadRequest(
        `No order ${JSON.stringify(typed)}: type its id (ord_…) or its number as the Orders sheet shows it (#1234).`,
      );
    return `/_emulator/orders/${encodeURIComponent(id)}/${match[2]!}`;
  }

  async function route(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/') return send(response, 200, 'text/html; charset=utf-8', pageHtml);
    if (method === 'GET' && url.pathname === '/playground/page.js')
      return send(response, 200, 'text/javascript; charset=utf-8', pageScript);
    if (method === 'GET' && url.pathname === '/playground/sidebar')
      return send(response, 200, 'text/html; charset=utf-8', await sidebarHtml());
    // The page declares no icon file (a data: URL); a browser that still asks gets an empty answer, not a 404.
    if (method === 'GET' && url.pathname === '/favicon.ico') {
      response.writeHead(204, { 'Cache-Control': 'max-age=86400' }).end();
      return;
    }
    if (method === 'GET' && url.pathname === '/playground/sheets') {
      drawDataSources();
      return sendJson(response, 200, {
        timeZone: workbook().timeZone,
        sheets: gridSheets(workbook(), formulas),
        triggers: workbookView({ sheets: {} }, stack.runtime.triggers).triggers,
      });
    }
    if (method === 'GET' && url.pathname === '/playground/cells') {
      drawDataSources();
      const sheet = sheetNamed(url.searchParams.get('sheet'));
      return sendJson(
        response,
        200,
        gridWindow(
          sheet,
          position(url.searchParams.get('from'), 'from'),
          position(url.searchParams.get('count'), 'count'),
          formulas,
        ),
      );
    }
    if (method === 'POST' && url.pathname === '/playground/cell') {
      // A cell typed into, as in Sheets: text that starts with "=" is a formula, other text is parsed (numbers, dates).
      const body = await readJson(request);
      const sheet = editableSheet(body.sheet);
      const row = position(body.row, 'row');
      const column = position(body.column, 'column');
      if (typeof body.input !== 'string') throw new BadRequest('input must be text.');
      const input = body.input;
      try {
        sheet.write(
          row,
          column,
          input.startsWith('=') && input.length > 1 ? { formula: input } : userEnteredWrite(input, workbook().timeZone),
        );
      } catch (error) {
        throw new BadRequest(error instanceof Error ? error.message : String(error));
      }
      const result = await formulas.recalculate(sheet, row, column);
      return sendJson(response, 200, { ok: true, result: result ?? null });
    }
    if (method === 'POST' && url.pathname === '/playground/report') {
      const truth = (await stack.control('truth/store')) as { today?: unknown };
      const sheet = ensureReportSheet(workbook(), String(truth.today));
      await formulas.settle(sheet);
      return sendJson(response, 200, { ok: true, sheet: sheet.name });
    }
    if (method === 'GET' && url.pathname === '/playground/charts') {
      const name = url.searchParams.get('sheet') ?? '';
      return sendJson(response, 200, {
        charts:
          chartViews(stack.runtime.exportJson() as Parameters<typeof chartViews>[0], (sheet, row, column) =>
            workbook().sheetByName(sheet)?.format(row, column),
          )[name] ?? [],
      });
    }
    if (method === 'GET' && url.pathname === '/playground/workbook') {
      return sendJson(response, 200, workbookView(stack.runtime.exportJson(), stack.runtime.triggers));
    }
    if (method === 'POST' && url.pathname === '/playground/run') {
      const body = await readJson(request);
      const name = body.name;
      const args = body.args ?? [];
      if (typeof name !== 'string' || !IDENTIFIER.test(name) || name.endsWith('_'))
        throw new BadRequest('name must be a server function name.');
      if (!Array.isArray(args)) throw new BadRequest('args must be an array.');
      const result = await stack.runtime.run(name, args, { authMode: 'FULL' });
      return sendJson(response, 200, replyOf(result));
    }
    if (method === 'POST' && url.pathname === '/playground/grid') {
      // A user's own edit to the grid's shape, as in the Sheets UI (the grid edit).
      const body = await readJson(request);
      const sheet = body.edit === 'rename-sheet' ? sheetNamed(body.sheet) : editableSheet(body.sheet);
      try {
        if (body.edit === 'delete-row') deleteRow(workbook(), sheet, position(body.row, 'row'));
        else if (body.edit === 'insert-column') insertColumnBefore(workbook(), sheet, position(body.column, 'column'));
        else if (body.edit === 'rename-sheet' && typeof body.name === 'string')
          renameSheet(workbook(), sheet, body.name);
        else throw new BadRequest('edit must be delete-row, insert-column or rename-sheet (with a name).');
      } catch (error) {
        throw error instanceof BadRequest
          ? error
          : new BadRequest(error instanceof Error ? error.message : String(error));
      }
      return sendJson(response, 200, { ok: true, sheet: sheet.name });
    }
    if (method === 'POST' && url.pathname === '/playground/clock') {
      // Both clocks move together, the runtime's (Last sync, triggers) and the emulator's (store data), as the tests' advanceClocks does.
      const body = await readJson(request);
      const seconds = Number(body.seconds);
      if (!Number.isInteger(seconds) || seconds < 1) throw new BadRequest('seconds must be a whole number from 1.');
      await stack.advanceClocks(seconds * 1000);
      return sendJson(response, 200, { ok: true, value: (await stack.control('clock')) ?? null });
    }
    if (method === 'POST' && url.pathname === '/playground/control') {
      const body = await readJson(request);
      const controlPath = typeof body.path === 'string' ? await orderControlPath(body.path) : body.path;
      if (typeof controlPath !== 'string' || !/^\/_emulator\/[A-Za-z0-9_\-/]+$/.test(controlPath)) {
        throw new BadRequest('path must be an /_emulator/ control path.');
      }
      // The page's controls are all POSTs (a control call without a body would be a GET).
      return sendJson(response, 200, { ok: true, value: (await stack.control(controlPath, body.body ?? {})) ?? null });
    }
    if (method === 'POST' && url.pathname === '/playground/trigger') {
      const trigger = stack.runtime.triggers.find((t) => t.type === 'CLOCK');
      if (!trigger)
        return sendJson(response, 200, {
          ok: false,
          error: { name: 'NoTrigger', message: 'No scheduled trigger: set a schedule in the sidebar first.' },
        });
      return sendJson(response, 200, replyOf(await stack.runtime.fireTrigger(trigger.uid)));
    }
    sendJson(response, 404, {
      ok: false,
      error: { name: 'NotFound', message: `No playground route ${method} ${url.pathname}` },
    });
  }

  // Executions run concurrently, as google.script.run calls and triggers do in Apps Script.
  const server = http.createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      const status = error instanceof BadRequest ? 400 : 500;
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent)
        sendJson(response, status, {
          ok: false,
          error: { name: status === 400 ? 'BadRequest' : 'PlaygroundError', message },
        });
      else response.end();
    });
  });
  outlastClientKeepAlive(server);
  const wanted = options.port ?? 8080;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${wanted} on 127.0.0.1 is busy (another playground, or another program). Start on a free port: npm start -- --port ${wanted === 65535 ? 8081 : wanted + 1}`,
            )
          : error,
      );
    });
    server.listen(wanted, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stack,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
