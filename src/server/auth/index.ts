/** The connection: OAuth set-up, token lifecycle and the state the sidebar shows. */
export { authorizationUrl, disconnect } from './connect';
export { handleAuthCallback, type AuthCallbackRequest } from './callback';
export { connectionStatus, markConnectionBroken, markOperatorProblem, recordAuthFailure, confirmStore } from './lifecycle';
export { storeTag, setStoreTag } from './connection-record';
export { triggerTokenSource, customFunctionTokenSource, refreshProactively } from './token-sources';
export { documentLock, withDocumentLock } from './session';
export { ConnectionError, isConnectionError } from './errors';
export type { ConnectionStatus, ConnectionRecord, BrokenReason, ConnectionDetail, StoreRef } from './types';
export { REQUESTED_SCOPES, SERVICE_NAME, TOKEN_PROPERTY_KEY } from './constants';
