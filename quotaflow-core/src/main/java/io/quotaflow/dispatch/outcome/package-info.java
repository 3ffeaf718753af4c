/**
 * An outcome's effects as values: {@code OutcomeApplier} turns {@code OutcomePolicy}'s decision into
 * {@code Effects} (feedback, records as {@code Outbound} values built by {@code RecordEmitter}, ledger changes), and
 * {@code CacheGate} answers from the cache in front of the queue; the executor in {@code dispatch} applies them.
 */
package io.quotaflow.dispatch.outcome;
