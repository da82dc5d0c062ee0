import type { SidebarCallName, SidebarServerApi } from '../contract/server-api';

/** The part of google.script.run the sidebar uses (HtmlService client API). */
interface ScriptRunner {
  withSuccessHandler(handler: (value: unknown, userObject?: unknown) => void): ScriptRunner;
  withFailureHandler(handler: (error: Error, userObject?: unknown) => void): ScriptRunner;
  [serverFunction: string]: unknown;
}

interface GoogleScriptHost {
  script: { run: ScriptRunner };
}

/** A server failure as the sidebar sees it: Apps Script hands the failure handler an Error. */
export class ServerCallError extends Error {
  constructor(
    readonly functionName: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServerCallError';
  }
}

function runner(): ScriptRunner {
  const host = (globalThis as { google?: GoogleScriptHost }).google;
  if (!host || !host.script || !host.script.run) {
    throw new ServerCallError(
      'google.script.run',
      'This page must be opened from the add-on (google.script.run is missing).',
    );
  }
  return host.script.run;
}

/**
 * Calls a server function through google.script.run as a promise. The name and arguments are typed
 * from the contract that the server's globals are checked against, so a renamed global breaks the build.
 */
export function call<K extends SidebarCallName>(
  name: K,
  ...args: Parameters<SidebarServerApi[K]>
): Promise<ReturnType<SidebarServerApi[K]>> {
  return new Promise((resolve, reject) => {
    let run: ScriptRunner;
    try {
      run = runner();
    } catch (error) {
      reject(error);
      return;
    }
    const configured = run
      .withSuccessHandler((value) => resolve(value as ReturnType<SidebarServerApi[K]>))
      .withFailureHandler((error) => {
        const message = error && typeof error.message === 'string' ? error.message : String(error);
        reject(new ServerCallError(name, message));
      });
    const fn = configured[name];
    if (typeof fn !== 'function') {
      reject(new ServerCallError(name, `The add-on has no server function ${name}.`));
      return;
    }
    (fn as (...a: unknown[]) => void).apply(configured, args);
  });
}
