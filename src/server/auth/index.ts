/** The connection: OAuth set-up, token lifecycle and the state the sidebar shows. */
export { authorizationUrl, disconnect } from './connect';
export { handleAuthCallback, type AuthCallbackRequest } from './callback';
export { connectionStatus, markConnectionBroken, recordAuthFailure, confirmStore } from './lifecycle';
export { storeTag, setStoreTag } from './connection-record';
export { triggerTokenSource, customFunctionTokenSource, refreshProactively } from './token-sources';
export { documentLock } from './session';
export { isConnectionError } from './errors';
export { adoptPendingConnection } from './handoff';
export { currentUserEmail, expectNextRenewal, holdsConnection, isConnector } from './token-home';
export { nameUnnamedConnection } from './unnamed-connection';
export { readConnectionRecord } from './connection-record';
export { withUserLock, userLock } from './session';
