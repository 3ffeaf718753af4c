/**
 * Cluster administration for the commands and the pipeline's start: Kafka client properties
 * ({@code KafkaClients}), the cluster check, the topics declared in {@code topics/} and their
 * application ({@code TopicsApplier}), the application reset, and timed-out transactions. Talks to
 * Kafka's {@code Admin} only; it does not depend on the dispatcher, the topology or the metrics.
 */
package io.quotaflow.admin;
