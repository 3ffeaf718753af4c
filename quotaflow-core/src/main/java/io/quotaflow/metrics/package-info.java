/**
 * Observability: the Micrometer registry and the metrics contract ({@code PipelineMetrics},
 * {@code RouteMeters}, {@code TenantMeters}), Kafka client and Streams metrics, health, and the HTTP
 * server of {@code /metrics}, {@code /health} and the status endpoints ({@code StatusServer}). It
 * listens to the dispatcher; nothing in the dispatch path depends on it.
 */
package io.quotaflow.metrics;
