/**
 * The calls: {@code CallSender} sends without blocking the stream thread (answers wait in a queue for it);
 * {@code BatchCaller}, {@code BatchRequests} and {@code BatchReconcile} run a batch route's Batch API jobs, and
 * {@code EnqueuedLimit} bounds their enqueued tokens.
 */
package io.quotaflow.dispatch.call;
