/**
 * The failure table: {@code OutcomePolicy}, a pure decision per call outcome, the backoff, a
 * scope's health (circuit, halt), the failure headers and the error kinds. Pure rules over values: it
 * forwards no record, touches no store and does not depend on the dispatcher or Kafka Streams (the
 * headers are Kafka's {@code Headers}).
 */
package io.quotaflow.failure;
