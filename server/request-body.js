// A request's body as a web stream that reads Node's request only while it is read, and leaves it
// unread otherwise. A handler that answers without reading the body (a refusal, a redirect) leaves the rest
// to Node, which reads and drops it so that the connection answers its next request. A body stream that
// reads ahead (Node's Readable.toWeb) would pause the request whenever its buffer is full, also while the rest
// is being dropped: the connection then stalls and is cut, and a proxy that reuses it answers 502.

/**
 * @param {import("node:http").IncomingMessage} incoming
 * @returns {ReadableStream<Uint8Array>}
 */
export function bodyOf(incoming) {
  return new ReadableStream(
    {
      pull(controller) {
        if (incoming.readableEnded) {
          controller.close();
          return undefined;
        }
        return new Promise((resolve) => {
          const done = () => {
            incoming.pause();
            incoming.off("data", onData);
            incoming.off("end", onEnd);
            incoming.off("error", onError);
            resolve(undefined);
          };
          const onData = (/** @type {Buffer} */ chunk) => {
            done();
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          };
          const onEnd = () => {
            done();
            controller.close();
          };
          const onError = (/** @type {Error} */ error) => {
            done();
            controller.error(error);
          };
          incoming.on("data", onData);
          incoming.once("end", onEnd);
          incoming.once("error", onError);
          incoming.resume();
        });
      },
      cancel() {
        // The rest is read and dropped (nothing listens), so the connection can answer its next request.
        incoming.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * What is left of a body once its answer is sent: read and dropped (Node does this itself only for a body
 * nobody started to read).
 * @param {import("node:http").IncomingMessage} incoming
 */
export function dropRest(incoming) {
  if (!incoming.readableEnded && !incoming.destroyed && incoming.listenerCount("data") === 0) incoming.resume();
}
