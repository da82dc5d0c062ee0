/**
 * The set-up every browser test shares: whether it can run (Chromium installed, dist/ built), the
 * playground over a started stack or a scripted stand-in, its page in real Chromium, the sidebar
 * frame, the consent flow a user clicks through to connect a store, and one close for all of it.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { startPlayground, type Playground } from '../../dev/playground/app';
import type { PlaygroundStack } from '../../dev/playground/types';
import { columnToLetters } from '../../dev/gas-runtime/spreadsheet/a1';
import { startStack, type Stack, type StackOptions } from '../../dev/harness/index';
import { hasChromium, sharedChromium, SKIP_REASON } from './chromium';

export { hasChromium, SKIP_REASON };

export const DIST = path.resolve(__dirname, '../../dist');
export const SCREENSHOTS = path.resolve(__dirname, '../../out/screenshots');

/** `npm run build` has written the bundle and the sidebar. */
export const bundleBuilt = existsSync(path.join(DIST, 'Code.js')) && existsSync(path.join(DIST, 'Sidebar.html'));
/** A browser test can run here. */
export const browserReady = hasChromium && bundleBuilt;
/** Why a browser test is skipped here. */
export const NOT_READY = hasChromium ? 'dist/ is missing: run npm run build first' : SKIP_REASON;

type Viewport = { width: number; height: number };

export interface OpenOptions {
  /** The directory the playground serves Code.js and Sidebar.html from (dist/ unless given). */
  distDir?: string;
  viewport?: Viewport;
  /** The playground path the page opens first ('' the playground with its sidebar); false leaves it blank. */
  open?: string | false;
  /** Installs Playwright's clock in the page before it opens, for tickUntil. */
  clock?: boolean;
}

export interface BrowserSession {
  playground: Playground;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export interface SidebarSession extends BrowserSession {
  stack: Stack;
  /** The sidebar frame as the page shows it now (looked up again after a reload). */
  readonly sidebar: Frame;
}

/** The playground's sidebar iframe in `page`. */
export function sidebarFrame(page: Page): Frame {
  const frame = page.frame({ url: /\/playground\/sidebar$/ });
  if (!frame) throw new Error('the sidebar iframe did not load');
  return frame;
}

/** How far each tick moves the page's clock: below the sidebar's shortest wait (a look at the authorization window). */
const TICK_MS = 250;

/**
 * Moves the page's clock (page.clock.install() before the page opened) a tick at a time until
 * `done`, at most `withinMs` of the page's time: the sidebar's own timers (its looks at the stamp,
 * at the authorization window) fire at once instead of after seconds of real waiting.
 */
export async function tickUntil(page: Page, withinMs: number, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let ticked = 0; !(await done()); ticked += TICK_MS) {
    if (ticked >= withinMs) throw new Error(`not done within ${withinMs} ms of the page's clock`);
    await page.clock.fastForward(TICK_MS);
    await serverCallsAnswered(page);
  }
}

/**
 * Waits (real time) until every google.script.run call the page's frames made has been answered:
 * the server answers in real time, so on a loaded machine the page's clock would otherwise run
 * through its whole allowance before a poll's answer arrived.
 */
async function serverCallsAnswered(page: Page): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    let inFlight = 0;
    for (const frame of page.frames())
      inFlight += await frame
        .evaluate(() => (window as unknown as { __GAS_IN_FLIGHT__?: number }).__GAS_IN_FLIGHT__ ?? 0)
        .catch(() => 0);
    if (inFlight === 0) return;
    if (Date.now() > deadline) throw new Error(`${inFlight} server call(s) unanswered after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Clicks a cell of the playground's grid and waits until the page shows it selected (its reference
 * above the grid), so that what is typed next goes into that cell.
 */
export async function selectCell(page: Page, row: number, column: number): Promise<void> {
  const reference = `${columnToLetters(column)}${row}`;
  await page.locator(`#grid .g-c[data-row="${row}"][data-column="${column}"]`).click();
  await page.waitForFunction((r) => document.querySelector('#cell-ref')?.textContent === r, reference);
}

/** The text `selector` shows now. */
export function textOf(frame: Frame, selector: string): Promise<string> {
  return frame.evaluate((s) => document.querySelector(s)?.textContent ?? '', selector);
}

/** Closes in reverse order of opening, every one even when one fails. */
async function closeAll(closers: Array<() => Promise<void>>): Promise<void> {
  let failure: unknown = null;
  for (const close of [...closers].reverse()) {
    try {
      await close();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
}

/** The playground over `stack` and a Chromium page on it; on a failure, what was opened is closed. */
export async function openPlayground(stack: PlaygroundStack, options: OpenOptions = {}): Promise<BrowserSession> {
  const closers: Array<() => Promise<void>> = [];
  try {
    const playground = await startPlayground({ stack, distDir: options.distDir ?? DIST, port: 0 });
    closers.push(() => playground.close());
    const browser = await sharedChromium();
    const page = await browser.newPage({ viewport: options.viewport ?? { width: 1400, height: 1000 } });
    // The page's own context (popups included): the browser stays for the worker's next file.
    closers.push(() => page.context().close());
    if (options.clock) await page.clock.install();
    if (options.open !== false) await page.goto(`${playground.url}${options.open ?? ''}`);
    await mkdir(SCREENSHOTS, { recursive: true });
    return { playground, browser, page, close: () => closeAll(closers) };
  } catch (error) {
    await closeAll(closers).catch(() => undefined);
    throw error;
  }
}

/**
 * A stack (emulator + local runtime + the built bundle) with the playground and its sidebar in
 * Chromium. close() ends all of it but the worker's shared browser.
 */
export async function openSidebar(stackOptions: StackOptions, options: OpenOptions = {}): Promise<SidebarSession> {
  const stack = await startStack(stackOptions);
  const closers = [() => stack.close()];
  try {
    const browser = await openPlayground(stack, options);
    closers.push(() => browser.close());
    const { page } = browser;
    if (options.open === undefined || options.open === '') sidebarFrame(page);
    return {
      ...browser,
      stack,
      get sidebar() {
        return sidebarFrame(page);
      },
      close: () => closeAll(closers),
    };
  } catch (error) {
    await closeAll(closers).catch(() => undefined);
    throw error;
  }
}

/** Connect → consent page → approve for `storeId`, until the sidebar says Connected. */
export async function connectFromSidebar(session: BrowserSession & { sidebar: Frame }, storeId: string): Promise<void> {
  const { page, sidebar } = session;
  await sidebar.waitForSelector('#connect:not([hidden])');
  const [popup] = await Promise.all([page.waitForEvent('popup'), sidebar.click('#connect')]);
  await popup.waitForSelector('form#consent');
  await popup.check(`input[name="store_id"][value="${storeId}"]`);
  await Promise.all([popup.waitForURL(/\/usercallback/), popup.click('button[value="approve"]')]);
  await popup.close();
  await sidebar.waitForFunction(
    () => document.querySelector('#connection-text')?.textContent === 'Connected',
    undefined,
    { timeout: 30_000 },
  );
}

/** Sync now until the sidebar says it finished. */
export async function syncFromSidebar(sidebar: Frame, button = '#sync-now'): Promise<void> {
  await sidebar.click(button);
  await sidebar.waitForFunction(() => document.querySelector('#status')?.textContent === 'Sync finished.', undefined, {
    timeout: 150_000,
  });
}
