/**
 * Granular consent in the sidebar (Chromium, emulator, local runtime): the user has not granted the
 * add-on its permission to connect to an external service. The sidebar names what is missing with
 * Google's link to grant it; following the link grants it, the banner goes, and Connect works.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stack } from '../../dev/harness/index';
import { browserReady, connectFromSidebar, openSidebar, type SidebarSession } from './sidebar-session';

const USER = 'user@example.com';
const EXTERNAL = 'https://www.googleapis.com/auth/script.external_request';

describe.skipIf(!browserReady)('a Google permission not granted (Chromium, emulator, local runtime)', () => {
  let session: SidebarSession;
  let stack: Stack;
  let page: Page;
  let sidebar: Frame;

  beforeAll(async () => {
    session = await openSidebar({ orders: 10, seed: 3 });
    stack = session.stack;
    page = session.page;
    stack.runtime.consent.withdraw(USER, EXTERNAL);
    await page.reload();
    sidebar = session.sidebar;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('the sidebar names it with the link to grant it; once granted the banner goes and Connect works', async () => {
    await sidebar.waitForSelector('#google-consent:not([hidden])');
    expect(await sidebar.textContent('#google-consent-text')).toContain(
      'Google has not given the add-on your permission to connect to Merchant Analytics',
    );
    const [popup] = await Promise.all([page.waitForEvent('popup'), sidebar.click('#google-consent-link')]);
    await popup.waitForLoadState();
    expect(await popup.textContent('body')).toContain('The add-on has the permissions it asked for');
    await popup.close();
    expect(stack.runtime.consent.granted(USER)).toContain(EXTERNAL);
    await page.reload();
    sidebar = session.sidebar;
    await sidebar.waitForSelector('#connect:not([hidden])');
    expect(await sidebar.isHidden('#google-consent')).toBe(true);
    const store = (await stack.truth('store')) as { store: { id: string } };
    await connectFromSidebar(session, store.store.id);
  }, 120_000);
});
