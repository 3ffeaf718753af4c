/**
 * The Kafka Streams wiring only: the topology, intake, the scope partitioner, the interactive
 * lanes, the hold on intake (dispatch first) and the error handlers. It wires the dispatcher's
 * processor in; the dispatcher and the rules below it do not depend on it.
 */
package io.quotaflow.topology;
