/**
 * The limiter: request and token buckets, daily budgets, calibration of estimated against billed
 * tokens, the context window, in-flight and latency limits, and the provider's rate-limit headers
 * ({@code QuotaLimiter}). Pure bookkeeping over settings and time (Kafka's {@code Time} is its only
 * Kafka type): it does not depend on the LLM client, the dispatcher or Kafka Streams.
 */
package io.quotaflow.quota;
