/**
 * The set-up the sidebar's browser tests share: the playground over a started stack, its sidebar
 * frame in real Chromium, and the consent flow a user clicks through to connect a store.
 */
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { startPlayground, type Playground } from '../../dev/playground/app';
import type { Stack } from '../../dev/harness/index';
import { launchChromium } from './chromium';

export const DIST = path.resolve(__dirname, '../../dist');
export const SCREENSHOTS = path.resolve(__dirname, '../../out/screenshots');

export interface SidebarSession {
  playground: Playground;
  browser: Browser;
  page: Page;
  sidebar: Frame;
  close(): Promise<void>;
}

export async function openSidebar(stack: Stack, viewport = { width: 1400, height: 1000 }): Promise<SidebarSession> {
  const playground = await startPlayground({ stack, distDir: DIST, port: 0 });
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport });
  await page.goto(playground.url);
  const sidebar = page.frame({ url: /\/playground\/sidebar$/ });
  if (!sidebar) throw new Error('the sidebar iframe did not load');
  return {
    playground,
    browser,
    page,
    sidebar,
    async close() {
      await browser.close();
      await playground.close();
    },
  };
}

/** Connect → consent page → approve for `storeId`, until the sidebar says Connected. */
export async function connectFromSidebar(session: SidebarSession, storeId: string): Promise<void> {
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
