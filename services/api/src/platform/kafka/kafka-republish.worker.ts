/*
 * One producer of `kupa events republish` (docs/adr/0124-republish-producer-threads.md), in a worker thread that
 * `RepublishProducers` starts: its own idempotent kafkajs producer for the partitions its parent gives it. It sends
 * each step's sends one after another, each acknowledged by all in-sync replicas before the next, and answers once the
 * step's last is acknowledged or one has failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { installFastRecordEncoding } from './kafkajs-record-encoding';
import { KafkaEventPublisher } from './kafka-event-publisher';
import type { TopicMessages } from './published-event';
import { decodeSends } from './republish-handover';
import type { ProducerReply, ProducerRequest, ProducerThreadOptions } from './republish-producers';

// Before kafkajs's produce request loads (at the first send): this thread's records then cost a fraction of the CPU
// (docs/adr/0131). The live publisher, in the main thread, keeps kafkajs's own encoding.
// Where it could not be installed (another kafkajs release), the step's messages are given to kafkajs as strings.
const preEncoded = installFastRecordEncoding();
const publisher = new KafkaEventPublisher({ ...(workerData as ProducerThreadOptions), topicsExist: true });
const port = parentPort;
if (!port) throw new Error('kafka-republish.worker runs as a worker thread');

port.on('message', (request: ProducerRequest) => {
  // Closing the port once the producer disconnected ends the thread; the parent waits for its exit.
  if (request.kind === 'close') void publisher.disconnect().then(() => port.close());
  else void send(request).then((reply) => port.postMessage(reply));
});

async function send(request: Extract<ProducerRequest, { kind: 'step' }>): Promise<ProducerReply> {
  try {
    // One send at a time, each acknowledged before the next: kafkajs's idempotent producer holds one request per
    // broker in flight whatever `maxInFlightRequests` says, and a failed send gives its sequence numbers back, which a
    // send queued behind it would take (ADR 0116, amendment of 2026-12-01).
    // A pre-encoded message is what kafkajs's grouping and our record encoder read: its partition and its bytes.
    for (const send of decodeSends(request.sends, !preEncoded)) await publisher.send(send as TopicMessages[]);
    return { kind: 'acknowledged', step: request.step };
  } catch (error) {
    return { kind: 'failed', step: request.step, message: error instanceof Error ? error.message : String(error) };
  }
}
