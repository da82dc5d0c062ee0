/**
 * Connect, Reconnect and Disconnect: the authorization window, waiting for the callback to store
 * the connection, and the confirmation before disconnecting.
 */
import type { SidebarState } from '../contract/sidebar';
import { byId, setText, show } from './dom';
import { connectionNotMadeText } from './format';
import { call } from './server';
import { apply, perform, session, setBusy } from './session';

const POLL_INTERVAL_MS = 2000;
const POLL_LIMIT_MS = 10 * 60 * 1000;
/** How often the authorization window is looked at: closing it is noticed at once, without a server call. */
const POPUP_CHECK_MS = 250;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits up to `ms`, ending early the moment the authorization window is closed. */
async function delayOrClosed(ms: number, popup: Window | null): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (popup && popup.closed) return;
    await delay(Math.min(POPUP_CHECK_MS, until - Date.now()));
  }
}

/**
 * Polls until the callback has stored the connection, the window is closed, or time runs out. A
 * closed window is answered at once: the state is read straight away, and once more a moment
 * later (the callback may still be storing the connection as the window closes).
 */
async function waitForConnection(popup: Window | null): Promise<string> {
  const started = Date.now();
  let closedReads = 0;
  while (Date.now() - started < POLL_LIMIT_MS) {
    await delayOrClosed(closedReads > 0 ? 1000 : POLL_INTERVAL_MS, popup);
    const state = await call('getSidebarState');
    apply(state);
    if (state.connection.state === 'connected') {
      const store = state.connection.store;
      const resumed =
        state.schedule.note && state.schedule.note.kind === 'resumed' ? ` ${state.schedule.note.message}` : '';
      return `${store ? `Connected to ${store.name}.` : 'Connected.'}${resumed}`;
    }
    if (popup && popup.closed && ++closedReads >= 2) return connectionNotMadeText(state);
  }
  return 'Still not connected. Connect to try again.';
}

export const connect = () => {
  // Opened inside the click so the browser does not block it; pointed at the URL once the server answers.
  const popup = window.open('', '_blank');
  return perform('Opening the authorization page…', 'start the connection', async () => {
    show('connect-help', false);
    let url: string;
    try {
      url = (await call('beginConnect')).authorizationUrl;
    } catch (error) {
      if (popup) popup.close();
      throw error;
    }
    if (popup) {
      popup.location.href = url;
    } else {
      const help = byId('connect-help');
      const link = document.createElement('a');
      link.href = url;
      link.target = '_blank';
      link.rel = 'noopener';
      link.textContent = 'Open the authorization page';
      help.replaceChildren('Your browser blocked the new window. ', link, '.');
      help.hidden = false;
    }
    setBusy('Waiting for you to approve access in the new window…');
    return waitForConnection(popup);
  });
};

/**
 * Granular consent: the Google permissions the user has not granted the add-on, and Google's page
 * to grant them (a sync or Connect without them stops before starting).
 */
export function renderGoogleConsent(state: SidebarState): void {
  const consent = state.googleConsent ?? null;
  show('google-consent', consent !== null);
  if (!consent) return;
  setText(
    'google-consent-text',
    `Google has not given the add-on your permission to ${consent.missing.join('; ')}. Syncing and connecting stop until you grant it.`,
  );
  show('google-consent-grant', consent.authorizationUrl !== null);
  if (consent.authorizationUrl !== null) byId<HTMLAnchorElement>('google-consent-link').href = consent.authorizationUrl;
}

function askDisconnect(): void {
  const name = session.current?.connection.store?.name ?? 'this store';
  setText(
    'disconnect-question',
    `Disconnect ${name}? The sheets keep their data; syncing stops until you connect again.`,
  );
  show('disconnect-confirm', true);
  byId('disconnect-no').focus();
}

const disconnect = () =>
  perform('Disconnecting…', 'disconnect', async () => {
    apply(await call('disconnectStore'));
    return 'Disconnected.';
  });

export function wireConnection(): void {
  byId('connect').addEventListener('click', () => void connect());
  byId('reconnect').addEventListener('click', () => void connect());
  byId('disconnect').addEventListener('click', askDisconnect);
  byId('disconnect-no').addEventListener('click', () => show('disconnect-confirm', false));
  byId('disconnect-yes').addEventListener('click', () => void disconnect());
}
