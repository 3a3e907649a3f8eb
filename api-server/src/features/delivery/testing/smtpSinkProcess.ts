/**
 * The loopback SMTP sink (smtpSink.ts) in a process of its own, so a benchmark measures the sender
 * and not the server's parsing: `fork` it; it sends `{ port }` once listening and answers each
 * `'count'` message with `{ count }`.
 */
import { startSmtpSink } from './smtpSink.ts';

const sink = await startSmtpSink();
process.send?.({ port: sink.port });
process.on('message', (message) => {
  if (message === 'count') process.send?.({ count: sink.received.length });
  if (message === 'stop') void sink.close().then(() => process.exit(0));
});
