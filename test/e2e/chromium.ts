import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
export const SKIP_REASON = `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium): browser tests skipped`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium for all the e2e files a worker runs (the e2e project shares its worker's modules):
 * each session opens contexts of its own and closes only those. A launch costs about 1.5 s of CPU,
 * a context a tenth of that. Playwright kills the browsers it launched when the worker's process
 * exits; a browser that crashed or was closed is launched again.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launching = launchChromium();
    const forget = () => {
      if (shared === launching) shared = undefined;
    };
    shared = launching;
    launching.then((browser) => browser.on('disconnected', forget), forget);
  }
  return shared;
}
