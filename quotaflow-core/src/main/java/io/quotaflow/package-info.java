/**
 * The pipeline's entry points: {@code Pipeline} starts one instance (Kafka Streams, the HTTP
 * surface, metrics) from a {@code QuotaflowConfig}, and {@code TicketQueries} answers status
 * questions over the running instance's stores. It wires every package of core together; no package
 * of core depends on it.
 */
package io.quotaflow;
