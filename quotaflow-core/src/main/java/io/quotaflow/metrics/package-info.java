/**
 * Observability: the Micrometer registry and the metrics contract ({@code PipelineMetrics},
 * {@code RouteMeters}, {@code TenantMeters}), Kafka client and Streams metrics, the {@code /metrics} page
 * ({@code MetricsPage}) and the health checks ({@code HealthCheck}); {@code io.quotaflow.http.server} serves
 * them. It listens to the dispatcher; nothing in the dispatch path depends on it.
 */
package io.quotaflow.metrics;
