/**
 * Producing and reading tickets from outside the pipeline: the publisher and its line parser,
 * cancelling, and reading results ({@code TicketPublisher}, {@code TicketCanceller},
 * {@code ResultsReader}). Plain Kafka clients for the commands; it does not depend on the dispatcher or
 * the topology.
 */
package io.quotaflow.publish;
