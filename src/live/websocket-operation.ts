// What marks a GraphQL operation's context as one sent over WebSocket (src/yoga/websocket.ts), read by the subscriptions
// (src/schema/types/live-events.ts): no Accept header to check there, and a stream resumes after the event named by
// the subscribe message's `extensions.lastEventId` instead of a Last-Event-ID header. No imports: the schema reads it.
export interface WebSocketOperation {
  lastEventId: string | null;
}

export const WEBSOCKET = Symbol("websocket");

/** The WebSocket operation a context belongs to, or undefined for an HTTP request. */
export const websocketOf = (context: unknown): WebSocketOperation | undefined => (context as { [WEBSOCKET]?: WebSocketOperation } | undefined)?.[WEBSOCKET];
