export {
  DEFAULT_KAFKA_RETRY_BACKOFF,
  KAFKA_PUBLISHER_NAME,
  KafkaEventPublisher,
  type KafkaPublisherOptions,
} from './kafka-event-publisher';
export { KafkaModule } from './kafka.module';
export {
  KAFKA_HEADERS,
  type KafkaMessage,
  streamCategory,
  toKafkaMessage,
  toPublishedEvent,
  topicOf,
  toTopicMessages,
  type TopicMessages,
} from './published-event';
export {
  DEFAULT_REPUBLISH_BATCH_SIZE,
  DEFAULT_REPUBLISH_PRODUCERS,
  KafkaRepublisher,
  MAX_REPUBLISH_BATCH_SIZE,
  MAX_REPUBLISH_PRODUCERS,
  type RepublishOutcome,
  type RepublishRun,
} from './kafka-republisher';
