import { Inject, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { ProcessorRunner } from '../projections/processor-runner';
import { KafkaEventPublisher } from './kafka-event-publisher';

/**
 * Registers the Kafka fan-out with the processor runner when `KAFKA_BROKERS` is set; otherwise it does nothing, and
 * nothing else changes. The publisher then runs wherever processors run (the server and `npm run worker`), once
 * across all of them, like every processor.
 */
@Module({})
export class KafkaModule implements OnModuleInit, OnApplicationShutdown {
  private publisher: KafkaEventPublisher | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runner: ProcessorRunner,
  ) {}

  onModuleInit(): void {
    const settings = this.config.kafka;
    if (!settings) return;
    const logger = new Logger('Kafka');
    // kafkajs reports every failed attempt of an outage; the runner already logs each failed batch once.
    this.publisher = new KafkaEventPublisher({
      ...settings,
      log: ({ level, namespace, message }) => logger.debug(`${level} ${namespace}: ${message}`),
      warn: (message) => logger.warn(message),
    });
    this.runner.register(this.publisher);
    logger.log(
      `Publishing every event to Kafka at ${settings.brokers.join(',')} (topics ${settings.topicPrefix}*, created ` +
        `with ${settings.topicPartitions} partitions and ${settings.topicReplicationFactor} replicas)`,
    );
  }

  /** After `BackgroundWork` stopped the runner (before shutdown), so no batch is sending any more. */
  async onApplicationShutdown(): Promise<void> {
    await this.publisher?.disconnect();
  }
}
