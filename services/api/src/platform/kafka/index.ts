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
  KafkaRepublisher,
  MAX_REPUBLISH_BATCH_SIZE,
  type RepublishOutcome,
  type RepublishRun,
} from './kafka-republisher';
