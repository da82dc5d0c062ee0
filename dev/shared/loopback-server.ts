import type { Server } from 'node:http';

/**
 * How long the dev servers keep an idle connection open. Node's HTTP agent (keep-alive on by
 * default since Node 19) and undici's fetch drop their idle sockets after about 4–5 s; a server
 * that closes its side at the same moment (Node's default keepAliveTimeout is 5 s) races them, and
 * a request sent on a socket the server is closing fails with `read ECONNRESET`. A server that
 * waits longer than every client lets the client always close first (the rule load balancers
 * document for their upstreams).
 */
export const IDLE_CONNECTION_MS = 65_000;

/** Applies {@link IDLE_CONNECTION_MS} to a loopback server; headersTimeout must exceed it. */
export function outlastClientKeepAlive(server: Server): Server {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  return server;
}
